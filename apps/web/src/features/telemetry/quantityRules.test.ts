import { describe, expect, it } from 'vitest';
import { aggregatesFor, axisRuleFor } from './quantityRules';
import type { Quantity } from './views';

describe('aggregates per quantity', () => {
  it.each<[Quantity, readonly string[]]>([
    ['P', ['SUM']],
    ['Q', ['SUM']],
    ['S', ['SUM']],
    ['E_I', ['SUM']],
    ['E_E', ['SUM']],
    ['Q_E', ['SUM']],
    ['S_E', ['SUM']],
    ['U', ['AVG']],
    ['I', ['AVG']],
    ['F', ['AVG']],
    ['PF', []],
    ['DF_U', []],
    ['DF_I', []],
  ])('%s offers %j', (q, expected) => {
    expect(aggregatesFor(q)).toEqual(expected);
  });
});

describe('axis rules per quantity', () => {
  it('keeps the power factor within -1 and 1 with a span of at least 0.1', () => {
    expect(axisRuleFor('PF')).toEqual({ minSpan: 0.1, floor: -1, ceiling: 1 });
  });

  it('leaves powers to their data', () => {
    expect(axisRuleFor('P')).toBeUndefined();
  });
});
