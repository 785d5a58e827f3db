import { describe, expect, it } from 'vitest';
import { isMondayDate, type PqCriterion } from '@meterportal/protocol';
import {
  assessWeek,
  countFrequency,
  yearToDateBounds,
  tenMinuteIntervals,
  unbalancePct,
  weekBounds,
  type PqMinutes,
} from './power-quality-fns';
import { judgeHarmonics } from './harmonics-fns';

const TZ = 'Europe/Bratislava';

/** What one stored minute holds; anything not given is a clean supply. */
interface MinuteValues {
  u?: number;
  u1?: number;
  thd?: number;
  f?: number;
  fMin?: number;
  fMax?: number;
  upp?: [number, number, number];
}

/** The stored minutes of a week: `at(minuteIndex)` gives the values, or null for a missing minute. */
function weekMinutes(fromSec: number, toSec: number, at: (i: number) => MinuteValues | null): PqMinutes {
  const ts: number[] = [];
  const cols = Array.from({ length: 12 }, () => [] as number[]);
  for (let i = 0; fromSec + i * 60 < toSec; i++) {
    const v = at(i);
    if (!v) continue;
    ts.push(fromSec + i * 60);
    const u = v.u ?? 230;
    const upp = v.upp ?? [u * Math.sqrt(3), u * Math.sqrt(3), u * Math.sqrt(3)];
    [v.u1 ?? u, u, u, ...upp, v.thd ?? 2, v.thd ?? 2, v.thd ?? 2].forEach((x, c) => cols[c]!.push(x));
    cols[9]!.push(v.f ?? 50);
    cols[10]!.push(v.fMin ?? v.f ?? 50);
    cols[11]!.push(v.fMax ?? v.f ?? 50);
  }
  const c = (k: number) => cols[k]!;
  return {
    tsSec: ts,
    u: [c(0), c(1), c(2)],
    upp: [c(3), c(4), c(5)],
    thdU: [c(6), c(7), c(8)],
    fAvg: c(9),
    fMin: c(10),
    fMax: c(11),
  };
}

// An ordinary week: 1008 ten-minute intervals, 10,080 minutes.
const week = weekBounds('2026-03-09', TZ);
/** A week without stored spectra. */
const noSpectra = judgeHarmonics([], week.fromSec, week.toSec);
/** A year to date holding only what the week's minutes hold (the rest of the year without data). */
const onlyWeek = (m: PqMinutes, w: { fromSec: number; toSec: number }) => ({
  ...w,
  ...countFrequency(m, w.fromSec, w.toSec),
});
const assessIn = (w: { fromSec: number; toSec: number }, m: PqMinutes, nominalV = 230) =>
  assessWeek(m, { ...w, timeZone: TZ, nominalV }, onlyWeek(m, w), judgeHarmonics([], w.fromSec, w.toSec));
const assess = (at: (i: number) => MinuteValues | null, nominalV = 230) =>
  assessIn(week, weekMinutes(week.fromSec, week.toSec, at), nominalV);
const crit = (r: ReturnType<typeof assess>, c: PqCriterion) => r.criteria.find((x) => x.criterion === c)!;
const interval = (i: number) => Math.floor(i / 10);

describe('weeks in the installation time zone', () => {
  it('starts on Monday 00:00 local time', () => {
    expect(new Date(week.fromSec * 1000).toISOString()).toBe('2026-03-08T23:00:00.000Z');
    expect(week.toSec - week.fromSec).toBe(7 * 86400);
  });

  it.each([
    ['2026-03-23', 167 * 3600, 1002],
    ['2026-10-19', 169 * 3600, 1014],
    ['2026-03-16', 168 * 3600, 1008],
  ])('the week of %s is %i s long with %i ten-minute intervals', (monday, lengthSec, intervals) => {
    const w = weekBounds(monday, TZ);
    expect(w.toSec - w.fromSec).toBe(lengthSec);
    const r = assessIn(
      w,
      weekMinutes(w.fromSec, w.toSec, () => ({})),
    );
    expect(r.coverage.intervalsInWeek).toBe(intervals);
    expect(r.coverage.intervalsAssessed).toBe(intervals);
    expect(r.coverage.minutesInWeek).toBe(lengthSec / 60);
    expect(r.verdict).toBe('PASS');
  });

  it('counts the spring-forward week (Monday 23 March 2026) in local 10-minute intervals', () => {
    const w = weekBounds('2026-03-23', TZ);
    // A sag on Sunday 29 March 03:00-03:10 local (01:00 UTC, just after the change) lands in one interval.
    const sagFrom = Date.UTC(2026, 2, 29, 1, 0) / 1000;
    const r = assessIn(
      w,
      weekMinutes(w.fromSec, w.toSec, (i) => {
        const ts = w.fromSec + i * 60;
        return ts >= sagFrom && ts < sagFrom + 600 ? { u1: 190 } : {};
      }),
    );
    const always = crit(r, 'VOLTAGE_ALWAYS');
    expect(always.assessed).toBe(1002);
    expect(always.within).toBe(1001);
    expect(always.worst[0]).toEqual({ startSec: sagFrom, value: 190, phase: 'L1' });
  });

  it('accepts only real Mondays', () => {
    expect(isMondayDate('2026-03-09')).toBe(true);
    for (const bad of ['2026-03-10', '2026-02-30', '2026-3-9', '09.03.2026', '', '1999-12-27'])
      expect(isMondayDate(bad)).toBe(false);
  });
});

describe('supply voltage, 10-minute means within Un +/-10 % for 95 % of the week', () => {
  it('passes at exactly 95 % (950 of 1000 assessed intervals) and fails at 94.9 %', () => {
    // 8 intervals missing entirely: 1000 assessed.
    const at = (bad: number) => (i: number) =>
      interval(i) >= 1000 ? null : interval(i) < bad ? { u1: 200 } : {};
    const pass = crit(assess(at(50)), 'VOLTAGE_95');
    expect([pass.verdict, pass.assessed, pass.within, pass.achievedPct]).toEqual(['PASS', 1000, 950, 95]);
    const fail = crit(assess(at(51)), 'VOLTAGE_95');
    expect([fail.verdict, fail.within, fail.achievedPct]).toEqual(['FAIL', 949, 94.9]);
  });

  it('takes +10 % exactly (253.0 V) as within, 253.01 V as outside', () => {
    expect(
      crit(
        assess(() => ({ u1: 253 })),
        'VOLTAGE_ALWAYS',
      ).verdict,
    ).toBe('PASS');
    const over = crit(
      assess((i) => (interval(i) === 7 ? { u1: 253.01 } : {})),
      'VOLTAGE_ALWAYS',
    );
    expect(over.verdict).toBe('FAIL');
    expect(over.worst[0]).toEqual({ startSec: week.fromSec + 7 * 600, value: 253.01, phase: 'L1' });
  });

  it('keeps -15 % (195.5 V) within the always-limit and fails 195.4 V', () => {
    const at = (v: number) => (i: number) => (interval(i) < 20 ? { u1: v } : {});
    const edge = assess(at(195.5));
    expect(crit(edge, 'VOLTAGE_ALWAYS').verdict).toBe('PASS');
    // 20 of 1008 below -10 %: 98.01 % within, still a pass of the 95 % rule.
    expect(crit(edge, 'VOLTAGE_95')).toMatchObject({ verdict: 'PASS', within: 988, achievedPct: 98.01 });
    expect(crit(assess(at(195.4)), 'VOLTAGE_ALWAYS').verdict).toBe('FAIL');
  });

  it('follows a configured nominal voltage', () => {
    const r = assess(() => ({ u: 120 }), 120);
    expect(crit(r, 'VOLTAGE_95')).toMatchObject({ verdict: 'PASS', lowLimit: 108, highLimit: 132 });
    expect(
      crit(
        assess(() => ({ u: 120 })),
        'VOLTAGE_95',
      ).verdict,
    ).toBe('FAIL');
  });

  it('aggregates a 10-minute value as the rms of its minute means', () => {
    const m = weekMinutes(week.fromSec, week.fromSec + 600, (i) => ({ u1: i % 2 === 0 ? 220 : 240 }));
    const [iv] = tenMinuteIntervals(m, week.fromSec, week.fromSec + 600);
    expect(iv!.u[0]).toBeCloseTo(Math.sqrt((220 ** 2 + 240 ** 2) / 2), 9);
  });
});

describe('missing data', () => {
  it('leaves out an interval with fewer than 5 stored minutes and counts one with 5', () => {
    // Interval 0 has 4 minutes at 150 V, interval 1 has 5 minutes at 150 V, the rest is clean.
    const r = assess((i) => {
      if (i < 10) return i < 4 ? { u: 150 } : null;
      if (i < 20) return i < 15 ? { u: 150 } : null;
      return {};
    });
    const v = crit(r, 'VOLTAGE_ALWAYS');
    expect([v.assessed, v.within]).toEqual([1007, 1006]);
    expect(v.worst[0]!.startSec).toBe(week.fromSec + 600);
    expect(r.coverage).toEqual({
      minutesInWeek: 10080,
      minutesStored: 10080 - 11,
      intervalsInWeek: 1008,
      intervalsAssessed: 1007,
      pct: 99.89,
    });
  });

  it('says NO_DATA, not PASS, for a week without stored minutes', () => {
    const r = assess(() => null);
    expect(r.verdict).toBe('NO_DATA');
    expect(crit(r, 'VOLTAGE_95')).toMatchObject({ verdict: 'NO_DATA', achievedPct: null, assessed: 0 });
    expect(r.coverage.pct).toBe(0);
  });
});

describe('frequency, minute means within 50 Hz +/-1 % for 99.5 %', () => {
  // 10,000 minutes stored (80 missing at the end of the week).
  const at = (bad: number, f: number) => (i: number) => (i >= 10000 ? null : i < bad ? { f } : {});

  it('passes at exactly 99.5 % (9,950 of 10,000 minutes) and fails at 99.49 %', () => {
    const pass = crit(assess(at(50, 50.6)), 'FREQUENCY_995');
    expect([pass.verdict, pass.assessed, pass.within, pass.achievedPct]).toEqual(['PASS', 10000, 9950, 99.5]);
    const fail = crit(assess(at(51, 50.6)), 'FREQUENCY_995');
    expect([fail.verdict, fail.achievedPct]).toEqual(['FAIL', 99.49]);
    expect(fail.worst[0]).toEqual({ startSec: week.fromSec, value: 50.6, phase: null });
  });

  it('keeps 49.5 Hz and 50.5 Hz within the limit', () => {
    expect(crit(assess(at(5000, 49.5)), 'FREQUENCY_995').verdict).toBe('PASS');
    expect(crit(assess(at(5000, 50.5)), 'FREQUENCY_995').verdict).toBe('PASS');
  });

  it('fails the always-limit (47 to 52 Hz) on a single second below 47 Hz', () => {
    expect(
      crit(
        assess((i) => (i === 3 ? { fMin: 47 } : {})),
        'FREQUENCY_ALWAYS',
      ).verdict,
    ).toBe('PASS');
    const r = crit(
      assess((i) => (i === 3 ? { fMin: 46.99 } : {})),
      'FREQUENCY_ALWAYS',
    );
    expect(r.verdict).toBe('FAIL');
    expect(r.worst[0]).toEqual({ startSec: week.fromSec + 180, value: 46.99, phase: null });
  });
});

describe('frequency over the year to date', () => {
  const ytd = yearToDateBounds('2026-03-09', TZ);
  /** A year to date of `minutes` stored minutes, `within` of them within the band, the week included. */
  const year = (minutes: number, within: number) => ({
    ...ytd,
    minutes,
    withinBand: within,
    withinAlways: minutes,
  });
  const cleanWeek = weekMinutes(week.fromSec, week.toSec, () => ({}));

  it('spans local 1 January 00:00 to the end of the assessed week', () => {
    expect(new Date(ytd.fromSec * 1000).toISOString()).toBe('2025-12-31T23:00:00.000Z');
    expect(ytd.toSec).toBe(week.toSec);
  });

  it.each([
    ['2026-01-05', '2025-12-31T23:00:00.000Z'],
    // Across New Year the span starts with the week, so the week is never cut.
    ['2025-12-29', '2025-12-28T23:00:00.000Z'],
    ['2026-12-28', '2026-12-27T23:00:00.000Z'],
  ])('the year to date of the week of %s starts at %s', (monday, start) => {
    const y = yearToDateBounds(monday, TZ);
    expect(new Date(y.fromSec * 1000).toISOString()).toBe(start);
    expect(y.toSec).toBe(weekBounds(monday, TZ).toSec);
  });

  it('passes at exactly 99.5 % of the year (99,500 of 100,000 minutes) and fails at 99.49 %', () => {
    const judgeYear = (within: number) =>
      crit(
        assessWeek(cleanWeek, { ...week, timeZone: TZ, nominalV: 230 }, year(100000, within), noSpectra),
        'FREQUENCY_995',
      );
    const pass = judgeYear(99500);
    expect([pass.verdict, pass.assessed, pass.within, pass.achievedPct]).toEqual([
      'PASS',
      100000,
      99500,
      99.5,
    ]);
    expect([pass.spanFromSec, pass.spanToSec]).toEqual([ytd.fromSec, ytd.toSec]);
    const fail = judgeYear(99499);
    expect([fail.verdict, fail.achievedPct]).toEqual(['FAIL', 99.49]);
    // The week itself was clean: its own share is kept beside the year's.
    expect(fail.week).toEqual({ assessed: 10080, within: 10080, achievedPct: 100 });
  });

  it('passes a week outside the band when the year holds enough within', () => {
    const badWeek = weekMinutes(week.fromSec, week.toSec, (i) => (i < 100 ? { f: 50.7 } : {}));
    const r = crit(
      assessWeek(badWeek, { ...week, timeZone: TZ, nominalV: 230 }, year(100000, 99900), noSpectra),
      'FREQUENCY_995',
    );
    expect(r.verdict).toBe('PASS');
    expect(r.week).toEqual({ assessed: 10080, within: 9980, achievedPct: 99 });
    expect(r.worst[0]).toEqual({ startSec: week.fromSec, value: 50.7, phase: null });
  });

  it('fails the always-limit when any minute of the year left 47 to 52 Hz', () => {
    const r = crit(
      assessWeek(
        cleanWeek,
        { ...week, timeZone: TZ, nominalV: 230 },
        { ...year(100000, 100000), withinAlways: 99999 },
        noSpectra,
      ),
      'FREQUENCY_ALWAYS',
    );
    expect([r.verdict, r.assessed, r.within]).toEqual(['FAIL', 100000, 99999]);
  });

  it('keeps the week as the span of the other criteria', () => {
    const v = crit(
      assess(() => ({})),
      'VOLTAGE_95',
    );
    expect([v.spanFromSec, v.spanToSec, v.week]).toEqual([week.fromSec, week.toSec, null]);
  });
});

describe('voltage THD at most 8 % for 95 %', () => {
  const at = (bad: number, thd: number) => (i: number) =>
    interval(i) >= 1000 ? null : interval(i) < bad ? { thd } : {};

  it('passes at exactly 95 % and fails at 94.9 %', () => {
    expect(crit(assess(at(50, 9)), 'THD_95')).toMatchObject({ verdict: 'PASS', achievedPct: 95 });
    expect(crit(assess(at(51, 9)), 'THD_95')).toMatchObject({ verdict: 'FAIL', achievedPct: 94.9 });
  });

  it('takes 8.00 % as within', () => {
    expect(
      crit(
        assess(() => ({ thd: 8 })),
        'THD_95',
      ),
    ).toMatchObject({ verdict: 'PASS', achievedPct: 100 });
    expect(
      crit(
        assess(() => ({ thd: 8.01 })),
        'THD_95',
      ),
    ).toMatchObject({ verdict: 'FAIL', achievedPct: 0 });
  });
});

describe('unbalance from the phase-to-phase voltages, at most 2 % for 95 %', () => {
  /** Line voltages of a supply with positive sequence 1 and negative sequence n (per unit of 400 V). */
  function lineVoltages(n: number): [number, number, number] {
    const phasor = (k: number): [number, number] => {
      // positive sequence at -120k degrees, negative sequence at +120k degrees
      const a = (-2 * Math.PI * k) / 3;
      return [Math.cos(a) + n * Math.cos(-a), Math.sin(a) + n * Math.sin(-a)];
    };
    const [v1, v2, v3] = [phasor(0), phasor(1), phasor(2)];
    const diff = (x: [number, number], y: [number, number]) => Math.hypot(x[0] - y[0], x[1] - y[1]) * 400;
    return [diff(v1, v2), diff(v2, v3), diff(v3, v1)];
  }

  it.each([0, 0.01, 0.02, 0.05])('recovers a negative sequence of %f from the magnitudes', (n) => {
    expect(unbalancePct(...lineVoltages(n))).toBeCloseTo(n * 100, 9);
  });

  it('passes at exactly 95 % and fails at 94.9 %', () => {
    const at = (bad: number) => (i: number) =>
      interval(i) >= 1000 ? null : interval(i) < bad ? { upp: lineVoltages(0.025) } : {};
    expect(crit(assess(at(50)), 'UNBALANCE_95')).toMatchObject({ verdict: 'PASS', achievedPct: 95 });
    const fail = crit(assess(at(51)), 'UNBALANCE_95');
    expect(fail).toMatchObject({ verdict: 'FAIL', achievedPct: 94.9 });
    expect(fail.worst[0]!.value).toBe(2.5);
  });
});

describe('the week verdict', () => {
  it('fails when one criterion fails, says what the device does not measure and where no spectra are stored', () => {
    const r = assess((i) => (interval(i) < 100 ? { thd: 12 } : {}));
    expect(r.verdict).toBe('FAIL');
    expect(r.criteria.map((c) => [c.criterion, c.verdict])).toEqual([
      ['VOLTAGE_95', 'PASS'],
      ['VOLTAGE_ALWAYS', 'PASS'],
      ['FREQUENCY_995', 'PASS'],
      ['FREQUENCY_ALWAYS', 'PASS'],
      ['THD_95', 'FAIL'],
      ['UNBALANCE_95', 'PASS'],
      ['HARMONICS', 'NO_DATA'],
      ['FLICKER', 'NOT_MEASURED'],
      ['DIPS', 'NOT_MEASURED'],
    ]);
  });

  it('lists at most five worst intervals, worst first', () => {
    const r = crit(
      assess((i) => (interval(i) < 8 ? { u1: 240 - interval(i) * 5 } : {})),
      'VOLTAGE_95',
    );
    expect(r.worst.map((w) => w.value)).toEqual([205, 210, 215, 240, 220]);
  });
});
