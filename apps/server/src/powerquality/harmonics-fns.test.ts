import { describe, expect, it } from 'vitest';
import {
  EN50160_HARMONIC_LIMITS,
  HARMONIC_ORDERS,
  harmonicsCriterion,
  judgeHarmonics,
  type SpectrumInterval,
} from './harmonics-fns';
import { weekBounds } from './power-quality-fns';

const week = weekBounds('2026-03-09', 'Europe/Bratislava');
const span = { fromSec: week.fromSec, toSec: week.toSec };

/** A clean spectrum: every order at a tenth of its limit. */
const clean = () => HARMONIC_ORDERS.map((h) => EN50160_HARMONIC_LIMITS[h]! / 10);

/**
 * `count` 10-minute intervals on three phases; `at(k, phase)` overrides the value of `order` in
 * interval k (null: the order is left clean).
 */
function intervals(
  count: number,
  order: number,
  at: (k: number, phase: number) => number | null = () => null,
): SpectrumInterval[] {
  const rows: SpectrumInterval[] = [];
  for (let k = 0; k < count; k++)
    for (const phase of [1, 2, 3]) {
      const values = clean();
      const v = at(k, phase);
      if (v !== null) values[order - 2] = v;
      rows.push({ intervalSec: week.fromSec + k * 600, phase, values });
    }
  return rows;
}

const orderOf = (rows: SpectrumInterval[], order: number) =>
  judgeHarmonics(rows, week.fromSec, week.toSec).orders.find((o) => o.order === order)!;

describe('the EN 50160 table of harmonic voltages', () => {
  it.each([
    [2, 2],
    [3, 5],
    [4, 1],
    [5, 6],
    [6, 0.5],
    [7, 5],
    [8, 0.5],
    [9, 1.5],
    [10, 0.5],
    [11, 3.5],
    [12, 0.5],
    [13, 3],
    [14, 0.5],
    [15, 0.5],
    [16, 0.5],
    [17, 2],
    [18, 0.5],
    [19, 1.5],
    [20, 0.5],
    [21, 0.5],
    [22, 0.5],
    [23, 1.5],
    [24, 0.5],
    [25, 1.5],
  ])(
    'order %i, limit %f %: 95 % of the values within (the limit itself included) passes, 94.9 % fails',
    (order, limit) => {
      expect(EN50160_HARMONIC_LIMITS[order]).toBe(limit);
      const above = limit + 0.001;
      // 95 % exactly within (the other 5 % just above): passes; the limit itself is within.
      const pass = orderOf(
        intervals(1000, order, (k, ph) => (ph === 2 ? (k < 50 ? above : limit) : null)),
        order,
      );
      expect([pass.verdict, pass.achievedPct, pass.within, pass.assessed, pass.worstPhase]).toEqual([
        'PASS',
        95,
        950,
        1000,
        'L2',
      ]);
      expect(pass.limitPct).toBe(limit);
      // 94.9 %: one value more above the limit fails.
      const fail = orderOf(
        intervals(1000, order, (k, ph) => (ph === 2 && k < 51 ? above : null)),
        order,
      );
      expect([fail.verdict, fail.achievedPct, fail.within]).toEqual(['FAIL', 94.9, 949]);
    },
  );

  it('judges every order 2 to 25 and no other', () => {
    expect(HARMONIC_ORDERS).toEqual(Array.from({ length: 24 }, (_, i) => i + 2));
    expect(
      Object.keys(EN50160_HARMONIC_LIMITS)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(HARMONIC_ORDERS);
  });
});

describe('the weekly verdict of the harmonic orders', () => {
  it('names the worst phase and the highest interval of an order', () => {
    // L3 holds 10 % of its values above 6 %, L1 one interval at 9 %.
    const rows = intervals(100, 5, (k, ph) => (ph === 3 && k < 10 ? 7 : ph === 1 && k === 40 ? 9 : null));
    const o = orderOf(rows, 5);
    expect(o).toMatchObject({
      verdict: 'FAIL',
      worstPhase: 'L3',
      achievedPct: 90,
      within: 90,
      assessed: 100,
    });
    expect(o.worst).toEqual({ startSec: week.fromSec + 40 * 600, value: 9, phase: 'L1' });
  });

  it('fails the week when one order fails, and the criterion reads its lowest share', () => {
    const h = judgeHarmonics(
      intervals(100, 7, (k) => (k < 20 ? 5.5 : null)),
      week.fromSec,
      week.toSec,
    );
    expect(h.verdict).toBe('FAIL');
    expect(h.orders.filter((o) => o.verdict === 'FAIL').map((o) => o.order)).toEqual([7]);
    expect([h.intervalsInWeek, h.intervalsWithSpectrum, h.coveragePct]).toEqual([1008, 100, 9.92]);
    const c = harmonicsCriterion(h, span);
    expect(c).toMatchObject({ criterion: 'HARMONICS', verdict: 'FAIL', achievedPct: 80, requiredPct: 95 });
    expect(
      harmonicsCriterion(judgeHarmonics(intervals(100, 7), week.fromSec, week.toSec), span),
    ).toMatchObject({
      verdict: 'PASS',
      achievedPct: 100,
    });
  });

  it('says NO_DATA, not pass, for a week without stored spectra or an order the device does not send', () => {
    const none = judgeHarmonics([], week.fromSec, week.toSec);
    expect(none.verdict).toBe('NO_DATA');
    expect(
      none.orders.every((o) => o.verdict === 'NO_DATA' && o.achievedPct === null && o.worst === null),
    ).toBe(true);
    expect(harmonicsCriterion(none, span)).toMatchObject({
      verdict: 'NO_DATA',
      achievedPct: null,
      assessed: 0,
    });
    // A device that sends orders up to the 13th only: the higher orders have no data, the rest pass.
    const short = intervals(10, 5).map((r) => ({
      ...r,
      values: r.values.map((v, i) => (i + 2 <= 13 ? v : null)),
    }));
    const h = judgeHarmonics(short, week.fromSec, week.toSec);
    expect(h.verdict).toBe('PASS');
    expect(h.orders.find((o) => o.order === 14)!.verdict).toBe('NO_DATA');
  });

  it('leaves out spectra outside the week', () => {
    const before = intervals(5, 5, () => 20).map((r) => ({ ...r, intervalSec: r.intervalSec - 7 * 86400 }));
    const h = judgeHarmonics([...before, ...intervals(5, 5)], week.fromSec, week.toSec);
    expect([h.verdict, h.intervalsWithSpectrum]).toEqual(['PASS', 5]);
  });
});
