import { describe, expect, it, test } from 'vitest';
import {
  STEP_FIELDS,
  cleanNumber,
  imageProblem,
  initialMeter,
  initialWizardValues,
  meterFromWizard,
  transformerPatch,
  invalidFields,
  isFieldValid,
  primaryOf,
  ratioOf,
  ruleOf,
  transformerTexts,
} from './wizardRules';

describe('step 1 rules', () => {
  test.each([
    ['SNUM', '', false],
    ['SNUM', undefined, false],
    ['SNUM', '1', true],
    ['SNUM', 'A'.repeat(20), true],
    ['SNUM', 'A'.repeat(21), false],
    ['TYPE', '', true],
    ['TYPE', 'T'.repeat(20), true],
    ['TYPE', 'T'.repeat(21), false],
    ['CONSTANT', '', false],
    ['CONSTANT', undefined, false],
    ['CONSTANT', '1000', true],
    ['CONSTANT', '0.5', true],
    ['CONSTANT', '1.', false],
    ['CONSTANT', '1,5', false],
    ['CONSTANT', '-1', false],
    ['CONSTANT', 'abc', false],
    ['PRODUCER', 'P'.repeat(40), true],
    ['PRODUCER', 'P'.repeat(41), false],
    ['CLASS', '0.5', true],
    ['CLASS', '1', true],
    ['CLASS', '', true],
    ['CLASS', 'B', false],
    ['CLASS', '0,5', false],
    ['YMAN', '2019', true],
    ['YMAN', '0', true],
    ['YMAN', '2199', true],
    ['YMAN', '2200', false],
    ['YMAN', '12345', false],
    ['YMAN', '20a9', false],
    ['YMAN', '-1', false],
    ['YMAN', '', true],
  ] as const)('%s %j valid: %s', (field, value, valid) => {
    expect(isFieldValid(field, value)).toBe(valid);
  });

  test.each(['CONTYPE', 'ELM_OUTPUT_TYPE', 'MENERGYTYPE', 'CONSTUNIT', 'CONSTTYPE', 'ENERMETHOD'] as const)(
    '%s is a required selection within its list',
    (field) => {
      expect(isFieldValid(field, undefined)).toBe(false);
      expect(isFieldValid(field, null)).toBe(false);
      expect(isFieldValid(field, '')).toBe(false);
      expect(isFieldValid(field, 0)).toBe(true);
      expect(isFieldValid(field, 99)).toBe(false);
      expect(isFieldValid(field, -1)).toBe(false);
    },
  );

  it('accepts the last item of each list and refuses one past it', () => {
    expect(isFieldValid('CONTYPE', 4)).toBe(true);
    expect(isFieldValid('CONTYPE', 5)).toBe(false);
    expect(isFieldValid('CONSTUNIT', 9)).toBe(true);
    expect(isFieldValid('CONSTUNIT', 10)).toBe(false);
    expect(isFieldValid('CONSTTYPE', 1)).toBe(true);
    expect(isFieldValid('CONSTTYPE', 2)).toBe(false);
  });

  it('lists the failing fields of a step in order', () => {
    expect(invalidFields(0, { ...initialMeter(), SNUM: '', YMAN: '3000' })).toEqual(['SNUM', 'YMAN']);
    expect(invalidFields(0, { ...initialMeter(), SNUM: '123' })).toEqual([]);
  });
});

describe('step 2 rules', () => {
  test.each(STEP_FIELDS[1].filter((f) => f !== 'ISIDE' && f !== 'USIDE'))(
    '%s must be a non-negative decimal',
    (field) => {
      expect(isFieldValid(field, '')).toBe(true);
      expect(isFieldValid(field, '0')).toBe(true);
      expect(isFieldValid(field, '400.5')).toBe(true);
      expect(isFieldValid(field, '-1')).toBe(false);
      expect(isFieldValid(field, '1e3')).toBe(false);
      expect(isFieldValid(field, 'x')).toBe(false);
    },
  );

  it('refuses a step with a negative ratio', () => {
    expect(invalidFields(1, { ...initialMeter(), CTRATIO: '-2' })).toEqual(['CTRATIO']);
  });

  it('computes primary = ratio × secondary nominal', () => {
    expect(primaryOf('200', '5')).toBe('1000');
    expect(primaryOf('0.1', '3')).toBe('0.3');
    expect(primaryOf('', '5')).toBeUndefined();
    expect(primaryOf('x', '5')).toBeUndefined();
  });

  it('computes the ratio back from an edited primary', () => {
    expect(ratioOf('1000', '5')).toBe('200');
    expect(ratioOf('22000', '100')).toBe('220');
    expect(ratioOf('1000', '0')).toBeUndefined();
  });

  it("writes the texts '3x{primary}/{secondary} A' and '... V'", () => {
    expect(transformerTexts({ CTRATIO: '200', CTSNOM: '5', VTRATIO: '220', VTSNOM: '100' })).toEqual({
      ISIDE: '3x1000/5 A',
      USIDE: '3x22000/100 V',
    });
    expect(transformerTexts({ CTRATIO: '', CTSNOM: '5', VTRATIO: '1', VTSNOM: '1' })).toEqual({
      ISIDE: '',
      USIDE: '3x1/1 V',
    });
  });

  it('cleans floating-point noise', () => {
    expect(cleanNumber(0.1 * 3)).toBe('0.3');
    expect(cleanNumber(400)).toBe('400');
  });
});

describe('step 3 rules', () => {
  test.each([
    ['FREQ', '50', true],
    ['FREQ', '16.7', true],
    ['FREQ', '-50', false],
    ['FREQ', 'fifty', false],
    ['ENERMETHOD', 4, true],
    ['ENERMETHOD', undefined, false],
  ] as const)('%s %j valid: %s', (field, value, valid) => {
    expect(isFieldValid(field, value)).toBe(valid);
  });

  test.each(STEP_FIELDS[2].filter((f) => f !== 'FREQ' && f !== 'ENERMETHOD'))(
    '%s holds 0 to 40 characters',
    (field) => {
      expect(isFieldValid(field, '')).toBe(true);
      expect(isFieldValid(field, 'x'.repeat(40))).toBe(true);
      expect(isFieldValid(field, 'x'.repeat(41))).toBe(false);
    },
  );
});

describe('defaults', () => {
  it('starts with the values of seed 001 section 9 and their transformer texts', () => {
    expect(initialMeter()).toEqual({
      TYPE: '1',
      CONTYPE: 0,
      ELM_OUTPUT_TYPE: 0,
      MENERGYTYPE: 0,
      CONSTANT: '1000',
      CONSTUNIT: 0,
      CONSTTYPE: 0,
      CTRATIO: '1',
      VTRATIO: '1',
      CTSNOM: '1',
      VTSNOM: '1',
      FREQ: '50',
      ENERMETHOD: 0,
      ISIDE: '3x1/1 A',
      USIDE: '3x1/1 V',
    });
  });

  it('passes steps 2 and 3 with the defaults alone, step 1 needs a serial number', () => {
    expect(invalidFields(0, initialMeter())).toEqual(['SNUM']);
    expect(invalidFields(1, initialMeter())).toEqual([]);
    expect(invalidFields(2, initialMeter())).toEqual([]);
  });
});

describe('images', () => {
  test.each([
    [{ name: 'meter.png', size: 1000 }, null],
    [{ name: 'METER.JPG', size: 1000 }, null],
    [{ name: 'meter.jpeg', size: 1_000_000 }, null],
    [{ name: 'meter.jpeg', size: 1_000_001 }, 'size'],
    [{ name: 'meter.gif', size: 10 }, 'format'],
    [{ name: 'meter.png.exe', size: 10 }, 'format'],
    [{ name: 'png', size: 10 }, 'format'],
    [{ name: 'meter.gif', size: 2_000_000 }, 'format'],
  ])('%j: %s', (file, problem) => {
    expect(imageProblem(file)).toBe(problem);
  });
});

describe('step 2 recomputation', () => {
  const start = initialWizardValues();

  it('starts with primaries 1 and texts 3x1/1', () => {
    expect(start).toMatchObject({ CT_PRIMARY: '1', VT_PRIMARY: '1', ISIDE: '3x1/1 A', USIDE: '3x1/1 V' });
  });

  it('editing a ratio recomputes the primary and the text', () => {
    const all = { ...start, CTRATIO: '200', CTSNOM: '5' };
    expect(transformerPatch({ CTRATIO: '200' }, all)).toEqual({
      CT_PRIMARY: '1000',
      ISIDE: '3x1000/5 A',
      USIDE: '3x1/1 V',
    });
  });

  it('editing a secondary nominal recomputes the primary and the text', () => {
    const all = { ...start, VTRATIO: '220', VTSNOM: '100' };
    expect(transformerPatch({ VTSNOM: '100' }, all)).toMatchObject({
      VT_PRIMARY: '22000',
      USIDE: '3x22000/100 V',
    });
  });

  it('editing a primary recomputes the ratio', () => {
    const all = { ...start, CTSNOM: '5', CT_PRIMARY: '400' };
    expect(transformerPatch({ CT_PRIMARY: '400' }, all)).toMatchObject({ CTRATIO: '80', ISIDE: '3x400/5 A' });
  });

  it('leaves the text empty while a ratio is not a number', () => {
    expect(transformerPatch({ CTRATIO: 'x' }, { ...start, CTRATIO: 'x' })).toEqual({
      ISIDE: '',
      USIDE: '3x1/1 V',
    });
  });

  it('changes nothing for fields of other steps', () => {
    expect(transformerPatch({ SNUM: '1' }, start)).toEqual({});
  });

  it('sends every field, trimmed, without the primaries', () => {
    const meter = meterFromWizard({ ...start, SNUM: ' 123 ' });
    expect(meter.SNUM).toBe('123');
    expect(meter.CUSTOMER).toBe('');
    expect(meter.CONTYPE).toBe(0);
    expect(meter).not.toHaveProperty('CT_PRIMARY');
  });
});

describe('rule messages', () => {
  test.each([
    ['SNUM', 'serial'],
    ['TYPE', 'max20'],
    ['PRODUCER', 'max40'],
    ['CONSTANT', 'constant'],
    ['CLASS', 'decimal'],
    ['YMAN', 'year'],
    ['CONTYPE', 'selection'],
    ['ENERMETHOD', 'selection'],
    ['CTRATIO', 'decimal'],
    ['FREQ', 'decimal'],
    ['NOTE4', 'max40'],
  ] as const)('%s explains its rule with %s', (field, rule) => {
    expect(ruleOf(field)).toBe(rule);
  });
});
