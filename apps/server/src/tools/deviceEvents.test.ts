// Device events from a meter through the embedded broker to notifications: their time is seconds
// on the wire and milliseconds everywhere after, and a flood becomes a burst plus one summary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { deviceTopic, meterClientId } from '@meterportal/protocol';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  call,
  createTestApp,
  quickSession,
  type Client,
  type TestApp,
} from '../test/harness';
import { startWebexStandIn, type WebexStandIn } from '../test/webexStandIn';
import { startRuntime, type Runtime } from '../runtime';
import { until } from '../telemetry/testing';
import { DEFAULT_EVENT_LIMITS } from './eventLimiter';

const HOUSE = '02-4D-50-00-00-51';
const OTHER = '02-4D-50-00-00-52';
const TS_SEC = 1_763_000_000; // 2025-11-13T02:13:20Z

describe.each(DIALECTS)('device events becoming notifications on $name', (dialect) => {
  let t: TestApp;
  let webex: WebexStandIn;
  let runtime: Runtime;
  let alice: Client;
  let houseId: number;
  let meter: MqttClient;
  let houseCreds: { username: string; password: string };

  beforeAll(async () => {
    webex = await startWebexStandIn([{ id: 'room-ops', title: 'Operations' }]);
    t = await createTestApp(dialect, {
      env: {
        DEMO: 'false',
        ROLES: 'read,write,ingest',
        WEBEX_BASE_URL: webex.baseUrl,
        WEBEX_BOT_TOKEN: webex.token,
      },
    });
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
    runtime = await startRuntime(t.services, { logger: quiet, mqttPort: 0 });
    const aliceId = await addUser(t.services, 'alice', 'alice-secret');
    houseId = await addDevice(t.services, HOUSE, 1, 'House');
    await assign(t.services, aliceId, houseId, true);
    alice = await quickSession(t.services, aliceId);
    const token = alice.devices.find((d) => d.mac === HOUSE)!.token;
    const pair = (body: object) =>
      call(
        t.app,
        'POST',
        '/api/write/tools/notifications/pair',
        { user_token: alice.token, device_token: token, ...body },
        alice,
      );
    expect((await pair({ notifyTypeID: 2, notifyDestID: 2, webex_space: 'room-ops' })).statusCode).toBe(200);
    expect((await pair({ notifyTypeID: 1, notifyDestID: 1 })).statusCode).toBe(200);
    houseCreds = await runtime.link!.credentials.issue(houseId, HOUSE);
    meter = await mqtt.connectAsync(`mqtt://127.0.0.1:${runtime.mqttPort}`, {
      ...houseCreds,
      clientId: meterClientId(HOUSE),
      reconnectPeriod: 0,
    });
  }, 60_000);
  afterAll(async () => {
    await meter.endAsync(true);
    await runtime.stop();
    await t.close();
    await webex.close();
  });

  const rows = () => t.services.repos.notifications.latest(houseId, 1000);
  const event = (type: 'NILM' | 'STATUS', data: object) =>
    meter.publishAsync(
      deviceTopic(HOUSE, 'event'),
      JSON.stringify({ type, data: { timestamp: TS_SEC, ...data } }),
      { qos: 1 },
    );
  const suppressed = async () =>
    (await t.services.metrics.getSingleMetric('device_events_suppressed_total')?.get())?.values[0]?.value ??
    0;

  it('stores a device event time in milliseconds and shows its date in the Webex text', async () => {
    await event('NILM', {
      event: 'ON',
      name: 'Kettle',
      phase: 'L1',
      prediction_rate: 97,
      runtime: 0,
      energy_consumption_wh: 0,
    });
    await until(() => webex.messages.length === 1);
    expect(webex.messages[0]!.markdown).toBe(
      '**House** (02-4D-50-00-00-51) NILM: ON Kettle L1, 0.0 Wh 2025-11-13T02:13:20.000Z',
    );
    const stored = await rows();
    expect(stored).toHaveLength(1);
    expect(JSON.parse(stored[0]!.data)).toMatchObject({ timestamp: TS_SEC * 1000, name: 'Kettle' });
    // The browser reads the same milliseconds under the same key.
    const latest = await call(
      t.app,
      'POST',
      '/api/read/notifications',
      { device_token: alice.devices[0]!.token, limit: 1 },
      alice,
    );
    expect(latest.json().data[0].data.timestamp).toBe(TS_SEC * 1000);
  });

  it('lets a burst of events through, then holds the flood back and summarizes it once', async () => {
    const flood = 500;
    const before = (await rows()).length;
    await Promise.all(
      Array.from({ length: flood }, (_, i) => event('STATUS', { event: 'REBOOT', message: `boot ${i}` })),
    );
    // The clock stands still, so after the burst (one token went to the first test) nothing refills.
    const admitted = DEFAULT_EVENT_LIMITS.burst - before;
    await until(async () => (await suppressed()) === flood - admitted);
    await until(async () => (await rows()).length === before + admitted);
    await new Promise((r) => setTimeout(r, 300));
    expect(await rows()).toHaveLength(before + admitted);

    // When the window has passed, one summary says how many were held back, and only one.
    t.clock.advance(DEFAULT_EVENT_LIMITS.summaryWindowMs);
    await until(async () => (await rows()).length === before + admitted + 1);
    await new Promise((r) => setTimeout(r, 2500));
    const all = await rows();
    expect(all).toHaveLength(before + admitted + 1);
    const summary = JSON.parse(all[0]!.data) as { timestamp: number; event: string; message: string };
    expect(summary).toEqual({
      timestamp: t.clock.nowMs(),
      event: 'EVENTS_SUPPRESSED',
      message: `${flood - admitted} events suppressed`,
    });

    // The bucket refills at its steady rate: one event per refill period since the flood.
    t.clock.advance(DEFAULT_EVENT_LIMITS.refillMs);
    const earned =
      (DEFAULT_EVENT_LIMITS.summaryWindowMs + DEFAULT_EVENT_LIMITS.refillMs) / DEFAULT_EVENT_LIMITS.refillMs;
    for (let i = 0; i <= earned; i += 1)
      await event('STATUS', { event: 'REBOOT', message: `after the flood ${i}` });
    await until(async () => (await suppressed()) === flood - admitted + 1);
    await until(async () => (await rows()).length === before + admitted + 1 + earned);
  });

  it("makes no STATUS notification for a meter whose client id another meter's credentials try to take", async () => {
    const otherId = await addDevice(t.services, OTHER, 1, 'Garage');
    const url = `mqtt://127.0.0.1:${runtime.mqttPort}`;
    const other = await mqtt.connectAsync(url, {
      ...(await runtime.link!.credentials.issue(otherId, OTHER)),
      clientId: meterClientId(OTHER),
      reconnectPeriod: 0,
      will: {
        topic: deviceTopic(OTHER, 'state'),
        payload: Buffer.from('{"status":"OFFLINE"}'),
        qos: 1,
        retain: true,
      },
    });
    await other.publishAsync(deviceTopic(OTHER, 'state'), '{"status":"ONLINE","ts":1763000000}', { qos: 1 });
    for (let i = 0; i < 5; i += 1) {
      await expect(
        mqtt.connectAsync(url, { ...houseCreds, clientId: meterClientId(OTHER), reconnectPeriod: 0 }),
      ).rejects.toThrow();
    }
    await new Promise((r) => setTimeout(r, 1000));
    expect(other.connected).toBe(true);
    expect(await t.services.repos.notifications.latest(otherId, 100)).toEqual([]);
    // Its own lost link is reported, once.
    other.stream.destroy();
    await until(async () => (await t.services.repos.notifications.latest(otherId, 100)).length === 1);
    const [offline] = await t.services.repos.notifications.latest(otherId, 100);
    expect(JSON.parse(offline!.data)).toMatchObject({ event: 'OFFLINE' });
    expect(meter.connected).toBe(true);
  });
});
