import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { DeviceMessage } from '@meterportal/protocol';
import { ManualClock } from '../clock';
import { createTelemetryMetrics } from '../telemetry/metrics';
import { memoryLogger } from '../telemetry/testing';
import { createFamilyIngest } from './family-ingest';
import type { FamilyDeviceRow } from './family-devices.repository';
import { p1Telegram, shellyEm, shellyEmData, tasmotaSensor } from './testing';

const TZ = 'Europe/Bratislava';
const DEVICES: FamilyDeviceRow[] = [
  { family: 'shelly', topic: 'pro3em', mac: '02-4D-50-00-40-01', tz: null },
  { family: 'tasmota', topic: 'plug', mac: '02-4D-50-00-40-02', tz: 'America/New_York' },
  { family: 'p1', topic: 'house', mac: '02-4D-50-00-40-03', tz: null },
];

const familyOf = (mac: string) => DEVICES.find((d) => d.mac === mac)!.family;

/** `stored`: the macs the store holds as online. */
function rig(stored: string[] = []) {
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 12, 0, 0));
  const metrics = createTelemetryMetrics(new Registry());
  const accepted: DeviceMessage[] = [];
  let acks = 0;
  const family = createFamilyIngest({
    repository: {
      byTopic: (f, topic) =>
        Promise.resolve(DEVICES.find((d) => d.family === f && d.topic === topic) ?? null),
      byMac: (mac) => Promise.resolve(DEVICES.find((d) => d.mac === mac) ?? null),
      onlineOf: (families) => Promise.resolve(stored.filter((mac) => families.includes(familyOf(mac)))),
    },
    accept: (m, _publisher, ack) => {
      accepted.push(m);
      ack?.();
    },
    clock,
    tz: TZ,
    metrics,
    logger: memoryLogger(),
  });
  const send = async (topic: string, payload: string | Buffer, publisher?: string) => {
    const handled = family.handle(topic, Buffer.from(payload), publisher, () => acks++);
    await family.settled();
    return handled;
  };
  const rejects = async (reason: string) =>
    (await metrics.rejects.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;
  return { clock, family, accepted, send, rejects, acks: () => acks };
}

describe('family messages into ingest', () => {
  it('leaves the portal protocol and unknown shapes to the caller', async () => {
    const r = rig();
    expect(await r.send('meters/02-4D-50-00-40-01/live', '{}')).toBe(false);
    expect(await r.send('tele/plug/extra/SENSOR', '{}')).toBe(false);
    expect(await r.send('portal/probe/inflight', '{}')).toBe(false);
  });

  it('makes a Shelly frame at the server time once registers and values are both known', async () => {
    const r = rig();
    await r.send('pro3em/online', 'true');
    await r.send('pro3em/status/em:0', shellyEm([10, 20, 30]));
    expect(r.accepted.map((m) => m.kind)).toEqual(['state']);
    await r.send('pro3em/status/emdata:0', shellyEmData([1000.9, 2000, 3000]));
    const live = r.accepted[1]!;
    expect(live.kind === 'live' && live.payload).toMatchObject({
      ts: r.clock.nowMs() / 1000,
      P: { L1: 10, L2: 20, L3: 30 },
      E_I: { L1: 1000, L2: 2000, L3: 3000 },
      Q: { L1: null, L2: null, L3: null },
    });
    expect(r.acks()).toBe(3);
  });

  it("reads a device's time in its own zone when it has one", async () => {
    const r = rig();
    const tsSec = Date.UTC(2026, 6, 1, 12, 0, 0) / 1000;
    await r.send('tele/plug/SENSOR', tasmotaSensor(tsSec, 'America/New_York', 10, 100));
    expect(r.accepted[0]?.kind === 'live' && r.accepted[0].payload.ts).toBe(tsSec);
  });

  it('refuses what another device publishes on its topics', async () => {
    const r = rig();
    await r.send('tele/plug/LWT', 'Online', '02-4D-50-00-40-01');
    expect(r.accepted).toEqual([]);
    expect(await r.rejects('wrong_topic')).toBe(1);
    expect(r.acks()).toBe(1);
  });

  it('counts malformed payloads by reason and passes nothing on', async () => {
    const r = rig();
    const tsSec = Date.UTC(2026, 10, 21, 11, 0, 0) / 1000;
    const bad = p1Telegram(tsSec, TZ, false, { t1Kwh: 1, t2Kwh: 2, exportKwh: 0, powerKw: 1, voltageV: 230 });
    bad[bad.length - 3] = bad[bad.length - 3] === 0x30 ? 0x31 : 0x30;
    await r.send('p1/house', bad);
    await r.send('pro3em/status/em:0', '{"a_voltage": "x"');
    await r.send('tele/plug/SENSOR', '{"Time":"2026-01-01T00:00:00","ENERGY":{"Total":"many"}}');
    expect(r.accepted).toEqual([]);
    expect([
      await r.rejects('adapter_crc'),
      await r.rejects('adapter_json'),
      await r.rejects('adapter_schema'),
    ]).toEqual([1, 1, 1]);
    expect(r.acks()).toBe(3);
  });

  it('refuses a reading beyond the physical bounds of a frame', async () => {
    const r = rig();
    await r.send('pro3em/status/emdata:0', shellyEmData([1, 1, 1]));
    await r.send('pro3em/status/em:0', shellyEm([10, 20, 30]).replace('"a_voltage":230.1', '"a_voltage":-5'));
    expect(r.accepted).toEqual([]);
    expect(await r.rejects('adapter_schema')).toBe(1);
  });

  it('refuses topics of devices that are not registered, and keeps their order while looking up', async () => {
    const r = rig();
    await r.send('tele/nobody/LWT', 'Online');
    expect(await r.rejects('unknown_device')).toBe(1);
    const tsSec = Date.UTC(2026, 10, 21, 11, 0, 0) / 1000;
    const reading = (t1Kwh: number) => ({ t1Kwh, t2Kwh: 0, exportKwh: 0, powerKw: 1, voltageV: 230 });
    // Sent back to back, before the device is known: taken in order.
    void r.send('p1/house', p1Telegram(tsSec, TZ, false, reading(1)));
    await r.send('p1/house', p1Telegram(tsSec + 1, TZ, false, reading(2)));
    // The first readable telegram also brings the meter online.
    expect(r.accepted.map((m) => (m.kind === 'live' ? m.payload.E_I.L1 : m.kind))).toEqual([
      'state',
      1000,
      2000,
    ]);
  });

  it('holds a P1 meter online while its telegrams arrive and offline once it has been silent', async () => {
    const r = rig();
    const states = () =>
      r.accepted.flatMap((m) => (m.kind === 'state' ? [`${m.mac} ${m.payload.status}`] : []));
    const at = (sec: number) => r.clock.set(Date.UTC(2026, 10, 21, 12, 0, sec));
    const telegram = (sec: number) =>
      p1Telegram(Date.UTC(2026, 10, 21, 12, 0, sec) / 1000, TZ, false, {
        t1Kwh: 500,
        t2Kwh: 300,
        exportKwh: 1,
        powerKw: 0.5,
        voltageV: 232.4,
      });
    await r.send('p1/house', telegram(0));
    expect(r.accepted.map((m) => m.kind)).toEqual(['state', 'live']);
    expect(states()).toEqual(['02-4D-50-00-40-03 ONLINE']);
    at(240);
    await r.send('p1/house', telegram(240));
    // Still online: one state for the whole run of telegrams, and no one is silent yet.
    at(539);
    expect(r.family.checkPresence()).toBe(0);
    expect(states()).toEqual(['02-4D-50-00-40-03 ONLINE']);
    // A telegram that cannot be read is no sign of a working meter.
    const spoilt = telegram(500);
    spoilt[spoilt.indexOf('500.000')] = '8'.charCodeAt(0);
    await r.send('p1/house', spoilt);
    at(540);
    expect(r.family.checkPresence()).toBe(1);
    expect(states()).toEqual(['02-4D-50-00-40-03 ONLINE', '02-4D-50-00-40-03 OFFLINE']);
    expect(r.family.checkPresence()).toBe(0);
    at(600);
    await r.send('p1/house', telegram(600));
    expect(states().at(-1)).toBe('02-4D-50-00-40-03 ONLINE');
  });

  it('lets a P1 meter stored as online go offline when it stays silent after a restart', async () => {
    // The Tasmota plug has its own last will: its stored state is left to it.
    const r = rig(['02-4D-50-00-40-03', '02-4D-50-00-40-02']);
    const stop = r.family.watchPresence();
    try {
      await expect.poll(() => (r.family.checkPresence(), r.accepted.length)).toBe(0);
      r.clock.set(Date.UTC(2026, 10, 21, 12, 5, 0));
      expect(r.family.checkPresence()).toBe(1);
      expect(r.accepted).toEqual([
        { kind: 'state', mac: '02-4D-50-00-40-03', payload: { status: 'OFFLINE' } },
      ]);
    } finally {
      stop();
    }
  });
});
