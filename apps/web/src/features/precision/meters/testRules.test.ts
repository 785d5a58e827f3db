import type { MeterTestResult } from '@meterportal/protocol';
import { describe, expect, it, test } from 'vitest';
import { derive, derivedOf, fixed, fold180, phaseSequence, phiOf } from './testRules';

describe('derived values', () => {
  it('gives Z = 46 Ω, Ip = 4.330 A, Iq = 2.5 A for 230 V and 5 A at 30°', () => {
    const d = derive(230, 5, 30);
    expect(d.impedanceOhm).toBeCloseTo(46, 9);
    expect(d.sinPhi).toBeCloseTo(0.5, 9);
    expect(fixed(d.activeCurrentA, 3)).toBe('4.330');
    expect(d.reactiveCurrentA).toBeCloseTo(2.5, 9);
  });

  it('has no impedance without current', () => {
    expect(derive(230, 0, 0).impedanceOhm).toBeUndefined();
    expect(derive(230, undefined, 0).impedanceOhm).toBeUndefined();
  });

  it('has no components without an angle', () => {
    expect(derive(230, 5, undefined)).toEqual({ impedanceOhm: 46 });
  });

  it('takes φ as the voltage angle minus the current angle, else the opposite of PH', () => {
    const base = { IDN: '1', MTIME: 1, ERROR: 0 } as MeterTestResult;
    // An inductive load: the current lags by 25.84°, PH is -25.84 (current minus voltage).
    expect(phiOf({ ...base, MPHA1: 0, MPHB1: 334.16, PH1: -25.84 }, 1)).toBeCloseTo(25.84, 6);
    expect(phiOf({ ...base, MPHA2: 240.11, MPHB2: 214.26 }, 2)).toBeCloseTo(25.85, 6);
    expect(phiOf({ ...base, PH3: -30 }, 3)).toBe(30);
    expect(phiOf(base, 3)).toBeUndefined();
    const d = derivedOf({ ...base, MCHNLA1: 230, MCHNLB1: 5, MPHA1: 0, MPHB1: -30 }, 1);
    expect(d.impedanceOhm).toBeCloseTo(46);
    // Reactive current has the sign of the reactive power: positive for the inductive load.
    expect(d.reactiveCurrentA).toBeCloseTo(2.5);
    expect(d.activeCurrentA).toBeCloseTo(4.33, 2);
  });

  test.each([
    [0, 0],
    [190, -170],
    [-190, 170],
    [540, 180],
  ])('folds %s° to %s°', (deg, folded) => {
    expect(fold180(deg)).toBe(folded);
  });
});

describe('phase sequence', () => {
  test.each([
    [[0, 240, 120], 'L1-L2-L3'],
    [[0, -120, 120], 'L1-L2-L3'],
    [[0, 240.11, 119.83], 'L1-L2-L3'],
    [[10, 250, 130], 'L1-L2-L3'],
    [[200, 80, 320], 'L1-L2-L3'],
    [[0, 120, 240], 'L1-L3-L2'],
    [[0, 120, -120], 'L1-L3-L2'],
    [[200, 320, 80], 'L1-L3-L2'],
  ] as const)('angles %j give %s', (angles, seq) => {
    expect(phaseSequence(angles)).toBe(seq);
  });

  it('is unknown without all three angles', () => {
    expect(phaseSequence([0, 120, undefined])).toBeUndefined();
    expect(phaseSequence([])).toBeUndefined();
  });
});

describe('formatting', () => {
  it('shows fixed decimals or a dash', () => {
    expect(fixed(0.123, 2)).toBe('0.12');
    expect(fixed(-0.005, 2)).toBe('-0.01');
    expect(fixed(undefined, 2)).toBe('-');
    // In the user's language: decimal comma and grouping in Slovak and German.
    expect(fixed(1234.5, 2, 'sk')).toBe('1\u00a0234,50');
    expect(fixed(1234.5, 2, 'de')).toBe('1.234,50');
    expect(fixed(-0.25, 2, 'de')).toBe('-0,25');
  });
});
