import { describe, expect, it } from 'vitest';
import {
  JSON_MAPPING_MAX,
  SDM630_PRESET,
  jsonMappingProblems,
  parseJsonPath,
  type JsonMapping,
} from '@meterportal/protocol';
import { decodeJsonMeter } from './json';

const bytes = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));

/** One poll of an SDM630 as a Modbus-to-MQTT gateway publishes it (energies in kWh). */
const SDM630_POLL = {
  Timestamp: '2026-11-25T08:00:00Z',
  VoltageL1: 231.2,
  VoltageL2: 229.8,
  VoltageL3: 230.5,
  CurrentL1: 4.51,
  CurrentL2: 1.02,
  CurrentL3: 0.48,
  PowerL1: 1012.3,
  PowerL2: 221.7,
  PowerL3: -95.2,
  ReactivePowerL1: 120.4,
  ReactivePowerL2: 30.1,
  ReactivePowerL3: -12.5,
  ApparentPowerL1: 1042.7,
  ApparentPowerL2: 234.4,
  ApparentPowerL3: 110.6,
  CosphiL1: 0.971,
  CosphiL2: 0.946,
  CosphiL3: -0.861,
  Frequency: 50.01,
  Import: 12345.678,
  Export: 1.234,
  THDL1: 2.1,
};

const nested: JsonMapping = {
  rows: [
    { quantity: 'U', phase: 'L1', path: 'data.voltage[0]', scale: 1 },
    { quantity: 'U', phase: 'L2', path: 'data.voltage[1]', scale: 1 },
    { quantity: 'P', phase: 'L1', path: '$.L1.P', scale: 1000 },
    { quantity: 'E_I', phase: 'L1', path: 'energy.import[0]', scale: 1 },
    { quantity: 'E_I', phase: 'L2', path: 'energy.import[1]', scale: 1 },
  ],
  timePath: 'ts',
  timeFormat: 'unix_ms',
};

describe('generic JSON meters', () => {
  it('reads an SDM630 gateway poll through the preset, energy from the registers in Wh', () => {
    const r = decodeJsonMeter(bytes(SDM630_POLL), SDM630_PRESET);
    expect(r).toEqual({
      ok: true,
      reading: {
        tsSec: Date.parse('2026-11-25T08:00:00Z') / 1000,
        U: { L1: 231.2, L2: 229.8, L3: 230.5 },
        I: { L1: 4.51, L2: 1.02, L3: 0.48 },
        P: { L1: 1012.3, L2: 221.7, L3: -95.2 },
        Q: { L1: 120.4, L2: 30.1, L3: -12.5 },
        S: { L1: 1042.7, L2: 234.4, L3: 110.6 },
        PF: { L1: 0.971, L2: 0.946, L3: -0.861 },
        F: 50.01,
        E_I: { totalWh: 12345678 },
        E_E: { totalWh: 1234 },
      },
    });
  });

  it('follows dot paths with array indices and $, scales, and reads unix milliseconds', () => {
    const r = decodeJsonMeter(
      bytes({
        ts: 1795593600123,
        data: { voltage: [230, 231] },
        L1: { P: 1.5 },
        energy: { import: [10, 20] },
      }),
      nested,
    );
    expect(r).toEqual({
      ok: true,
      reading: {
        tsSec: 1795593600,
        U: { L1: 230, L2: 231 },
        P: { L1: 1500 },
        E_I: { phasesWh: { L1: 10, L2: 20 } },
      },
    });
  });

  it('reads unix seconds and ISO 8601 times with an offset', () => {
    const m = (timeFormat: JsonMapping['timeFormat']): JsonMapping => ({
      rows: [{ quantity: 'E_I', phase: 'total', path: 'e', scale: 1 }],
      timePath: 't',
      timeFormat,
    });
    expect(decodeJsonMeter(bytes({ t: 1795593600, e: 1 }), m('unix_s'))).toMatchObject({
      reading: { tsSec: 1795593600 },
    });
    expect(decodeJsonMeter(bytes({ t: '2026-11-25T09:00:00+01:00', e: 1 }), m('iso'))).toMatchObject({
      reading: { tsSec: Date.parse('2026-11-25T08:00:00Z') / 1000 },
    });
    // No time in the payload: the arrival time is taken (by ingest), none is made up here.
    expect(decodeJsonMeter(bytes({ e: 1 }), m('iso'))).toEqual({
      ok: true,
      reading: { E_I: { totalWh: 1 } },
    });
    // A local time without its zone is not guessed.
    expect(decodeJsonMeter(bytes({ t: '2026-11-25T09:00:00', e: 1 }), m('iso'))).toMatchObject({
      ok: false,
      reason: 'time',
    });
    expect(decodeJsonMeter(bytes({ t: 12, e: 1 }), m('unix_s'))).toMatchObject({ ok: false, reason: 'time' });
  });

  it('leaves a quantity whose path is missing (or null) absent, never zero', () => {
    const { VoltageL2: _u, CurrentL3: _i, Export: _e, ...poll } = SDM630_POLL;
    const r = decodeJsonMeter(bytes({ ...poll, Frequency: null }), SDM630_PRESET);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.reading.U).toEqual({ L1: 231.2, L3: 230.5 });
    expect(r.reading.I).toEqual({ L1: 4.51, L2: 1.02 });
    expect(r.reading).not.toHaveProperty('F');
    expect(r.reading).not.toHaveProperty('E_E');
    // A register counted per phase is whole or absent.
    const partial = decodeJsonMeter(bytes({ energy: { import: [10] }, data: { voltage: [230] } }), nested);
    expect(partial).toEqual({ ok: true, reading: { U: { L1: 230 } } });
  });

  it('refuses wrong types, bounds and malformed JSON', () => {
    const bad = (payload: unknown, reason: string) =>
      expect(decodeJsonMeter(bytes(payload), SDM630_PRESET)).toMatchObject({ ok: false, reason });
    bad({ ...SDM630_POLL, VoltageL1: '231.2' }, 'schema');
    bad({ ...SDM630_POLL, PowerL1: true }, 'schema');
    bad({ ...SDM630_POLL, CurrentL1: { v: 1 } }, 'schema');
    bad({ ...SDM630_POLL, CosphiL1: 1.5 }, 'schema');
    bad({ ...SDM630_POLL, Import: -1 }, 'schema');
    bad({ ...SDM630_POLL, Frequency: 1e308 }, 'schema');
    bad({ ...SDM630_POLL, Import: 1e300 }, 'schema'); // infinite once scaled
    bad('{"VoltageL1": 230', 'json');
    bad('{"VoltageL1": NaN}', 'json');
    bad('42', 'schema');
    expect(decodeJsonMeter(new Uint8Array([0xff, 0xfe]), SDM630_PRESET)).toMatchObject({
      reason: 'encoding',
    });
  });

  it('parses the path forms and refuses others', () => {
    expect(parseJsonPath('data.voltage[0]')).toEqual(['data', 'voltage', 0]);
    expect(parseJsonPath('$.L1.U')).toEqual(['L1', 'U']);
    expect(parseJsonPath('$[2].P')).toEqual([2, 'P']);
    expect(parseJsonPath('a["odd name"].b')).toEqual(['a', 'odd name', 'b']);
    for (const bad of ['', '$', 'a..b', 'a.', '.a', 'a[x]', 'a[-1]', 'a b', '$$.a', 'a[0'])
      expect(parseJsonPath(bad), bad).toBeNull();
  });

  it('names every problem of a mapping', () => {
    const ok: JsonMapping = { rows: [{ quantity: 'E_I', phase: 'total', path: 'e', scale: 1000 }] };
    expect(jsonMappingProblems(ok)).toEqual([]);
    expect(jsonMappingProblems(SDM630_PRESET)).toEqual([]);
    const problems = jsonMappingProblems({
      rows: [
        { quantity: 'X', phase: 'L1', path: 'a', scale: 1 },
        { quantity: 'U', phase: 'total', path: 'a', scale: 1 },
        { quantity: 'F', phase: 'L2', path: 'a', scale: 1 },
        { quantity: 'P', phase: 'L1', path: 'a..b', scale: 1 },
        { quantity: 'I', phase: 'L1', path: 'i', scale: 0 },
        { quantity: 'I', phase: 'L1', path: 'i', scale: 2 },
        { quantity: 'E_I', phase: 'L1', path: 'e', scale: Number.NaN },
        { quantity: 'E_I', phase: 'total', path: 'e', scale: 1 },
      ],
      timePath: 'a b',
      timeFormat: 'hours',
    });
    expect(problems).toEqual([
      'rows.0.quantity: one of U, I, P, Q, S, PF, F, E_I, E_E',
      'rows.1.phase: U is per phase (L1, L2, L3)',
      'rows.2.phase: frequency is the total only',
      'rows.3.path: not a JSON path (like data.voltage[0] or $.L1.U)',
      'rows.4.scale: a finite number other than 0',
      'rows.5: I L1 is mapped twice',
      'rows.6.scale: a finite number other than 0',
      'rows: E_I is mapped per phase or as a total, not both',
      'timePath: not a JSON path',
      'timeFormat: one of unix_s, unix_ms, iso',
    ]);
    const many = Array.from({ length: JSON_MAPPING_MAX + 1 }, (_v, i) => ({
      quantity: 'E_I',
      phase: 'total',
      path: `e${i}`,
      scale: 1,
    }));
    expect(jsonMappingProblems({ rows: many })).toContain(`rows: at most ${JSON_MAPPING_MAX}`);
    expect(jsonMappingProblems({ rows: [{ quantity: 'U', phase: 'L1', path: 'u', scale: 1 }] })).toEqual([
      'rows: map the imported energy register (E_I); energy is taken from the register only',
    ]);
  });
});
