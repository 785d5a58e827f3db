import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeTasmota } from './tasmota';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'tasmota');
const raw = (file: string) => fs.readFileSync(path.join(DIR, file));
const TZ = 'Europe/Bratislava';

describe('Tasmota energy monitors', () => {
  it('reads a Sonoff POW R2 SENSOR message in the device’s local time', () => {
    expect(decodeTasmota('SENSOR', raw('docs_sonoff_pow_r2_tele_SENSOR.json'), TZ)).toEqual({
      ok: true,
      kind: 'reading',
      reading: {
        // 17:37:10 in Bratislava in February is 16:37:10 UTC.
        tsSec: Date.parse('2018-02-15T16:37:10Z') / 1000,
        U: { L1: 227 },
        I: { L1: 11.661 },
        P: { L1: 2635 },
        Q: { L1: 282 },
        S: { L1: 2650 },
        PF: { L1: 0.99 },
        E_I: { totalWh: 6294 },
      },
    });
  });

  it('reads the Status 8 reply the same way', () => {
    const r = decodeTasmota('STATUS8', raw('docs_sonoff_pow_r2_stat_STATUS8.json'), TZ);
    expect(r).toMatchObject({
      ok: true,
      reading: { tsSec: Date.parse('2018-11-15T07:54:18Z') / 1000, P: { L1: 2629 }, E_I: { totalWh: 6404 } },
    });
  });

  it('keeps absent what the device does not measure (a Teleinfo meter has no voltage)', () => {
    const r = decodeTasmota('SENSOR', raw('docs_teleinfo_denky_tele_SENSOR.json'), 'Europe/Paris');
    expect(r).toEqual({
      ok: true,
      kind: 'reading',
      reading: {
        tsSec: Date.parse('2021-10-26T15:28:45Z') / 1000,
        I: { L1: 1 },
        P: { L1: 170 },
        E_I: { totalWh: 9098245 },
      },
    });
  });

  it('reads the time in the zone the device runs in', () => {
    const r = decodeTasmota('SENSOR', raw('docs_sonoff_pow_r2_tele_SENSOR.json'), 'America/New_York');
    expect(r.ok && r.kind === 'reading' && r.reading.tsSec).toBe(Date.parse('2018-02-15T22:37:10Z') / 1000);
  });

  it('reads the per-phase arrays of three-phase builds', () => {
    const msg = {
      Time: '2024-07-01T12:00:00',
      ENERGY: {
        TotalStartTime: '2024-01-01T00:00:00',
        Total: [10.5, 20.25, 30.125],
        ExportActive: 1.5,
        Yesterday: 1,
        Today: 0.5,
        Power: [100, 200, -50],
        ApparentPower: [110, 210, 60],
        ReactivePower: [10, 20, 5],
        Factor: [0.91, 0.95, 0.83],
        Frequency: 50.02,
        Voltage: [230, 231, 229],
        Current: [0.48, 0.9, 0.26],
      },
    };
    expect(decodeTasmota('SENSOR', Buffer.from(JSON.stringify(msg)), TZ)).toEqual({
      ok: true,
      kind: 'reading',
      reading: {
        tsSec: Date.parse('2024-07-01T10:00:00Z') / 1000,
        U: { L1: 230, L2: 231, L3: 229 },
        I: { L1: 0.48, L2: 0.9, L3: 0.26 },
        P: { L1: 100, L2: 200, L3: -50 },
        Q: { L1: 10, L2: 20, L3: 5 },
        S: { L1: 110, L2: 210, L3: 60 },
        PF: { L1: 0.91, L2: 0.95, L3: 0.83 },
        F: 50.02,
        E_I: { phasesWh: { L1: 10500, L2: 20250, L3: 30125 } },
        E_E: { totalWh: 1500 },
      },
    });
  });

  it('reads LWT Online and Offline', () => {
    expect(decodeTasmota('LWT', raw('docs_mqtt_tele_LWT_online.txt'), TZ)).toEqual({
      ok: true,
      kind: 'online',
      online: true,
    });
    expect(decodeTasmota('LWT', raw('docs_mqtt_tele_LWT_offline.txt'), TZ)).toEqual({
      ok: true,
      kind: 'online',
      online: false,
    });
  });

  it('passes over other topics and sensors', () => {
    expect(decodeTasmota('STATE', Buffer.from('{"Uptime":"0T00:01:00"}'), TZ)).toEqual({
      ok: true,
      kind: 'ignored',
    });
    expect(
      decodeTasmota('SENSOR', Buffer.from('{"Time":"2024-01-01T00:00:00","DS18B20":{"Temperature":21}}'), TZ),
    ).toEqual({
      ok: true,
      kind: 'ignored',
    });
  });

  const good = raw('docs_sonoff_pow_r2_tele_SENSOR.json').toString('utf8');
  const obj = JSON.parse(good) as { Time: string; ENERGY: Record<string, unknown> };
  it.each([
    ['truncated JSON', good.slice(0, 60)],
    ['a power as text', JSON.stringify({ ...obj, ENERGY: { ...obj.ENERGY, Power: '2635' } })],
    ['no Total register', JSON.stringify({ ...obj, ENERGY: { ...obj.ENERGY, Total: undefined } })],
    ['more than three phases', JSON.stringify({ ...obj, ENERGY: { ...obj.ENERGY, Voltage: [1, 2, 3, 4] } })],
    ['no time', JSON.stringify({ ENERGY: obj.ENERGY })],
    ['an impossible time', JSON.stringify({ ...obj, Time: '2018-02-30T17:37:10' })],
    ['a time with a zone it does not send', JSON.stringify({ ...obj, Time: 'noon' })],
  ])('refuses %s', (_name, text) => {
    expect(decodeTasmota('SENSOR', Buffer.from(text), TZ).ok).toBe(false);
  });

  it('refuses an LWT word it does not know', () => {
    expect(decodeTasmota('LWT', Buffer.from('Sleeping'), TZ).ok).toBe(false);
  });
});
