// Generic JSON meters registered from the user manager's calls: registered with a mapping (the
// SDM630 preset), refused with a bad one (nothing stored), their mapping edited; a gateway
// publishing JSON over real MQTT (embedded broker) with the issued credentials lands readings in
// the history, energy equal to the register difference; quantities the mapping lacks are absent.
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SDM630_PRESET,
  type DeviceConnectionSettings,
  type JsonMapping,
  type RegisteredDevice,
} from '@meterportal/protocol';
import { familyAcl } from '../adapters/families';
import { startRuntime, type Runtime } from '../runtime';
import { until } from '../telemetry/testing';
import {
  DIALECTS,
  addUser,
  call,
  createTestApp,
  quickSession,
  snapshot,
  type Client,
  type TestApp,
} from '../test/harness';

const URL_ = '/applications/usermanager/registrations';
const READ = `/api/read${URL_}`;
const WRITE = `/api/write${URL_}`;
const MAPPING = `${WRITE}/mapping`;
const SDM = { mac: '02-4D-50-00-80-01', topic: 'sdm630-board' };
const OTHER = { mac: '02-4D-50-00-80-02', topic: 'sdm630-garage' };

const quiet = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
  fatal: () => undefined,
  trace: () => undefined,
  child: () => quiet,
  level: 'silent',
  silent: () => undefined,
} as never;

/** One SDM630 poll as a Modbus-to-MQTT gateway publishes it. */
const poll = (tsSec: number, importKwh: number, exportKwh: number) =>
  JSON.stringify({
    Timestamp: new Date(tsSec * 1000).toISOString(),
    VoltageL1: 231.2,
    VoltageL2: 229.8,
    VoltageL3: 230.5,
    CurrentL1: 4.51,
    CurrentL2: 1.02,
    CurrentL3: 0.48,
    PowerL1: 1012.3,
    PowerL2: 221.7,
    PowerL3: 95.2,
    CosphiL1: 0.97,
    CosphiL2: 0.95,
    CosphiL3: 0.86,
    Frequency: 50.01,
    Import: importKwh,
    Export: exportKwh,
  });

describe.each(DIALECTS)('generic JSON meters on $name', (dialect) => {
  let t: TestApp;
  let runtime: Runtime;
  let boss: Client;
  let bossId: number;
  let alice: Client;
  let sdm: DeviceConnectionSettings;
  const clients: MqttClient[] = [];
  const quarter = Math.floor(Date.now() / 1000 / 900) * 900 - 1800;
  const T0 = quarter + 65;
  const T1 = quarter + 600;

  const register = (body: object, who: Client = boss) =>
    call(t.app, 'POST', WRITE, { user_token: who.token, ...body }, who);
  const edit = (mac: string, mapping: unknown, who: Client = boss) =>
    call(t.app, 'PUT', MAPPING, { user_token: who.token, mac, mapping }, who);
  const list = async () =>
    (await call(t.app, 'POST', READ, { user_token: boss.token }, boss)).json<{ data: RegisteredDevice[] }>()
      .data;
  const connect = async (s: DeviceConnectionSettings) => {
    const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${s.port}`, {
      username: s.username,
      password: s.password,
      clientId: s.clientId,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    clients.push(c);
    return c;
  };
  const rejects = async (reason: string) =>
    (await runtime.link!.metrics.rejects.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;
  const tokenOf = async (mac: string) => {
    const owner = await quickSession(t.services, bossId);
    return { owner, token: owner.devices.find((d) => d.mac === mac)!.token };
  };
  const energyWh = async (mac: string, kind: 'E_I' | 'E_E' = 'E_I') => {
    const { owner, token } = await tokenOf(mac);
    const r = await call(
      t.app,
      'POST',
      '/api/read/energy',
      { token, data: kind, period: '15MIN', from: quarter - 3600, to: quarter + 3600 },
      owner,
    );
    if (r.statusCode !== 200) return null;
    const series = r.json<{ data: Record<string, { CUM: [number, number][] }> }>().data[kind]!.CUM;
    return Math.round(series.reduce((a, [, kwh]) => a + kwh, 0) * 1000);
  };
  const profile = async (mac: string, data: string) => {
    const { owner, token } = await tokenOf(mac);
    return call(
      t.app,
      'POST',
      '/api/read/profile',
      { token, data, phase: 'L1,L2,L3', from: quarter, to: quarter + 900 },
      owner,
    );
  };

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { TZ: 'Europe/Bratislava' } });
    t.clock.set(T1 * 1000);
    bossId = await addUser(t.services, 'boss', 'boss-secret', 'USER_MANAGER');
    const aliceId = await addUser(t.services, 'alice', 'alice-secret');
    runtime = await startRuntime(t.services, { logger: quiet, mqttPort: 0 });
    boss = await quickSession(t.services, bossId);
    alice = await quickSession(t.services, aliceId);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await runtime.stop();
    await t.close();
  });

  it('registers a JSON meter with the SDM630 preset and answers its settings once', async () => {
    const r = await register({
      family: 'json',
      mac: SDM.mac,
      title: 'Board SDM630',
      type: 4,
      topic: SDM.topic,
      mapping: SDM630_PRESET,
    });
    expect(r.statusCode, r.body).toBe(200);
    sdm = r.json<{ data: DeviceConnectionSettings }>().data;
    expect(sdm).toMatchObject({
      mac: SDM.mac,
      family: 'json',
      topic: SDM.topic,
      username: SDM.mac,
      publishTopic: `json/${SDM.topic}`,
      command: null,
    });
    expect((await list()).find((d) => d.mac === SDM.mac)).toEqual({
      mac: SDM.mac,
      title: 'Board SDM630',
      type: 4,
      family: 'json',
      topic: SDM.topic,
      tz: null,
      credentials: true,
      online: false,
      mapping: SDM630_PRESET,
    });
    // The broker allows the device exactly its own topic (the same rules go to MQTT_DYNSEC).
    expect(familyAcl({ family: 'json', topic: SDM.topic })).toEqual({
      publish: [`json/${SDM.topic}`],
      subscribe: [],
    });
  });

  it('refuses bad mappings, naming the fault, and stores nothing', async () => {
    const before = await snapshot(t.services);
    const base = { family: 'json', mac: OTHER.mac, title: 'Garage', type: 4, topic: OTHER.topic };
    const row = (quantity: string, phase: string, path: string, scale: number) => ({
      quantity,
      phase,
      path,
      scale,
    });
    const energy = row('E_I', 'total', 'Import', 1000);
    const refused: [object, RegExp][] = [
      [{ ...base }, /mapping: required for the json family/],
      [{ ...base, mapping: { rows: [energy, row('Z', 'L1', 'a', 1)] } }, /mapping\.rows\.1\.quantity/],
      [{ ...base, mapping: { rows: [energy, row('U', 'L1', 'a..b', 1)] } }, /mapping\.rows\.1\.path/],
      [{ ...base, mapping: { rows: [energy, row('U', 'L1', 'u', 0)] } }, /mapping\.rows\.1\.scale/],
      [{ ...base, mapping: { rows: [energy, row('U', 'total', 'u', 1)] } }, /mapping\.rows\.1\.phase/],
      [{ ...base, mapping: { rows: [row('U', 'L1', 'u', 1)] } }, /E_I/],
      [
        {
          ...base,
          mapping: { rows: Array.from({ length: 65 }, (_v, i) => row('E_I', 'total', `e${i}`, 1)) },
        },
        /at most 64/,
      ],
      [{ ...base, mapping: { rows: [energy], timePath: 't' } }, /timeFormat: required/],
      [{ ...base, mapping: { rows: [energy], timePath: 't', timeFormat: 'days' } }, /timeFormat/],
      [{ ...base, family: 'p1', mapping: { rows: [energy] } }, /mapping: only for the json family/],
      [{ ...base, mapping: { rows: 'all' } }, /rows/],
      [{ ...base, mapping: { rows: [{ ...energy, scale: '1000' }] } }, /scale/],
    ];
    for (const [body, message] of refused) {
      const r = await register(body);
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json<{ message: string }>().message).toMatch(message);
    }
    // A JSON topic held by another meter.
    const twin = await register({ ...base, topic: SDM.topic, mapping: { rows: [energy] } });
    expect(twin.statusCode).toBe(409);
    expect(await snapshot(t.services)).toEqual(before);
  });

  it('lands the gateway’s JSON in the history: energy equals the register difference', async () => {
    const c = await connect(sdm);
    await c.publishAsync(`json/${SDM.topic}`, poll(T0, 1000.5, 20), { qos: 1 });
    await c.publishAsync(`json/${SDM.topic}`, poll(T1, 1001.25, 20.125), { qos: 1 });
    await until(async () => {
      await runtime.link!.ingest.flush();
      return (await energyWh(SDM.mac)) === 750;
    }, 10_000).catch(() => undefined);
    expect(await energyWh(SDM.mac)).toBe(750);
    expect(await energyWh(SDM.mac, 'E_E')).toBe(125);
    const u = await profile(SDM.mac, 'U');
    expect(u.statusCode, u.body).toBe(200);
    const series = u.json<{ data: { U: Record<string, [number, number][]> } }>().data.U;
    expect(series.L1![0]).toEqual([(T0 - (T0 % 60)) * 1000, 231.2]);
    expect(series.L3![0]![1]).toBe(230.5);
    // The preset maps no harmonic distortion: absent, not a line of zeros.
    const thd = await profile(SDM.mac, 'DF_U');
    expect(thd.json()).toMatchObject({ status: 'ERROR', code: 610 });
  });

  it('counts a payload of the wrong type as refused and stores nothing of it', async () => {
    const before = await rejects('adapter_schema');
    const c = clients[0]!;
    const bad = JSON.parse(poll(T1 + 30, 5000, 20.125)) as Record<string, unknown>;
    bad.VoltageL1 = 'high';
    await c.publishAsync(`json/${SDM.topic}`, JSON.stringify(bad), { qos: 1 });
    await until(async () => (await rejects('adapter_schema')) === before + 1, 5000);
    await runtime.link!.ingest.flush();
    expect(await energyWh(SDM.mac)).toBe(750);
  });

  it('edits the mapping: refused ones change nothing, a good one takes hold', async () => {
    const edited: JsonMapping = {
      rows: [
        { quantity: 'U', phase: 'L1', path: 'data.voltage[0]', scale: 1 },
        { quantity: 'E_I', phase: 'total', path: 'data.energy', scale: 1 },
      ],
      timePath: 'ts',
      timeFormat: 'unix_s',
    };
    const before = await snapshot(t.services);
    expect((await edit(SDM.mac, { rows: [] })).statusCode).toBe(400);
    expect(
      (await edit(SDM.mac, { rows: [{ quantity: 'U', phase: 'L1', path: '', scale: 1 }] })).statusCode,
    ).toBe(400);
    expect((await edit('02-4D-50-00-80-0F', edited)).statusCode).toBe(404);
    expect((await edit(SDM.mac, edited, alice)).json()).toMatchObject({ code: 602 });
    expect(await snapshot(t.services)).toEqual(before);
    const portal = await register({ family: 'portal', mac: '02-4D-50-00-80-03', title: 'Main', type: 4 });
    expect(portal.statusCode).toBe(200);
    expect((await edit('02-4D-50-00-80-03', edited)).json()).toMatchObject({
      message: expect.stringMatching(/only for the json family/) as string,
    });

    const r = await edit(SDM.mac.toLowerCase(), edited);
    expect(r.statusCode, r.body).toBe(200);
    expect((await list()).find((d) => d.mac === SDM.mac)?.mapping).toEqual(edited);
    // Active power is no longer mapped, so the history no longer answers it.
    expect((await profile(SDM.mac, 'P')).json()).toMatchObject({ code: 610 });
    // The adapter reads the new mapping once its held copy is older than its refresh time.
    t.clock.set((T1 + 60) * 1000);
    const c = clients[0]!;
    await c.publishAsync(
      `json/${SDM.topic}`,
      JSON.stringify({ ts: T1 + 60, data: { voltage: [233], energy: 1001500 } }),
      {
        qos: 1,
      },
    );
    await until(async () => {
      await runtime.link!.ingest.flush();
      return (await energyWh(SDM.mac)) === 1000;
    }, 10_000).catch(() => undefined);
    expect(await energyWh(SDM.mac)).toBe(1000);
  });

  it('lets a JSON meter publish on no other meter’s topic', async () => {
    const other = await register({
      family: 'json',
      mac: OTHER.mac,
      title: 'Garage',
      type: 4,
      topic: OTHER.topic,
      mapping: SDM630_PRESET,
    });
    expect(other.statusCode, other.body).toBe(200);
    const c = await connect(sdm);
    let closed = false;
    c.on('close', () => (closed = true));
    c.publish(`json/${OTHER.topic}`, poll(T1 + 90, 50, 1), { qos: 1 });
    await until(() => closed, 5000);
    await runtime.link!.ingest.flush();
    expect(await energyWh(OTHER.mac)).toBeNull();
  });
});
