// Shelly, Tasmota and P1 meters end to end through real MQTT: registered by the device command's
// provisioning, connecting with the issued credentials, publishing their own payloads, and read
// back through the portal's history routes. Once with the embedded broker, once with Mosquitto
// (dynamic security plugin keeping the accounts), on every database.
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meterClientId } from '@meterportal/protocol';
import { startDeviceLink, type DeviceLink } from '../broker/device-link';
import type { TelemetryDB } from '../db/schema.telemetry';
import { createDeviceCredentials } from '../broker/credentials';
import { connectBrokerAccounts, type BrokerAccounts } from '../broker/dynsec';
import { DYNSEC_PLUGIN, startPrivateMosquitto, type PrivateMosquitto } from '../broker/private-mosquitto';
import { deviceProvisioning, type IssuedCredentials } from '../devices/provisioning';
import { wallTime } from '../history/calendar';
import { memoryLogger, until } from '../telemetry/testing';
import { backendAvailable } from '../test/backends';
import {
  DIALECTS,
  addUser,
  call,
  createTestApp,
  quickSession,
  type Client,
  type DialectCase,
  type TestApp,
} from '../test/harness';
import { familyDevicesRepository } from './family-devices.repository';
import { p1Telegram, shellyEm, shellyEmData, tasmotaSensor } from './testing';

const TZ = 'Europe/Bratislava';
const SHELLY = { mac: 'A8-03-2A-BE-54-DC', prefix: 'shellypro3em-a8032abe54dc' };
const TASMOTA = { mac: '02-4D-50-00-30-02', topic: 'plug-kitchen' };
const P1 = { mac: '02-4D-50-00-30-03', topic: 'house' };

/** Whether tsSec falls in summer time in tz (offset above the zone's winter offset). */
function summerAt(tsSec: number): boolean {
  const w = wallTime(tsSec, TZ);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) / 1000 - tsSec === 7200;
}

interface Rig {
  t: TestApp;
  link: DeviceLink;
  url: string;
  /** The user manager who owns the registered meters. */
  bossId: number;
  issued: Map<string, IssuedCredentials>;
}

/** The scenario every broker must carry, run against one rig. */
function familyScenario(rig: () => Rig, broker: 'embedded' | 'mosquitto') {
  let client: Client;
  const issued = new Map<string, IssuedCredentials>();
  const clients: MqttClient[] = [];
  // Two readings in one quarter hour half an hour ago: inside the device clock's tolerance.
  const quarter = Math.floor(Date.now() / 1000 / 900) * 900 - 1800;
  const T0 = quarter + 65;
  const T1 = quarter + 600;

  const connect = async (mac: string, will?: IClientOptions['will'], clientId = meterClientId(mac)) => {
    const c = await mqtt.connectAsync(rig().url, {
      username: mac,
      password: issued.get(mac)!.password,
      clientId,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      ...(will ? { will } : {}),
    });
    clients.push(c);
    return c;
  };
  const at = (sec: number) => rig().t.clock.set(sec * 1000);
  const deviceId = async (mac: string) =>
    (
      await rig()
        .t.services.database.db.selectFrom('devices')
        .select('id')
        .where('mac', '=', mac)
        .executeTakeFirstOrThrow()
    ).id;
  const statusOf = async (mac: string) =>
    (
      await rig()
        .t.services.database.db.withTables<TelemetryDB>()
        .selectFrom('device_states')
        .select('status')
        .where('device_id', '=', await deviceId(mac))
        .executeTakeFirst()
    )?.status;
  const tokenOf = (mac: string) => client.devices.find((d) => d.mac === mac)!.token;
  /** Energy of the device in the readings' hour, Wh; null while none is stored. */
  const energyWh = async (mac: string) => {
    const r = await call(
      rig().t.app,
      'POST',
      '/api/read/energy',
      { token: tokenOf(mac), data: 'E_I', period: '15MIN', from: quarter - 3600, to: quarter + 3600 },
      client,
    );
    if (r.statusCode === 404) return null;
    expect(r.statusCode, r.body).toBe(200);
    const series = r.json<{ data: { E_I: { CUM: [number, number][] } } }>().data.E_I.CUM;
    return Math.round(series.reduce((a, [, kwh]) => a + kwh, 0) * 1000);
  };
  const profileRequest = (mac: string, data: string) =>
    call(
      rig().t.app,
      'POST',
      '/api/read/profile',
      { token: tokenOf(mac), data, phase: 'L1,L2,L3', from: quarter, to: quarter + 900 },
      client,
    );
  const profile = async (mac: string, data: string) => {
    const r = await profileRequest(mac, data);
    expect(r.statusCode, r.body).toBe(200);
    return r.json<{ data: Record<string, Record<string, [number, number][]>> }>().data[data]!;
  };
  /** Waits until the stored energy is this many Wh (an external broker delivers later). */
  const energyReaches = async (mac: string, wh: number) => {
    await until(async () => {
      await rig().link.ingest.flush();
      return (await energyWh(mac)) === wh;
    }, 5000).catch(() => undefined);
    expect(await energyWh(mac)).toBe(wh);
  };
  const liveFrames = async () =>
    (await rig().link.metrics.messages.get()).values.find((v) => v.labels.kind === 'live')?.value ?? 0;
  /** Publishes and waits until the portal has taken the live frame it makes. */
  const publishFrame = async (c: MqttClient, topic: string, payload: string | Buffer) => {
    const before = await liveFrames();
    await c.publishAsync(topic, payload, { qos: 1 });
    await until(async () => (await liveFrames()) > before, 5000);
  };
  const rejects = async (reason: string) =>
    (await rig().link.metrics.rejects.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;

  beforeAll(async () => {
    const { t, issued: all } = rig();
    for (const [mac, credentials] of all) issued.set(mac, credentials);
    at(T1);
    client = await quickSession(t.services, rig().bossId);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
  });

  it('takes a Shelly Pro 3EM: its online state, its phases, energy from its own registers', async () => {
    const c = await connect(SHELLY.mac, {
      topic: `${SHELLY.prefix}/online`,
      payload: Buffer.from('false'),
      qos: 1,
      retain: true,
    });
    await c.publishAsync(`${SHELLY.prefix}/online`, 'true', { qos: 1, retain: true });
    at(T0);
    await c.publishAsync(`${SHELLY.prefix}/status/emdata:0`, shellyEmData([1000.25, 2000, 3000.5]), {
      qos: 1,
    });
    await publishFrame(c, `${SHELLY.prefix}/status/em:0`, shellyEm([100, 200, 300]));
    at(T1);
    await publishFrame(c, `${SHELLY.prefix}/status/emdata:0`, shellyEmData([1250.25, 2100.75, 3000.5]));
    await until(async () => (await statusOf(SHELLY.mac)) === 1);
    // Whole watt-hours per phase: 250 + 100 + 0.
    await energyReaches(SHELLY.mac, 350);
    const u = await profile(SHELLY.mac, 'U');
    expect(u.L1![0]).toEqual([(T0 - (T0 % 60)) * 1000, 230.1]);
    expect(u.L3![0]![1]).toBe(229.3);
    // Reactive power and distortion are not among a Shelly's status: absent, not zero.
    for (const data of ['Q', 'DF_U'])
      expect((await profileRequest(SHELLY.mac, data)).json()).toMatchObject({ status: 'ERROR', code: 610 });
  });

  it('takes a Tasmota plug: LWT, its local time, energy from Total', async () => {
    const c = await connect(TASMOTA.mac, {
      topic: `tele/${TASMOTA.topic}/LWT`,
      payload: Buffer.from('Offline'),
      qos: 1,
      retain: true,
    });
    await c.publishAsync(`tele/${TASMOTA.topic}/LWT`, 'Online', { qos: 1, retain: true });
    await c.publishAsync(`tele/${TASMOTA.topic}/SENSOR`, tasmotaSensor(T0, TZ, 100, 1500), { qos: 1 });
    await c.publishAsync(`tele/${TASMOTA.topic}/SENSOR`, tasmotaSensor(T1, TZ, 100.75, 1400), { qos: 1 });
    await until(async () => (await statusOf(TASMOTA.mac)) === 1);
    await energyReaches(TASMOTA.mac, 750);
    const p = await profile(TASMOTA.mac, 'P');
    // Read in the installation's zone, the device's local Time lands in the right minute.
    expect(p.L1![0]).toEqual([(T0 - (T0 % 60)) * 1000, 1500]);
    await c.publishAsync(`tele/${TASMOTA.topic}/LWT`, 'Offline', { qos: 1, retain: true });
    await until(async () => (await statusOf(TASMOTA.mac)) === 0);
  });

  it('takes a P1 meter: tariff registers summed, CRC checked, a bad telegram counted and not stored', async () => {
    const c = await connect(P1.mac);
    const topic = `p1/${P1.topic}`;
    const reading = (t1Kwh: number, t2Kwh: number) => ({
      t1Kwh,
      t2Kwh,
      exportKwh: 1,
      powerKw: 0.5,
      voltageV: 232.4,
    });
    await c.publishAsync(topic, p1Telegram(T0, TZ, summerAt(T0), reading(500, 300)), { qos: 1 });
    await c.publishAsync(topic, p1Telegram(T1, TZ, summerAt(T1), reading(500.4, 300.1)), { qos: 1 });
    await energyReaches(P1.mac, 500);

    const before = await rejects('adapter_crc');
    const spoilt = p1Telegram(T1 + 10, TZ, summerAt(T1), reading(900, 900));
    spoilt[spoilt.indexOf('900.000')] = '8'.charCodeAt(0);
    await c.publishAsync(topic, spoilt, { qos: 1 });
    await until(async () => (await rejects('adapter_crc')) === before + 1);
    await rig().link.ingest.flush();
    expect(await energyWh(P1.mac)).toBe(500);

    // A P1 bridge has no online topic: its telegrams hold it online, five silent minutes do not.
    expect(await statusOf(P1.mac)).toBe(1);
    const stored = familyDevicesRepository(rig().t.services.database);
    expect(await stored.onlineOf(['p1', 'json'])).toEqual([P1.mac]);
    try {
      at(T1 + 301);
      expect(rig().link.familyIngest.checkPresence()).toBe(1);
      await rig().link.ingest.flush();
      expect(await statusOf(P1.mac)).toBe(0);
      expect(await stored.onlineOf(['p1', 'json'])).toEqual([]);
    } finally {
      at(T1);
    }
  });

  it('names what a P1 meter reports, and stores and answers what it lacks as absent', async () => {
    // The device list the web loads tells the family and its quantities: no frequency or factor.
    const entry = (await rig().t.services.devices.deviceList(rig().bossId)).find((d) => d.mac === P1.mac)!;
    expect(entry).toMatchObject({ family: 'p1', quantities: ['U', 'I', 'P', 'E_I', 'E_E'] });
    expect(client.devices.find((d) => d.mac === SHELLY.mac)?.quantities).toContain('F');
    // The minute of the first telegram: the single-phase voltage on L1, null where it has none.
    const minute = await rig()
      .t.services.database.db.withTables<TelemetryDB>()
      .selectFrom('telemetry_minutes')
      .select(['u_l1_avg', 'u_l2_avg', 'u_l3_min', 'f_avg', 'f_max', 'pf_l1_avg', 'q_l1_avg'])
      .where('device_id', '=', await deviceId(P1.mac))
      .where('ts_sec', '=', T0 - (T0 % 60))
      .executeTakeFirstOrThrow();
    expect(minute).toEqual({
      u_l1_avg: 232.4,
      u_l2_avg: null,
      u_l3_min: null,
      f_avg: null,
      f_max: null,
      pf_l1_avg: null,
      q_l1_avg: null,
    });
    // The profile answers null on the phases it lacks; the average is its one phase, not a third.
    const u = await profile(P1.mac, 'U');
    expect(u.L1![0]).toEqual([(T0 - (T0 % 60)) * 1000, 232.4]);
    expect(u.L2!.every(([, v]) => v === null)).toBe(true);
    expect(u.L3!.every(([, v]) => v === null)).toBe(true);
    expect(u.cumulative).toEqual(u.L1);
    // Frequency is not one of its quantities: the answer has no series of it.
    const f = await profileRequest(P1.mac, 'F');
    expect(f.body).not.toContain('"F"');
  });

  it('lets no device publish on, or connect as, another device', async () => {
    const before = await energyWh(TASMOTA.mac);
    const shelly = await connect(SHELLY.mac);
    let closed = false;
    shelly.on('close', () => (closed = true));
    // A Shelly's credentials publishing as the Tasmota plug, then as a meter of the portal protocol.
    // The embedded broker closes a connection that publishes outside its topics; Mosquitto drops
    // the message without telling an MQTT 3.1.1 client. Either way no acknowledgement comes.
    shelly.publish(`tele/${TASMOTA.topic}/SENSOR`, tasmotaSensor(T1 + 30, TZ, 100.76, 1200), { qos: 1 });
    shelly.publish(`tele/${TASMOTA.topic}/LWT`, 'Online', { qos: 1 });
    await new Promise((r) => setTimeout(r, 300));
    await rig().link.ingest.flush();
    expect(await energyWh(TASMOTA.mac)).toBe(before);
    expect(await statusOf(TASMOTA.mac)).toBe(0);
    expect(closed).toBe(broker === 'embedded');
    // Its credentials under the plug's client id do not connect.
    await expect(connect(SHELLY.mac, undefined, meterClientId(TASMOTA.mac))).rejects.toThrow();
  });
}

/** The portal with the three family meters registered, then its device link started. */
async function startRig(dialect: DialectCase, mqttUrl?: string, accounts?: BrokerAccounts): Promise<Rig> {
  const t = await createTestApp(dialect, { env: { TZ } });
  t.clock.set(Date.now());
  const bossId = await addUser(t.services, 'boss', 'boss-secret', 'USER_MANAGER');
  const provisioning = deviceProvisioning({
    database: t.services.database,
    credentials: createDeviceCredentials({ database: t.services.database, clock: t.clock }),
    clock: t.clock,
    ...(accounts ? { brokerAccounts: accounts } : {}),
  });
  const issued = new Map<string, IssuedCredentials>();
  for (const [mac, r] of [
    [SHELLY.mac, { family: 'shelly', topic: SHELLY.prefix, type: 4, title: 'Board' }],
    [TASMOTA.mac, { family: 'tasmota', topic: TASMOTA.topic, type: 5, title: 'Kettle' }],
    [P1.mac, { family: 'p1', topic: P1.topic, type: 1, title: 'House' }],
  ] as const)
    issued.set(mac, await provisioning.register({ mac, ...r }));
  const link = await startDeviceLink({
    database: t.services.database,
    logger: memoryLogger(),
    clock: t.clock,
    mqttPort: 0,
    flushIntervalMs: 50,
    tz: TZ,
    ...(mqttUrl ? { mqttUrl, mqttClientId: `portal-${Math.random().toString(16).slice(2)}` } : {}),
  });
  const url = mqttUrl ? mqttUrl.replace(/\/\/[^@]*@/, '//') : `mqtt://127.0.0.1:${link.embeddedPort}`;
  return { t, link, url, bossId, issued };
}

async function stopRig(r: Rig | undefined): Promise<void> {
  await r?.link.close();
  await r?.t.close();
}

describe.each(DIALECTS)('Shelly, Tasmota and P1 meters through the embedded broker on $name', (dialect) => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(dialect);
  });
  afterAll(() => stopRig(rig));
  familyScenario(() => rig, 'embedded');
});

describe.runIf(backendAvailable('family meters through Mosquitto', 'TEST_MQTT_URL'))(
  'Shelly, Tasmota and P1 meters through Mosquitto with dynamic security',
  () => {
    let broker: PrivateMosquitto;
    let adminUrl: string;
    let accounts: BrokerAccounts;

    beforeAll(async () => {
      expect(DYNSEC_PLUGIN, 'the Mosquitto installation has its dynamic security plugin').toBeDefined();
      broker = await startPrivateMosquitto(['max_inflight_messages 0']);
      adminUrl = broker.adminUrl;
      accounts = await connectBrokerAccounts(adminUrl);
      // The portal's own account: it reads every device topic and writes its own.
      const control = await mqtt.connectAsync(adminUrl, { reconnectPeriod: 0 });
      const acl = (acltype: string) => ({ acltype, topic: '#', allow: true });
      await control.subscribeAsync('$CONTROL/dynamic-security/v1/response');
      const answered = new Promise((r) => control.once('message', r));
      await control.publishAsync(
        '$CONTROL/dynamic-security/v1',
        JSON.stringify({
          commands: [
            {
              command: 'createRole',
              rolename: 'portal',
              acls: ['publishClientSend', 'publishClientReceive', 'subscribePattern'].map(acl),
            },
            {
              command: 'createClient',
              username: 'portal',
              password: 'portal-secret',
              roles: [{ rolename: 'portal' }],
            },
          ],
        }),
      );
      await answered;
      await control.endAsync();
    });
    afterAll(async () => {
      await accounts?.close();
      broker?.stop();
    });

    describe.each(DIALECTS)('on $name', (dialect) => {
      let rig: Rig;
      beforeAll(async () => {
        rig = await startRig(
          dialect,
          adminUrl.replace('admin:admin-secret', 'portal:portal-secret'),
          accounts,
        );
      });
      afterAll(() => stopRig(rig));
      familyScenario(() => rig, 'mosquitto');
    });
  },
);
