import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encodeProfile, type ColumnSeries, type ProfileColumns } from './series-json';

const asPoints = (s: ColumnSeries) =>
  Array.from(s.values, (v, i) => [
    s.times[i],
    Number.isFinite(v) && Math.abs(v) < 1e12 ? Math.round(v * 1000) / 1000 : v,
  ]);

describe('encodeProfile', () => {
  it('writes the JSON of the points with values to three decimals', () => {
    const times = Float64Array.from([1_790_000_040_000, 1_790_000_100_000, 1_790_000_160_000]);
    const data: ProfileColumns = {
      U: {
        L1: { times, values: Float64Array.from([230.1234, 0, -0.0004]) },
        cumulative: { times, values: Float64Array.from([690.5, 1e-9, -12.3456]) },
      },
      F: { times, values: Float64Array.from([49.9995, 50, 50.0104]) },
    };
    expect(JSON.parse(encodeProfile(data, 'MINUTE').toString())).toEqual({
      status: 'OK',
      resolution: 'MINUTE',
      data: {
        U: {
          L1: [
            [times[0], 230.123],
            [times[1], 0],
            [times[2], 0],
          ],
          cumulative: [
            [times[0], 690.5],
            [times[1], 0],
            [times[2], -12.346],
          ],
        },
        F: [
          [times[0], 50],
          [times[1], 50],
          [times[2], 50.01],
        ],
      },
    });
  });

  it('gives null for values that are not finite, as JSON does, and keeps huge values whole', () => {
    const times = Float64Array.from([0, 60_000, 120_000]);
    const text = encodeProfile(
      {
        F: { times, values: Float64Array.from([Number.NaN, Number.POSITIVE_INFINITY, 3e15]) },
      },
      'DAY',
    ).toString();
    expect(text).toBe(
      '{"status":"OK","resolution":"DAY","data":{"F":[[0,null],[60000,null],[120000,3000000000000000]]}}',
    );
  });

  it('matches JSON.stringify of the rounded points for any values', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e11, max: 1e11, noNaN: true }), { maxLength: 200 }),
        fc.constantFrom('L1', 'L2', 'L3', 'cumulative'),
        (vals, phase) => {
          const times = Float64Array.from(vals, (_, i) => 1_790_000_040_000 + i * 60_000);
          const s = { times, values: Float64Array.from(vals) };
          const text = encodeProfile({ P: { cumulative: s, [phase]: s } }, 'HOUR').toString();
          const expected = {
            P:
              phase === 'cumulative'
                ? { cumulative: asPoints(s) }
                : { [phase]: asPoints(s), cumulative: asPoints(s) },
          };
          expect(text).toBe(
            JSON.stringify({ status: 'OK', resolution: 'HOUR', data: expected }).replaceAll('-0]', '0]'),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
