import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ColumnSeries, seriesJson } from './series-json';

const column = fc.integer({ min: 0, max: 40 }).chain((n) =>
  fc.tuple(
    fc.array(fc.oneof(fc.integer({ min: 0, max: 2_000_000_000_000 }), fc.double()), { minLength: n, maxLength: n }),
    fc.array(fc.oneof(fc.double(), fc.integer(), fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, 1e-7, 1e21, 5e-324)), { minLength: n, maxLength: n }),
  ),
);

describe('seriesJson', () => {
  it('writes exactly what JSON.stringify writes for the same [time, value] pairs, whatever the numbers', () => {
    fc.assert(
      fc.property(fc.array(column, { maxLength: 5 }), fc.array(fc.string().filter((k) => k !== '__proto__'), { maxLength: 5 }), (cols, keys) => {
        const series = cols.map(([t, v]) => new ColumnSeries(t, v));
        const pairs = cols.map(([t, v]) => t.map((x, i) => [x, v[i]]));
        const body: Record<string, unknown> = { status: 'OK', data: {} };
        const plain: Record<string, unknown> = { status: 'OK', data: {} };
        series.forEach((s, i) => {
          const key = keys[i] ?? `k${i}`;
          (body.data as Record<string, unknown>)[key] = i % 2 ? s : { L1: s, L2: undefined, cumulative: s, extra: [[1, 2.5]] };
          (plain.data as Record<string, unknown>)[key] = i % 2 ? pairs[i] : { L1: pairs[i], cumulative: pairs[i], extra: [[1, 2.5]] };
        });
        const text = seriesJson(body);
        expect(text).toBe(JSON.stringify(plain));
        expect(text).toBe(JSON.stringify(body));
      }),
      { numRuns: 300 },
    );
  });

  it('gives pairs to JSON.stringify and refuses columns of different lengths', () => {
    const s = new ColumnSeries([1000, 2000], [0.1 + 0.2, Number.NaN]);
    expect(JSON.stringify(s)).toBe('[[1000,0.30000000000000004],[2000,null]]');
    expect(s.length).toBe(2);
    expect(seriesJson({ a: new ColumnSeries([], []) })).toBe('{"a":[]}');
    expect(() => new ColumnSeries([1], [])).toThrow();
  });
});
