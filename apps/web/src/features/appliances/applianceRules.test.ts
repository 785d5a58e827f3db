import { describe, expect, it } from 'vitest';
import { edgeMessageKey, formatEdge, formatRuntime, formatWh } from './applianceRules';

describe('appliance display rules', () => {
  it.each([
    ['MORE_THAN_2', 'appliances.edges_more'],
    ['LESS_THAN_2', 'appliances.edges_less'],
    ['NO_EDGE', 'appliances.edges_none'],
  ] as const)('shows %s with its edge message', (outcome, key) => {
    expect(edgeMessageKey(outcome)).toBe(key);
  });

  it('signs edges and groups their watts', () => {
    expect(formatEdge({ phase: 'L1', deltaW: 2000 }, 'en')).toBe('+2,000 W');
    expect(formatEdge({ phase: 'L1', deltaW: -850 }, 'en')).toBe('−850 W');
  });

  it.each([
    [0, 'en', '0.0 Wh'],
    [133.25, 'en', '133.3 Wh'],
    [1041.3, 'de', '1.041,3 Wh'],
  ])('shows %s Wh in %s with one decimal', (wh, locale, text) => {
    expect(formatWh(wh, locale)).toBe(text);
  });

  it.each([
    [40, '40 s'],
    [250, '4 min 10 s'],
    [3900, '1 h 05 min'],
  ])('shows a runtime of %s s as %s', (sec, text) => {
    expect(formatRuntime(sec)).toBe(text);
  });
});
