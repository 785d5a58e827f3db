import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_DELTA_LIMITS, QUARTER_SEC, registerDeltas, type RegisterReading } from './energy-deltas';

const sumChannel = (m: Map<number, number[]>, c: number) =>
  [...m.values()].reduce((s, row) => s + (row[c] ?? 0), 0);

describe('registerDeltas', () => {
  it('puts a one-second step inside one quarter', () => {
    const r = registerDeltas({ tsSec: 1000, values: [10] }, { tsSec: 1001, values: [12] });
    expect([...r.buckets.entries()]).toEqual([[900, [2]]]);
  });

  it('gives a reading on a boundary to the quarter it closes', () => {
    const r = registerDeltas({ tsSec: 1799, values: [0] }, { tsSec: 1800, values: [5] });
    expect([...r.buckets.entries()]).toEqual([[900, [5]]]);
  });

  it('spreads a gap over the quarters in proportion to time', () => {
    const r = registerDeltas({ tsSec: 0, values: [0] }, { tsSec: 3 * QUARTER_SEC, values: [300] });
    expect([...r.buckets.entries()]).toEqual([
      [0, [100]],
      [900, [100]],
      [1800, [100]],
    ]);
  });

  it('counts the new value after a reset and flags it', () => {
    const r = registerDeltas({ tsSec: 0, values: [1_000_000] }, { tsSec: 60, values: [3] });
    expect(sumChannel(r.buckets, 0)).toBe(3);
    expect(r.anomalies).toEqual([{ channel: 0, kind: 'reset' }]);
  });

  it('drops an implausible jump', () => {
    const r = registerDeltas({ tsSec: 0, values: [0] }, { tsSec: 1, values: [1e12] });
    expect(sumChannel(r.buckets, 0)).toBe(0);
    expect(r.anomalies[0]?.kind).toBe('jump');
  });

  it('drops energy of a gap longer than the spread limit', () => {
    const r = registerDeltas({ tsSec: 0, values: [0] }, { tsSec: 40 * 86_400, values: [10] });
    expect(sumChannel(r.buckets, 0)).toBe(0);
    expect(r.anomalies[0]?.kind).toBe('gap');
  });

  const reading = (n: number) =>
    fc.record({
      tsSec: fc.integer({ min: 1_600_000_000, max: 1_700_000_000 }),
      values: fc.array(fc.integer({ min: 0, max: 2 ** 40 }), { minLength: n, maxLength: n }),
    });

  it('never gives a negative or above-plausible part, whatever the readings', () => {
    fc.assert(
      fc.property(reading(4), reading(4), (a, b) => {
        fc.pre(a.tsSec !== b.tsSec);
        const [p, q] = a.tsSec < b.tsSec ? [a, b] : [b, a];
        const r = registerDeltas(p, q);
        const cap = (DEFAULT_DELTA_LIMITS.maxPowerW * (q.tsSec - p.tsSec)) / 3600 + 1;
        for (const row of r.buckets.values()) {
          for (const v of row) {
            expect(Number.isInteger(v)).toBe(true);
            expect(v).toBeGreaterThanOrEqual(0);
            expect(v).toBeLessThanOrEqual(cap);
          }
        }
      }),
    );
  });

  it('sums exactly to the register difference over any sequence of plausible readings', () => {
    const steps = fc.array(
      fc.record({
        dtSec: fc.integer({ min: 1, max: 7200 }),
        powerW: fc.array(fc.integer({ min: 0, max: 200_000 }), { minLength: 3, maxLength: 3 }),
      }),
      { minLength: 1, maxLength: 60 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1_600_000_000, max: 1_700_000_000 }), steps, (t0, seq) => {
        let prev: RegisterReading = { tsSec: t0, values: [5, 0, 123456] };
        const first = prev;
        const totals = new Map<number, number[]>();
        for (const s of seq) {
          const next: RegisterReading = {
            tsSec: prev.tsSec + s.dtSec,
            values: prev.values.map((v, i) => v + Math.floor(((s.powerW[i] ?? 0) * s.dtSec) / 3600)),
          };
          const r = registerDeltas(prev, next);
          expect(r.anomalies).toEqual([]);
          for (const [k, row] of r.buckets) {
            const acc = totals.get(k) ?? [0, 0, 0];
            row.forEach((v, i) => (acc[i] = (acc[i] ?? 0) + v));
            totals.set(k, acc);
            expect(k % QUARTER_SEC).toBe(0);
          }
          prev = next;
        }
        for (let c = 0; c < 3; c++)
          expect(sumChannel(totals, c)).toBe((prev.values[c] ?? 0) - (first.values[c] ?? 0));
      }),
    );
  });
});
