import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixedChunks } from './bulk';

describe('fixedChunks', () => {
  it('cuts rows into power-of-4 chunks, largest first, within the limit', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => i);
    expect(fixedChunks(rows, 300).map((c) => c.length)).toEqual([256, 256, 256, 64, 64, 64, 16, 16, 4, 4]);
    expect(fixedChunks(rows, 10_000)[0]).toHaveLength(256);
    expect(fixedChunks(rows, 100)[0]).toHaveLength(64);
    expect(fixedChunks([], 300)).toEqual([]);
    expect(fixedChunks([1, 2], 1)).toEqual([[1], [2]]);
  });

  it('keeps every row once, in order, with few distinct sizes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 1, max: 20_000 }), (n, max) => {
        const rows = Array.from({ length: n }, (_, i) => i);
        const parts = fixedChunks(rows, max);
        expect(parts.flat()).toEqual(rows);
        for (const p of parts) expect(p.length).toBeLessThanOrEqual(max);
        expect(new Set(parts.map((p) => p.length)).size).toBeLessThanOrEqual(8);
      }),
      { numRuns: 60 },
    );
  });
});
