import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDevice, type SimDevice } from '@meterportal/simulator';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  call,
  createTestApp,
  quickSession,
  snapshot,
  type Client,
  type TestApp,
} from '../test/harness';
import { startRuntime, type Runtime } from '../runtime';
import { sectionProblem } from './settings.service';

/** A LoRa-capable smart meter (type 1), an industrial meter without LoRa (type 4), and one never connected. */
const SMART = '02-4D-50-00-00-21';
const PLANT = '02-4D-50-00-00-24';
const AWAY = '02-4D-50-00-00-31';
const READ = '/api/read/devices/settings';
const WRITE = '/api/write/devices/settings';

const APP_KEY = '2B7E151628AED2A6ABF7158809CF4F3C';
const NET_KEY = '000102030405060708090A0B0C0D0E0F';
const WIFI_PASSWORD = 'correct horse battery';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const MEASUREMENT = {
  powerScale: 'W',
  timeScaleSec: 10,
  activeChannels: ['L1', 'L3'],
  accuracy: '0.5S',
  energyOffsetWh: 1_250_000,
  transformationRatio: 40,
  activePowerThresholdW: 5.5,
};

describe('sectionProblem', () => {
  const lora = { section: 'lora' as const, lora: { echoIntervalSec: 60, aliveIntervalSec: 600 } };
  const channels = (c: ('L1' | 'L2' | 'L3')[]) => ({
    section: 'measurement' as const,
    measurement: { ...MEASUREMENT, powerScale: 'W' as const, accuracy: '1' as const, activeChannels: c },
  });
  it.each([
    ['LoRa on a device without a radio', { lora: 0, phase_use: 3 }, lora, 'This device has no LoRa radio'],
    ['LoRa on a LoRa device', { lora: 1, phase_use: 3 }, lora, null],
    [
      'an unwired channel',
      { lora: 0, phase_use: 1 },
      channels(['L1', 'L2']),
      'Invalid request at measurement.activeChannels: L2 is not wired on this device (1 phase)',
    ],
    ['wired channels', { lora: 0, phase_use: 2 }, channels(['L2', 'L1']), null],
  ])('judges %s', (_name, device, write, problem) => {
    expect(sectionProblem(device, write)).toBe(problem);
  });
});

describe.each(DIALECTS)('device settings over the embedded broker on $name', (dialect) => {
  let t: TestApp;
  let runtime: Runtime;
  let alice: Client;
  let bob: Client;
  const sims: SimDevice[] = [];
  const logged: string[] = [];
  const tok = (c: Client, mac: string) => c.devices.find((d) => d.mac === mac)!.token;
  const read = (c: Client, mac: string) => call(t.app, 'POST', READ, { token: tok(c, mac) }, c);
  const write = (c: Client, mac: string, body: object) =>
    call(t.app, 'POST', WRITE, { token: tok(c, mac), ...body }, c);
  const sent = () => vi.spyOn(t.services.deviceCommands, 'send');

  beforeAll(async () => {
    // Everything the server logs, at every level, to prove no key or password is ever written.
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        logged.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = pino({ level: 'trace' }, sink) as unknown as FastifyBaseLogger;
    t = await createTestApp(dialect, {
      env: { DEMO: 'false', ROLES: 'read,write,ingest' },
      commandTimeoutMs: 1500,
      logger,
    });
    runtime = await startRuntime(t.services, { logger, mqttPort: 0 });
    const aliceId = await addUser(t.services, 'alice', 'alice-secret');
    const bobId = await addUser(t.services, 'bob', 'bob-secret');
    const smartId = await addDevice(t.services, SMART, 1);
    const plantId = await addDevice(t.services, PLANT, 4);
    await assign(t.services, aliceId, smartId, true);
    await assign(t.services, aliceId, plantId, true);
    await assign(t.services, bobId, smartId, false);
    await assign(t.services, aliceId, await addDevice(t.services, AWAY, 1), true);
    for (const [id, mac, type] of [
      [smartId, SMART, 1],
      [plantId, PLANT, 4],
    ] as const) {
      const creds = await runtime.link!.credentials.issue(id, mac);
      sims.push(
        startDevice({
          brokerUrl: `mqtt://127.0.0.1:${runtime.mqttPort}`,
          mac,
          type,
          phases: 3,
          ...creds,
          outages: false,
        }),
      );
    }
    alice = await quickSession(t.services, aliceId);
    bob = await quickSession(t.services, bobId);
    await Promise.all(sims.map((s) => s.connected));
    // Online once the device's state message is stored.
    for (let i = 0; i < 100 && (await read(alice, PLANT)).json<{ status: string }>().status !== 'OK'; i++)
      await sleep(100);
    for (let i = 0; i < 100 && (await read(alice, SMART)).json<{ status: string }>().status !== 'OK'; i++)
      await sleep(100);
  }, 60_000);
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop()));
    await runtime.stop();
    await t.close();
  });

  it('reads the settings from the device, LoRa only for the LoRa-capable one', async () => {
    const smart = (await read(alice, SMART)).json();
    expect(smart).toEqual({
      status: 'OK',
      data: {
        lora: { appKeySet: false, netKeySet: false, echoIntervalSec: 60, aliveIntervalSec: 900 },
        wifi: { ssid: 'meter-0021', passwordSet: false, ip: { mode: 'DHCP' } },
        measurement: {
          powerScale: 'kW',
          timeScaleSec: 1,
          activeChannels: ['L1', 'L2', 'L3'],
          accuracy: '1',
          energyOffsetWh: 0,
          transformationRatio: 1,
          activePowerThresholdW: 2,
        },
      },
    });
    expect((await read(alice, PLANT)).json()).toMatchObject({ status: 'OK', data: { lora: null } });
  });

  it('writes the LoRa keys and intervals once the device confirmed, and never answers a key', async () => {
    const spy = sent();
    const r = await write(alice, SMART, {
      section: 'lora',
      lora: { appKey: APP_KEY, netKey: NET_KEY.toLowerCase(), echoIntervalSec: 30, aliveIntervalSec: 3600 },
    });
    expect(r.json()).toMatchObject({
      status: 'OK',
      data: { lora: { appKeySet: true, netKeySet: true, echoIntervalSec: 30, aliveIntervalSec: 3600 } },
    });
    expect(spy).toHaveBeenCalledTimes(1);
    // Without keys the device keeps its own; only the intervals change.
    const again = await write(alice, SMART, {
      section: 'lora',
      lora: { echoIntervalSec: 45, aliveIntervalSec: 3600 },
    });
    expect(again.json().data.lora).toEqual({
      appKeySet: true,
      netKeySet: true,
      echoIntervalSec: 45,
      aliveIntervalSec: 3600,
    });
    const back = await read(alice, SMART);
    for (const body of [r.body, again.body, back.body]) {
      expect(body).not.toContain(APP_KEY);
      expect(body.toUpperCase()).not.toContain(NET_KEY);
    }
    // Not stored by the portal either.
    const stored = JSON.stringify(await snapshot(t.services)).toUpperCase();
    expect(stored).not.toContain(APP_KEY);
    expect(stored).not.toContain(NET_KEY);
  });

  it('writes WiFi with a static address and the measurement settings, and reads them back', async () => {
    const ip = {
      mode: 'STATIC',
      address: '10.20.0.17',
      mask: '255.255.255.0',
      gateway: '10.20.0.1',
      dns: '1.1.1.1',
    };
    const w = await write(alice, PLANT, {
      section: 'wifi',
      wifi: { ssid: 'Plant floor', password: WIFI_PASSWORD, ip },
    });
    expect(w.json()).toMatchObject({
      status: 'OK',
      data: { wifi: { ssid: 'Plant floor', passwordSet: true, ip } },
    });
    expect(w.body).not.toContain(WIFI_PASSWORD);
    const m = await write(alice, PLANT, { section: 'measurement', measurement: MEASUREMENT });
    expect(m.json()).toMatchObject({ status: 'OK', data: { measurement: MEASUREMENT } });
    const back = (await read(alice, PLANT)).json().data;
    expect(back).toEqual({
      lora: null,
      wifi: { ssid: 'Plant floor', passwordSet: true, ip },
      measurement: MEASUREMENT,
    });
    // Back to DHCP.
    const dhcp = await write(alice, PLANT, {
      section: 'wifi',
      wifi: { ssid: 'Plant floor', ip: { mode: 'DHCP' } },
    });
    expect(dhcp.json().data.wifi).toEqual({ ssid: 'Plant floor', passwordSet: true, ip: { mode: 'DHCP' } });
  });

  const lora = (l: object) => ({
    section: 'lora',
    lora: { echoIntervalSec: 60, aliveIntervalSec: 900, ...l },
  });
  const staticIp = (ip: object) => ({
    section: 'wifi',
    wifi: {
      ssid: 'x',
      ip: {
        mode: 'STATIC',
        address: '10.0.0.5',
        mask: '255.255.255.0',
        gateway: '10.0.0.1',
        dns: '10.0.0.1',
        ...ip,
      },
    },
  });
  const measurement = (m: object) => ({ section: 'measurement', measurement: { ...MEASUREMENT, ...m } });
  it.each([
    [
      'a short application key',
      SMART,
      lora({ appKey: 'ABC' }),
      'lora.appKey',
      'Application key must be 32 hexadecimal digits',
    ],
    [
      'a network key with a non-hex digit',
      SMART,
      lora({ netKey: `${NET_KEY.slice(0, 31)}G` }),
      'lora.netKey',
      'Network key must be 32 hexadecimal digits',
    ],
    [
      'an echo interval under 10 s',
      SMART,
      lora({ echoIntervalSec: 5 }),
      'lora.echoIntervalSec',
      'Echo interval must be at least 10 s',
    ],
    [
      'a fractional alive interval',
      SMART,
      lora({ aliveIntervalSec: 90.5 }),
      'lora.aliveIntervalSec',
      'Alive interval must be a whole number of s',
    ],
    ['LoRa on a device without LoRa', PLANT, lora({}), '', 'This device has no LoRa radio'],
    [
      'a gateway outside the subnet',
      PLANT,
      staticIp({ gateway: '10.0.1.1' }),
      'wifi.ip.gateway',
      'Gateway must lie in the subnet of the IP address',
    ],
    [
      'a broken mask',
      PLANT,
      staticIp({ mask: '255.0.255.0' }),
      'wifi.ip.mask',
      'Subnet mask must be contiguous',
    ],
    [
      'an address out of range',
      PLANT,
      staticIp({ dns: '10.0.0.256' }),
      'wifi.ip.dns',
      'must be an IPv4 address',
    ],
    ['a static address without gateway', PLANT, staticIp({ gateway: undefined }), 'wifi.ip.gateway', ''],
    [
      'an empty network name',
      PLANT,
      { section: 'wifi', wifi: { ssid: '', ip: { mode: 'DHCP' } } },
      'wifi.ssid',
      'WiFi network name is required',
    ],
    [
      'a short WiFi password',
      PLANT,
      { section: 'wifi', wifi: { ssid: 'a', password: 'short', ip: { mode: 'DHCP' } } },
      'wifi.password',
      'WiFi password must be 8 to 63',
    ],
    [
      'no active channel',
      PLANT,
      measurement({ activeChannels: [] }),
      'measurement.activeChannels',
      'At least one channel must be active',
    ],
    [
      'a repeated channel',
      PLANT,
      measurement({ activeChannels: ['L1', 'L1'] }),
      'measurement.activeChannels',
      'Each channel may be named once',
    ],
    [
      'an unknown accuracy class',
      PLANT,
      measurement({ accuracy: '3' }),
      'measurement.accuracy',
      'Accuracy must be one of',
    ],
    [
      'a transformation ratio of 0',
      PLANT,
      measurement({ transformationRatio: 0 }),
      'measurement.transformationRatio',
      'Transformation ratio must be at least 1',
    ],
    [
      'a negative energy offset',
      PLANT,
      measurement({ energyOffsetWh: -1 }),
      'measurement.energyOffsetWh',
      'Energy offset must be at least 0 Wh',
    ],
    [
      'a negative power threshold',
      PLANT,
      measurement({ activePowerThresholdW: -1 }),
      'measurement.activePowerThresholdW',
      'Active power threshold must not be negative',
    ],
    [
      'an unknown power scale',
      PLANT,
      measurement({ powerScale: 'GW' }),
      'measurement.powerScale',
      'Power scale must be one of',
    ],
    ['an unknown section', PLANT, { section: 'radio', radio: {} }, '', ''],
  ])('refuses %s with a clear 400, sending nothing', async (_name, mac, body, where, message) => {
    const before = (await read(alice, mac)).json();
    const spy = sent();
    const r = await write(alice, mac, body);
    expect(r.statusCode).toBe(400);
    const answer = r.json<{ status: string; code: number; message: string }>();
    expect(answer).toMatchObject({ status: 'ERROR', code: 600 });
    expect(answer.message).toContain(where);
    expect(answer.message).toContain(message);
    expect(spy).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    expect((await read(alice, mac)).json()).toEqual(before);
  });

  it('answers another user of the device as if it did not exist, sending nothing', async () => {
    const spy = sent();
    expect((await read(bob, SMART)).json()).toMatchObject({ status: 'ERROR', code: 605 });
    const w = await write(bob, SMART, lora({ appKey: APP_KEY }));
    expect(w.json()).toMatchObject({ status: 'ERROR', code: 605 });
    expect(spy).not.toHaveBeenCalled();
  });

  it('answers an offline device with the seed text at once, sending nothing', async () => {
    const spy = sent();
    for (const r of [await read(alice, AWAY), await write(alice, AWAY, lora({}))]) {
      expect(r.statusCode).toBe(504);
      expect(r.json()).toEqual({
        status: 'ERROR',
        code: 604,
        message: 'Device not responding or is offline',
      });
    }
    expect(spy).not.toHaveBeenCalled();
  });

  it('answers a device that does not confirm within the timeout with the same text', async () => {
    const smart = sims[0]!;
    smart.hang(true);
    try {
      const started = Date.now();
      const r = await write(alice, SMART, lora({ echoIntervalSec: 120 }));
      expect(r.json()).toEqual({
        status: 'ERROR',
        code: 604,
        message: 'Device not responding or is offline',
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
      expect((await read(alice, SMART)).json()).toMatchObject({ status: 'ERROR', code: 604 });
    } finally {
      smart.hang(false);
    }
    expect((await read(alice, SMART)).json().data.lora.echoIntervalSec).toBe(45);
  });

  it('never writes a key or the WiFi password to the log', () => {
    const all = logged.join('\n').toUpperCase();
    expect(logged.length).toBeGreaterThan(0);
    expect(all).not.toContain(APP_KEY);
    expect(all).not.toContain(NET_KEY);
    expect(all).not.toContain(WIFI_PASSWORD.toUpperCase());
  });
});
