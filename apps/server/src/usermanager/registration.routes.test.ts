// Registering meters from the user manager's calls: a Shelly registered over HTTP connects with
// the issued settings through the embedded broker, its published payloads (real Shelly Pro 3EM
// status objects) show in the history and live reads; duplicates and bad input are refused with
// nothing changed; a rotated password and a revoked device are refused by the broker.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceConnectionSettings, RegisteredDevice } from '@meterportal/protocol';
import type { TelemetryDB } from '../db/schema.telemetry';
import { startRuntime, type Runtime } from '../runtime';
import { until } from '../telemetry/testing';
import { SESSION_COOKIE } from '../http/session';
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
const SHELLY = { mac: 'A8-03-2A-BE-54-DC', prefix: 'shellypro3em-board' };
/** Real Shelly Pro 3EM payloads, kept with the decoders' tests. */
const FIXTURES = path.join(import.meta.dirname, '../adapters/fixtures/shelly');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

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

describe.each(DIALECTS)('registering devices from the user manager on $name', (dialect) => {
  let t: TestApp;
  let runtime: Runtime;
  let boss: Client;
  let alice: Client;
  let aliceId: number;
  let shelly: DeviceConnectionSettings;
  /** The Shelly's open connection, made with the secret it holds now. */
  let shellyLink: MqttClient;
  const clients: MqttClient[] = [];

  const register = (body: object, who: Client = boss) =>
    call(t.app, 'POST', WRITE, { user_token: who.token, ...body }, who);
  const list = async () =>
    (await call(t.app, 'POST', READ, { user_token: boss.token }, boss)).json<{ data: RegisteredDevice[] }>()
      .data;
  const devices = () => t.services.database.db.selectFrom('devices').selectAll().orderBy('mac').execute();
  /** Connects as the settings say (host as the request named it). */
  const connect = async (s: DeviceConnectionSettings, password = s.password) => {
    const c = await mqtt.connectAsync(`mqtt://${s.host}:${s.port}`, {
      username: s.username,
      password,
      clientId: s.clientId,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    clients.push(c);
    return c;
  };
  const brokerRefuses = async (s: DeviceConnectionSettings, password: string) => {
    await expect(connect(s, password)).rejects.toThrow(/Bad username or password|Not authorized|refused/i);
  };

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { TZ: 'Europe/Bratislava' } });
    t.clock.set(Date.now());
    const bossId = await addUser(t.services, 'boss', 'boss-secret', 'USER_MANAGER');
    aliceId = await addUser(t.services, 'alice', 'alice-secret');
    runtime = await startRuntime(t.services, { logger: quiet, mqttPort: 0 });
    boss = await quickSession(t.services, bossId);
    alice = await quickSession(t.services, aliceId);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await runtime.stop();
    await t.close();
  });

  it('registers a Shelly owned by another user and answers the settings to enter on it once', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: WRITE,
      headers: { host: '127.0.0.1:8080' },
      cookies: { [SESSION_COOKIE]: boss.cookie },
      payload: {
        user_token: boss.token,
        family: 'shelly',
        mac: SHELLY.mac.toLowerCase(),
        title: 'Board',
        type: 4,
        topic: SHELLY.prefix,
        owner: 'alice',
      },
    });
    expect(r.statusCode, r.body).toBe(200);
    shelly = r.json<{ data: DeviceConnectionSettings }>().data;
    expect(shelly).toEqual({
      mac: SHELLY.mac,
      family: 'shelly',
      topic: SHELLY.prefix,
      host: '127.0.0.1',
      port: runtime.mqttPort,
      clientId: `meter-${SHELLY.mac}`,
      username: SHELLY.mac,
      password: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) as string,
      publishTopic: `${SHELLY.prefix}/`,
      command: null,
    });
    // The secret is never listed; the device is, with its family and topic.
    expect(await list()).toEqual([
      {
        mac: SHELLY.mac,
        title: 'Board',
        type: 4,
        family: 'shelly',
        topic: SHELLY.prefix,
        tz: null,
        credentials: true,
        online: false,
      },
    ]);
    const owners = await t.services.database.db
      .selectFrom('assignments')
      .innerJoin('users', 'users.id', 'assignments.user_id')
      .select(['login', 'owner'])
      .orderBy('login')
      .execute();
    expect(owners).toEqual([
      { login: 'alice', owner: 1 },
      { login: 'boss', owner: 1 },
    ]);
  });

  it('answers a Tasmota console line and a P1 bridge topic', async () => {
    const tasmota = await register({
      family: 'tasmota',
      mac: '02-4D-50-00-60-02',
      title: 'Kettle',
      type: 5,
      topic: 'plug-kitchen',
      tz: 'Europe/Berlin',
    });
    expect(tasmota.statusCode, tasmota.body).toBe(200);
    const s = tasmota.json<{ data: DeviceConnectionSettings }>().data;
    expect(s.command).toBe(
      `Backlog MqttHost ${s.host}; MqttPort ${s.port}; MqttUser 02-4D-50-00-60-02; MqttPassword ${s.password}; MqttClient meter-02-4D-50-00-60-02; Topic plug-kitchen; FullTopic %prefix%/%topic%/; TelePeriod 10`,
    );
    const p1 = await register({
      family: 'p1',
      mac: '02-4D-50-00-60-03',
      title: 'House',
      type: 1,
      topic: 'house',
    });
    expect(p1.json<{ data: DeviceConnectionSettings }>().data).toMatchObject({
      publishTopic: 'p1/house',
      command: null,
    });
    const portal = await register({ family: 'portal', mac: '02-4D-50-00-60-04', title: 'Main', type: 4 });
    expect(portal.json<{ data: DeviceConnectionSettings }>().data).toMatchObject({
      topic: null,
      publishTopic: 'meters/02-4D-50-00-60-04/',
    });
    expect((await list()).find((d) => d.mac === '02-4D-50-00-60-02')).toMatchObject({
      family: 'tasmota',
      topic: 'plug-kitchen',
      tz: 'Europe/Berlin',
    });
  });

  it('refuses duplicates and bad identifiers, topics, zones and owners, changing nothing', async () => {
    const before = await snapshot(t.services);
    const refused: [object, number, RegExp][] = [
      [
        { family: 'shelly', mac: SHELLY.mac, title: 'Again', type: 4, topic: 'other' },
        409,
        /already registered/,
      ],
      [
        { family: 'shelly', mac: '02-4D-50-00-60-09', title: 'Twin', type: 4, topic: SHELLY.prefix },
        409,
        /already the shelly topic of A8-03-2A-BE-54-DC/,
      ],
      [
        { family: 'shelly', mac: 'not a mac', title: 'x', type: 4, topic: 'ok' },
        400,
        /mac: not a device mac/,
      ],
      [
        { family: 'shelly', mac: '02-4D-50-00-60-09', title: 'x', type: 4, topic: 'a/b' },
        400,
        /topic: one topic level/,
      ],
      [
        { family: 'shelly', mac: '02-4D-50-00-60-09', title: 'x', type: 4, topic: 'tele' },
        400,
        /topic: "tele" is taken/,
      ],
      [
        { family: 'shelly', mac: '02-4D-50-00-60-09', title: 'x', type: 4 },
        400,
        /topic: required for the shelly family/,
      ],
      [
        { family: 'tasmota', mac: '02-4D-50-00-60-09', title: 'x', type: 5, topic: 't', tz: 'Mars/Olympus' },
        400,
        /tz: not a time zone/,
      ],
      [
        { family: 'p1', mac: '02-4D-50-00-60-09', title: '', type: 9, topic: 'p' },
        400,
        /type: type must be 1 to 6.*title/,
      ],
      [
        { family: 'p1', mac: '02-4D-50-00-60-09', title: 'x', type: 1, topic: 'p', owner: 'nobody' },
        400,
        /owner: no such user/,
      ],
      [{ family: 'json', mac: '02-4D-50-00-60-09', title: 'x', type: 1 }, 400, /family/],
      [{ family: 'p1', mac: 5, title: 'x', type: 1 }, 400, /mac/],
    ];
    for (const [body, status, message] of refused) {
      const r = await register(body);
      expect(r.statusCode, r.body).toBe(status);
      expect(r.json<{ status: string; message: string }>()).toMatchObject({
        status: 'ERROR',
        message: expect.stringMatching(message) as string,
      });
    }
    expect(await snapshot(t.services)).toEqual(before);
  });

  it('denies every call to a user without the user manager right, whether the device exists or not', async () => {
    const before = await snapshot(t.services);
    const answers = [
      await call(t.app, 'POST', READ, { user_token: alice.token }, alice),
      await register({ family: 'p1', mac: '02-4D-50-00-60-08', title: 'x', type: 1, topic: 'q' }, alice),
      await call(t.app, 'PUT', WRITE, { user_token: alice.token, mac: SHELLY.mac }, alice),
      await call(t.app, 'PUT', WRITE, { user_token: alice.token, mac: '02-4D-50-00-60-0F' }, alice),
      await call(t.app, 'DELETE', WRITE, { user_token: alice.token, mac: SHELLY.mac }, alice),
      await call(t.app, 'DELETE', WRITE, { user_token: alice.token, mac: '02-4D-50-00-60-0F' }, alice),
    ];
    for (const r of answers)
      expect(r.json()).toEqual({ status: 'ERROR', code: 602, message: 'User manager right required' });
    expect(await snapshot(t.services)).toEqual(before);
    // A manager is told a device is missing.
    const missing = await call(
      t.app,
      'PUT',
      WRITE,
      { user_token: boss.token, mac: '02-4D-50-00-60-0F' },
      boss,
    );
    expect(missing.statusCode).toBe(404);
  });

  it('takes the Shelly publishing real payloads with the issued settings: online, history and live', async () => {
    const live: unknown[] = [];
    const stop = t.services.live.bus.subscribe(SHELLY.mac, (e) => {
      if (e.kind === 'data' && e.topic === 'Data') live.push(e.payload);
    });
    const c = await connect(shelly);
    shellyLink = c;
    const deviceId = (await devices()).find((d) => d.mac === SHELLY.mac)!.id;
    await c.publishAsync(`${SHELLY.prefix}/online`, 'true', { qos: 1, retain: true });
    await until(async () => (await list()).find((d) => d.mac === SHELLY.mac)!.online);

    const now = Math.floor(Date.now() / 1000);
    t.clock.set((now - 120) * 1000);
    await c.publishAsync(
      `${SHELLY.prefix}/status/emdata:0`,
      fixture('pro3em_triphase_fw1.7.5_emdata0.json'),
      {
        qos: 1,
      },
    );
    await c.publishAsync(`${SHELLY.prefix}/status/em:0`, fixture('pro3em_triphase_fw1.7.5_em0.json'), {
      qos: 1,
    });
    t.clock.set((now - 60) * 1000);
    await c.publishAsync(
      `${SHELLY.prefix}/status/emdata:0`,
      fixture('pro3em_triphase_fw1.6.2_emdata0.json'),
      {
        qos: 1,
      },
    );
    await c.publishAsync(`${SHELLY.prefix}/status/em:0`, fixture('pro3em_triphase_fw1.6.2_em0.json'), {
      qos: 1,
    });
    t.clock.set(now * 1000);
    await runtime.link!.ingest.flush();

    // The owner reads its history: L3's voltage of the first status object (232.7 V).
    const owner = await quickSession(t.services, aliceId);
    const token = owner.devices.find((d) => d.mac === SHELLY.mac)!.token;
    let profile: Record<string, [number, number][]> = {};
    await until(async () => {
      await runtime.link!.ingest.flush();
      const r = await call(
        t.app,
        'POST',
        '/api/read/profile',
        { token, data: 'U', phase: 'L1,L2,L3', from: now - 600, to: now + 60 },
        owner,
      );
      if (r.statusCode !== 200) return false;
      profile = r.json<{ data: { U: Record<string, [number, number][]> } }>().data.U;
      return (profile.L3 ?? []).length > 0;
    }, 10_000);
    expect(profile.L3![0]![1]).toBe(232.7);
    const state = await t.services.database.db
      .withTables<TelemetryDB>()
      .selectFrom('device_states')
      .select('status')
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    expect(state?.status).toBe(1);
    // The live stream carried the device's frames as well.
    await until(() => live.length > 0, 5000);
    stop();
  });

  it('rotates: the broker ends the old connection, refuses the old password and takes the new one', async () => {
    expect(shellyLink.connected).toBe(true);
    const r = await call(t.app, 'PUT', WRITE, { user_token: boss.token, mac: SHELLY.mac }, boss);
    expect(r.statusCode, r.body).toBe(200);
    const rotated = r.json<{ data: DeviceConnectionSettings }>().data;
    expect(rotated.password).not.toBe(shelly.password);
    expect(rotated.port).toBe(runtime.mqttPort);
    await until(() => !shellyLink.connected, 5000);
    await brokerRefuses(rotated, shelly.password);
    shellyLink = await connect(rotated);
    shelly = rotated;
  });

  it('revokes: the device can no longer connect, its data and owners stay', async () => {
    const minutes = async () =>
      (
        await t.services.database.db
          .withTables<TelemetryDB>()
          .selectFrom('telemetry_minutes')
          .select((e) => e.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const stored = Number(await minutes());
    expect(stored).toBeGreaterThan(0);
    expect(shellyLink.connected).toBe(true);
    const r = await call(t.app, 'DELETE', WRITE, { user_token: boss.token, mac: SHELLY.mac }, boss);
    expect(r.statusCode, r.body).toBe(200);
    await until(() => !shellyLink.connected, 5000);
    await brokerRefuses(shelly, shelly.password);
    expect(Number(await minutes())).toBe(stored);
    expect((await list()).find((d) => d.mac === SHELLY.mac)).toMatchObject({ credentials: false });
    const owner = await quickSession(t.services, aliceId);
    expect(owner.devices.map((d) => d.mac)).toContain(SHELLY.mac);
  });

  it("answers a user manager's hostile registration bodies without a server error, changing nothing on 4xx", async () => {
    const text = fc.oneof(
      fc.constantFrom(
        '',
        '\u0000',
        'tele',
        'a/b',
        '#',
        '+',
        'shellypro3em-board',
        SHELLY.mac,
        'Mars/Olympus',
      ),
      fc.constantFrom('Europe/Berlin', 'alice', 'x'.repeat(300), '02-4D-50-00-70-01', 'p1', '../x'),
      fc.string({ maxLength: 30 }),
    );
    const anything = fc.oneof(
      text,
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(text),
    );
    const body = fc.record(
      {
        family: fc.oneof(fc.constantFrom('portal', 'shelly', 'tasmota', 'p1', 'json'), anything),
        mac: anything,
        title: anything,
        type: fc.oneof(fc.integer({ min: -1, max: 8 }), anything),
        topic: anything,
        tz: anything,
        owner: anything,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('POST', 'PUT', 'DELETE' as const), body, async (method, b) => {
        const before = await snapshot(t.services);
        const r = await call(t.app, method, WRITE, { user_token: boss.token, ...b }, boss);
        expect(r.statusCode, r.body).toBeLessThan(500);
        if (r.statusCode >= 400) {
          expect(r.json()).toMatchObject({ status: 'ERROR' });
          expect(await snapshot(t.services)).toEqual(before);
        }
      }),
      { numRuns: 150, seed: 20261125 },
    );
  }, 120_000);
});
