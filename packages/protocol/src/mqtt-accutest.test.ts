import { describe, expect, it } from 'vitest';
import { decodeDeviceMessage, deviceTopic } from './mqtt';

const MAC = '02-4D-50-00-00-03';
const enc = (s: string) => new TextEncoder().encode(s);

/** A plausible result of a three-phase meter under test, as an analyzer sends it. */
const VALID: Record<string, number | string> = {
  IDN: '40012345',
  MTIME: 1_781_000_100,
  ERROR: -0.213,
  METERSTDEV: 0.0231,
  TESTSAMPLES: 14,
  INTTIME: 60,
  MENERGYTYPE: 0,
  ELM_OUTPUT_TYPE: 0,
  METERCONST: 10000,
  CONTYPE: 0,
  MCHNLA1: 230.12,
  MCHNLB1: 5.0012,
  MPOWFACT1: 0.9812,
  MPHA1: 0,
  MPHA2: 240.02,
  MPHB1: 348.9,
  PH1: -11.1,
  DFA1: 2.1,
  DFB1: 12.4,
  UPP1: 398.6,
  MFREQ: 50.002,
  MPOWER1: 1129.4,
  MPOWERSUM: 3388.2,
  MQPOWER1: -221.5,
  MSPOWER1: 1150.9,
  MSPOWERSUM: 3452.7,
  MENERGY1: 18.823,
  MENERGYSUM: 56.47,
  MQENERGY1: -3.69,
  MSENERGY1: 19.18,
  MSENERGYSUM: 57.54,
  MDPERIOD: 900,
  MDSUBPERIODS: 15,
  MDLASTRESET: 1_780_272_000,
  MDFIXP: 3600.2,
  MDSLIDS: 3900.5,
};

/** The valid result with one key's raw JSON value replaced (raw, so 1e400 reaches the decoder). */
function withValue(key: string, raw: string): Uint8Array {
  const json = JSON.stringify({ ...VALID, [key]: 0 }).replace(`"${key}":0`, `"${key}":${raw}`);
  return enc(json);
}
const decode = (bytes: Uint8Array) => decodeDeviceMessage(deviceTopic(MAC, 'accutest/data'), bytes);

describe('accuracy test result bounds', () => {
  it('accepts a plausible result', () => {
    expect(decode(enc(JSON.stringify(VALID)))).toMatchObject({ ok: true });
  });

  it.each([
    ['ERROR', '1e308'],
    ['ERROR', '1e400'],
    ['ERROR', '-1e400'],
    ['ERROR', '5000'],
    ['ERROR', '-1001'],
    ['METERSTDEV', '-0.5'],
    ['METERSTDEV', '1e308'],
    ['TESTSAMPLES', '-3'],
    ['TESTSAMPLES', '1e12'],
    ['TESTSAMPLES', '18446744073709551616'],
    ['INTTIME', '-60'],
    ['INTTIME', '1e308'],
    ['MENERGYTYPE', '-1'],
    ['CONTYPE', '1e9'],
    ['METERCONST', '-1000'],
    ['METERCONST', '1e308'],
    ['MCHNLA1', '1e308'],
    ['MCHNLA2', '-230'],
    ['MCHNLB3', '1e7'],
    ['MPOWFACT1', '1.5'],
    ['MPHA2', '720'],
    ['PH3', '-1e308'],
    ['DFA1', '-1'],
    ['DFB2', '1e5'],
    ['UPP1', '1e308'],
    ['MFREQ', '1e308'],
    ['MFREQ', '-50'],
    ['MPOWERSUM', '1e308'],
    ['MQPOWER2', '-1e13'],
    ['MSPOWER1', '-1'],
    ['MENERGYSUM', '1e308'],
    ['MSENERGY2', '-5'],
    ['MDPERIOD', '-900'],
    ['MDSUBPERIODS', '-1'],
    ['MDLASTRESET', '-1'],
    ['MDLASTRESET', '1e308'],
    ['MDFIXS', '-3600'],
    ['MDSLIDP', '1e308'],
    ['MTIME', '1e308'],
    ['MTIME', '-1'],
    // A key the schema does not name is kept as sent, but not with an absurd number.
    ['MNEWFIELD', '1e308'],
    ['MNEWFIELD', '-1e400'],
  ])('refuses %s = %s as out of range', (key, raw) => {
    const r = decode(withValue(key, raw));
    expect(r).toMatchObject({ ok: false, reason: 'out_of_range' });
    if (!r.ok) expect(r.detail).toContain(key);
  });

  it.each([
    ['ERROR', '-100'],
    ['ERROR', '999.5'],
    ['TESTSAMPLES', '0'],
    ['MPHA3', '359.99'],
    ['PH1', '-180'],
    ['MQPOWERSUM', '-150000'],
    ['MENERGY1', '-12.5'],
    ['MNEWFIELD', '42'],
  ])('accepts %s = %s', (key, raw) => {
    expect(decode(withValue(key, raw))).toMatchObject({ ok: true });
  });

  it('keeps a text under a key it does not name, and refuses a count that is not whole', () => {
    expect(decode(withValue('MNOTE', '"firmware 2.1"'))).toMatchObject({ ok: true });
    expect(decode(withValue('TESTSAMPLES', '14.5'))).toMatchObject({ ok: false, reason: 'schema' });
  });
});
