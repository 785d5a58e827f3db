import { describe, expect, it } from 'vitest';
import { formatAngle, formatFixed, formatMachine, formatNumber, withUnit } from './format';

// Intl writes Slovak groups with a no-break space; the tests spell it out.
const NBSP = '\u00a0';

describe('numbers in the user language', () => {
  it.each([
    ['en', 15.5, '15.500', '15.5'],
    ['sk', 15.5, '15,500', '15,5'],
    ['de', 15.5, '15,500', '15,5'],
    ['en', 15500, '15,500.000', '15,500'],
    ['sk', 15500, `15${NBSP}500,000`, `15${NBSP}500`],
    ['de', 15500, '15.500,000', '15.500'],
    ['en', 228.361, '228.361', '228.361'],
    ['sk', 228.361, '228,361', '228,361'],
    ['de', 228.361, '228,361', '228,361'],
    ['de', -0.8927, '-0,893', '-0,893'],
  ])('%s writes %d as %s in tables and %s on labels', (lng, v, fixed, label) => {
    expect(formatFixed(v, 3, lng)).toBe(fixed);
    expect(formatNumber(v, 3, lng)).toBe(label);
  });

  it('reads MRK 15.5 kW as fifteen and a half in every language', () => {
    expect(withUnit(formatNumber(15.5, 3, 'en'), 'kW')).toBe('15.5 kW');
    expect(withUnit(formatNumber(15.5, 3, 'de'), 'kW')).toBe('15,5 kW');
    expect(withUnit(formatNumber(15.5, 3, 'sk'), 'kW')).toBe('15,5 kW');
  });

  it('shows a dash for missing values and leaves unitless numbers bare', () => {
    expect(formatFixed(null, 3, 'de')).toBe('-');
    expect(formatFixed(Number.NaN, 3, 'de')).toBe('-');
    expect(formatNumber(undefined, 3, 'sk')).toBe('-');
    expect(withUnit('0,98', '')).toBe('0,98');
  });

  it('falls back to English numbers for an unknown language', () => {
    expect(formatFixed(1234.5, 1, 'fr')).toBe('1,234.5');
  });

  it('writes angles in degrees with two decimals', () => {
    expect(formatAngle(240.11, 2, 'en')).toBe('240.11°');
    expect(formatAngle(240.11, 2, 'de')).toBe('240,11°');
  });

  it('keeps file numbers machine-readable whatever the language', () => {
    expect(formatMachine(15500.5)).toBe('15500.500');
    expect(formatMachine(null)).toBe('');
  });
});
