import { describe, expect, it } from 'vitest';
import { parseContractKw } from './contractLimits';

describe('MRK and RK entry', () => {
  it.each([
    ['0', 0],
    ['150', 150],
    ['12.5', 12.5],
    ['12,125', 12.125],
    ['100000000', 100000000],
  ])('accepts %s as %s', (text, value) => {
    expect(parseContractKw(text)).toBe(value);
  });
  it.each(['', ' ', '-1', '1.2345', '1e3', '100000000.001', '1,2,3', 'abc', '.5'])('rejects %j', (text) => {
    expect(parseContractKw(text)).toBeNull();
  });
});
