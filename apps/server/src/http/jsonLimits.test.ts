import { describe, expect, it } from 'vitest';
import { jsonDepth } from './jsonLimits';

describe('jsonDepth', () => {
  it.each([
    ['1', 0],
    ['"[[[{{{"', 0],
    ['{}', 1],
    ['[[],[[]]]', 3],
    ['{"a":{"b":["}}]]\\"[["]}}', 3],
    ['{"a":"\\\\"}', 1],
    ['['.repeat(600) + ']'.repeat(600), 600],
  ])('counts the nesting of %s as %i', (text, depth) => {
    expect(jsonDepth(text)).toBe(depth);
  });

  it('stops at the given depth', () => {
    expect(jsonDepth('['.repeat(100_000), 17)).toBe(17);
  });
});
