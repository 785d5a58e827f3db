import { describe, expect, it } from 'vitest';
import {
  REALTIME_WINDOW,
  format3,
  normalizePoints,
  pushWindow,
  sumAndAverage,
  toCsv,
  type Point,
} from './series';

describe('reading series', () => {
  it.each([
    [
      'tuples in seconds',
      [
        [1_700_000_060, 2],
        [1_700_000_000, 1],
      ],
    ],
    [
      'objects',
      [
        { ts: 1_700_000_000, value: 1 },
        { ts: 1_700_000_060, value: 2 },
      ],
    ],
    ['a time map', { '1700000000': 1, '1700000060': 2 }],
    ['parallel arrays', { timestamps: [1_700_000_000_000, 1_700_000_060_000], values: [1, 2] }],
  ])('reads %s into sorted millisecond points', (_label, raw) => {
    expect(normalizePoints(raw)).toEqual([
      [1_700_000_000_000, 1],
      [1_700_000_060_000, 2],
    ]);
  });

  it('divides energy by 1000 and skips unreadable points', () => {
    expect(
      normalizePoints(
        [
          [1_700_000_000, 2500],
          [1_700_000_060, null],
          ['x', 1],
        ],
        1000,
      ),
    ).toEqual([[1_700_000_000_000, 2.5]]);
  });
});

describe('real-time window', () => {
  it('keeps at most 20 points, shifting the oldest out', () => {
    let pts: Point[] = [];
    for (let i = 0; i < 25; i++) pts = pushWindow(pts, [i, i]);
    expect(pts).toHaveLength(REALTIME_WINDOW);
    expect(pts[0]).toEqual([5, 5]);
    expect(pts.at(-1)).toEqual([24, 24]);
  });
  it('does not shift before the window is full', () => {
    let pts: Point[] = [];
    for (let i = 0; i < 20; i++) pts = pushWindow(pts, [i, i]);
    expect(pts[0]).toEqual([0, 0]);
  });
});

describe('sum, average and export', () => {
  it('averages over the phases present', () => {
    const { sum, avg } = sumAndAverage([
      [
        [1, 230],
        [2, 231],
      ],
      [[1, 232]],
      [
        [1, 228],
        [2, 229],
      ],
    ]);
    expect(sum).toEqual([
      [1, 690],
      [2, 460],
    ]);
    expect(avg).toEqual([
      [1, 230],
      [2, 230],
    ]);
  });

  it('writes machine-readable CSV: a note line, dot decimals, no grouping, empty gaps', () => {
    const csv = toCsv(
      [
        { name: 'L1', points: [[1000, 12345.23456]] },
        { name: 'L2, "b"', points: [[2000, 2]] },
      ],
      'Time',
      (ms) => String(ms / 1000),
      'dot decimal',
    );
    expect(csv).toBe('# dot decimal\nTime,L1,"L2, ""b"""\n1,12345.235,\n2,,2.000\n');
    expect(format3(null)).toBe('-');
  });
});
