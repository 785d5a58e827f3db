import { describe, expect, it } from 'vitest';
import { MeterInput, storableText } from './meters';

const meter = {
  SNUM: 'S-1',
  CONSTANT: '1000',
  CONTYPE: 0,
  ELM_OUTPUT_TYPE: 0,
  MENERGYTYPE: 0,
  CONSTUNIT: 0,
  CONSTTYPE: 0,
  ENERMETHOD: 0,
};

describe('meter texts', () => {
  it.each([
    ['a NUL', 'Main\u0000Street'],
    ['a lone high surrogate', 'Main \ud800'],
    ['a lone low surrogate', '\udc00 Main'],
  ])('refuses a customer text holding %s', (_name, bad) => {
    const r = MeterInput.safeParse({ ...meter, CUSTOMER: bad });
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues[0]?.path).toEqual(['CUSTOMER']);
  });

  it('keeps accents and a well-formed emoji', () => {
    const r = MeterInput.safeParse({ ...meter, CUSTOMER: 'Žilina \ud83d\udd0c', SNUM: 'ÄÖÜ-1' });
    expect(r.success).toBe(true);
  });

  it.each([
    ['plain', 'abc', true],
    ['empty', '', true],
    ['pair', '\ud83d\udd0c', true],
    ['NUL', '\u0000', false],
    ['high at the end', 'a\ud83d', false],
    ['low at the start', '\udd0ca', false],
    ['two highs', '\ud83d\ud83d\udd0c', false],
  ])('storableText(%s) is %s', (_name, text, ok) => {
    expect(storableText(text)).toBe(ok);
  });
});
