import { describe, expect, it } from 'vitest';
import { fromWall } from '../history/calendar';
import { NO_RUN, bandOf, historyExtent, median, slotOf, stepRun, trainSlots } from './anomalies-fns';

const TZ = 'Europe/Bratislava';
const band = { lowWh: 100, highWh: 500 };

describe('anomaly model', () => {
  it.each([
    [fromWall(TZ, 2026, 7, 13, 0), 0],
    [fromWall(TZ, 2026, 7, 13, 23), 23],
    [fromWall(TZ, 2026, 7, 15, 2), 2 * 24 + 2],
    [fromWall(TZ, 2026, 7, 19, 23), 167],
    [fromWall(TZ, 2026, 1, 4, 12), 6 * 24 + 12],
  ])('puts %i in hour of the week %i, local time', (ts, slot) => {
    expect(slotOf(ts, TZ)).toBe(slot);
  });

  it('takes the median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });

  it('keeps one odd week from moving the band', () => {
    const b = bandOf([500, 510, 490, 505, 495, 500, 5000, 498]);
    expect(b.medianWh).toBe(500);
    expect(b.highWh).toBeLessThan(5000);
    expect(b.lowWh).toBeGreaterThan(0);
  });

  it('never makes a flat history a band narrower than three times 100 Wh', () => {
    expect(bandOf([0, 0, 0, 0])).toEqual({ medianWh: 0, lowWh: 0, highWh: 300 });
  });

  it('learns only hours seen in at least two weeks', () => {
    const start = fromWall(TZ, 2026, 7, 13);
    const hours = [0, 1, 2].map((w) => ({ tsSec: start + w * 7 * 86400, wh: 400 }));
    hours.push({ tsSec: start + 3600, wh: 400 });
    expect(trainSlots(hours, TZ).map((s) => [s.slot, s.samples])).toEqual([[0, 3]]);
  });

  it('counts whole weeks of history', () => {
    const hours = Array.from({ length: 24 * 22 }, (_, i) => ({ tsSec: i * 3600, wh: 1 }));
    expect(historyExtent(hours, 10 ** 9)).toMatchObject({ weeks: 3, hours: 24 * 22, fromSec: 0 });
    expect(historyExtent([], 0)).toMatchObject({ weeks: 0, fromSec: null });
  });

  it('raises at the second hour outside, continues without raising again, ends inside', () => {
    const events: (string | null)[] = [];
    let run = NO_RUN;
    for (const wh of [300, 900, 900, 900, 300]) {
      const s = stepRun(run, { tsSec: 0, wh, band }, 2);
      run = s.run;
      events.push(s.event);
    }
    expect(events).toEqual([null, null, 'RAISE', 'CONTINUE', 'END']);
  });

  it('forgets a single hour outside', () => {
    let run = stepRun(NO_RUN, { tsSec: 0, wh: 900, band }, 2).run;
    const s = stepRun(run, { tsSec: 3600, wh: 300, band }, 2);
    expect(s).toEqual({ run: NO_RUN, event: null });
    run = s.run;
    expect(run.startSec).toBeNull();
  });

  it('sums band and consumption over the run and keeps its first hour and direction', () => {
    let run = stepRun(NO_RUN, { tsSec: 7200, wh: 50, band }, 3).run;
    run = stepRun(run, { tsSec: 10800, wh: 20, band }, 3).run;
    expect(run).toMatchObject({
      startSec: 7200,
      hours: 2,
      direction: 'LOW',
      lowWh: 200,
      highWh: 1000,
      seenWh: 70,
      raised: false,
    });
  });

  it('leaves the run as it is over an hour without data or without a band', () => {
    const run = stepRun(NO_RUN, { tsSec: 0, wh: 900, band }, 2).run;
    expect(stepRun(run, { tsSec: 3600, wh: null, band }, 2)).toEqual({ run, event: null });
    expect(stepRun(run, { tsSec: 3600, wh: 900, band: null }, 2)).toEqual({ run, event: null });
  });
});
