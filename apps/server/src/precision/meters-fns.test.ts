import { describe, expect, it } from 'vitest';
import { crc32 } from 'node:zlib';
import { MeterInput } from '@meterportal/protocol';
import {
  canonicalFields,
  checkImage,
  cleanFileName,
  meterCrc,
  nextIdn,
  parseDeviceRecord,
  sniffImageType,
} from './meters-fns';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex');
const fields = MeterInput.parse({
  SNUM: '40012345',
  CONSTANT: '1000',
  CONTYPE: 0,
  ELM_OUTPUT_TYPE: 0,
  MENERGYTYPE: 0,
  CONSTUNIT: 0,
  CONSTTYPE: 0,
  ENERMETHOD: 0,
});

describe('meter canonical form and CRC', () => {
  it('orders keys the same way whatever order they came in', () => {
    const reversed = MeterInput.parse(Object.fromEntries(Object.entries(fields).reverse()));
    expect(canonicalFields(reversed)).toBe(canonicalFields(fields));
  });

  it('is the CRC-32 of the canonical text as 8 hex digits', () => {
    const crc = meterCrc(fields);
    expect(crc).toMatch(/^[0-9A-F]{8}$/);
    expect(parseInt(crc, 16)).toBe(crc32(canonicalFields(fields)));
  });

  it('changes when a field changes', () => {
    expect(meterCrc({ ...fields, NOTE1: 'x' })).not.toBe(meterCrc(fields));
  });
});

describe('next IDN', () => {
  it.each([
    [[], '1'],
    [['1', '2'], '3'],
    [['7', '2', 'A-1'], '8'],
    [['abc'], '1'],
  ])('after %j is %s', (used, next) => {
    expect(nextIdn(used)).toBe(next);
  });
});

describe('device records', () => {
  it('accepts a record in the device form, numbers or texts alike', () => {
    const r = parseDeviceRecord({
      IDN: '4',
      SNUM: 123456,
      CONSTANT: 500,
      CONTYPE: '1',
      ELM_OUTPUT_TYPE: 0,
      MENERGYTYPE: 0,
      CONSTUNIT: 0,
      CONSTTYPE: 0,
      ENERMETHOD: 0,
      MTIME: 1_700_000_000,
    });
    expect(r).toMatchObject({
      ok: true,
      idn: '4',
      mtimeSec: 1_700_000_000,
      fields: { SNUM: '123456', CONSTANT: '500', CONTYPE: 1 },
    });
  });

  it('names the field of a record that breaks the wizard rules', () => {
    const r = parseDeviceRecord({
      IDN: '4',
      SNUM: '',
      CONSTANT: '1',
      CONTYPE: 0,
      ELM_OUTPUT_TYPE: 0,
      MENERGYTYPE: 0,
      CONSTUNIT: 0,
      CONSTTYPE: 0,
      ENERMETHOD: 0,
    });
    expect(r).toMatchObject({ ok: false, idn: '4' });
    expect(!r.ok && r.error).toMatch(/^SNUM/);
  });
});

describe('meter images', () => {
  it('recognises PNG and JPEG by their first bytes only', () => {
    expect(sniffImageType(PNG)).toBe('image/png');
    expect(sniffImageType(JPEG)).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('hello, I am text'))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });

  it.each([
    ['meter.png', 'image/png', PNG, 'image/png'],
    ['meter.PNG', 'image/png', PNG, 'image/png'],
    ['meter.jpg', 'image/jpeg', JPEG, 'image/jpeg'],
    ['meter.jpeg', 'image/jpg', JPEG, 'image/jpeg'],
  ])('accepts %s declared %s', (name, declaredType, bytes, type) => {
    expect(checkImage({ name, declaredType, bytes, truncated: false })).toEqual({ ok: true, type });
  });

  it.each([
    ['text renamed .png', 'fake.png', 'image/png', Buffer.from('not an image at all')],
    ['a PNG named .gif', 'meter.gif', 'image/gif', PNG],
    ['a JPEG named .png', 'meter.png', 'image/png', JPEG],
    ['a PNG declared as JPEG', 'meter.png', 'image/jpeg', PNG],
    ['no extension', 'meter', 'image/png', PNG],
  ])('refuses %s as unsupported', (_what, name, declaredType, bytes) => {
    expect(checkImage({ name, declaredType, bytes, truncated: false })).toMatchObject({
      ok: false,
      reason: 'unsupported',
    });
  });

  it('refuses a file over 1,000,000 bytes as too large, and accepts exactly 1,000,000', () => {
    const big = Buffer.concat([PNG, Buffer.alloc(1_000_001 - PNG.length)]);
    expect(
      checkImage({ name: 'big.png', declaredType: 'image/png', bytes: big, truncated: false }),
    ).toMatchObject({ ok: false, reason: 'too_large' });
    expect(
      checkImage({
        name: 'big.png',
        declaredType: 'image/png',
        bytes: big.subarray(0, 1_000_000),
        truncated: false,
      }),
    ).toMatchObject({ ok: true });
    expect(
      checkImage({ name: 'cut.png', declaredType: 'image/png', bytes: PNG, truncated: true }),
    ).toMatchObject({ ok: false, reason: 'too_large' });
  });

  it.each([
    ['../../etc/passwd.png', 'passwd.png'],
    ['C:\\photos\\m.jpg', 'm.jpg'],
    ['a"b\u0001.png', 'ab.png'],
    ['', 'image'],
  ])('stores the name %j as %j', (name, clean) => {
    expect(cleanFileName(name)).toBe(clean);
  });
});
