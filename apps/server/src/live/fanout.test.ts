import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { startDevice, type SimDevice } from '@meterportal/simulator';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  createTestApp,
  quickSession,
  type Client,
  type TestApp,
} from '../test/harness';
import { startRuntime, type Runtime } from '../runtime';
import { brokerLiveBus } from './brokerBus';
import { SESSION_COOKIE } from '../http/session';
import { backendAvailable } from '../test/backends';

const pg = DIALECTS.find((d) => d.name === 'postgres');
const mqttUrl = process.env.TEST_MQTT_URL;
const ready =
  backendAvailable('two-instance fan-out', 'TEST_DATABASE_URL', 'TEST_MQTT_URL') && pg !== undefined;

const quiet = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
  fatal: () => undefined,
  trace: () => undefined,
  silent: () => undefined,
  level: 'silent',
  child: () => quiet,
} as never;

describe.runIf(ready)('two instances behind one broker and one PostgreSQL', () => {
  const mac = `02-4D-FA-${crypto.randomBytes(3).toString('hex').toUpperCase().match(/../g)!.join('-')}`;
  let a: TestApp;
  let b: TestApp;
  let runtime: Runtime;
  let sim: SimDevice;
  let client: Client;

  beforeAll(async () => {
    a = await createTestApp(pg!, {
      env: {
        MQTT_URL: mqttUrl,
        ROLES: 'read,write,ws,ingest',
        DEMO: 'false',
        MQTT_CLIENT_ID: `fanout-${mac}`,
      },
    });
    a.clock.set(Date.now());
    runtime = await startRuntime(a.services, { logger: quiet });
    const bus = await brokerLiveBus(mqttUrl!, quiet);
    b = await createTestApp(pg!, {
      env: { MQTT_URL: mqttUrl, ROLES: 'read,ws', DEMO: 'false' },
      sharePgSchemaOf: a,
      bus,
    });
    b.clock.set(Date.now());
    const userId = await addUser(a.services, 'alice', 'alice-secret');
    const deviceId = await addDevice(a.services, mac, 3, 'Shared analyzer');
    await assign(a.services, userId, deviceId, true);
    client = await quickSession(a.services, userId);
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    sim = startDevice({
      brokerUrl: mqttUrl!,
      mac,
      type: 3,
      username: mac,
      password: 'unused-on-open-broker',
      outages: false,
    });
    await sim.connected;
  }, 60_000);
  afterAll(async () => {
    await sim.stop();
    await runtime.stop();
    await b.services.live.bus.close();
    await b.close();
    await a.close();
  });

  function frames(app: TestApp, count: number): Promise<number[]> {
    const port = (app.app.server.address() as AddressInfo).port;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, {
      headers: { cookie: `${SESSION_COOKIE}=${client.cookie}` },
    });
    const seen: number[] = [];
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${seen.length} frames`)), 15_000);
      ws.on('open', () => ws.send(JSON.stringify({ deviceToken: client.devices[0]!.token, data: true })));
      ws.on('message', (raw: Buffer) => {
        const m = JSON.parse(raw.toString()) as {
          topic?: string;
          mac?: string;
          data?: { ts: number };
          status: string;
        };
        if (m.status === 'ERROR') reject(new Error(raw.toString()));
        if (m.topic === 'Data' && m.mac === mac) seen.push(m.data!.ts);
        if (seen.length >= count) {
          clearTimeout(timer);
          ws.close();
          resolve(seen);
        }
      });
    });
  }

  it("delivers the same device's frames to browsers on either instance", async () => {
    const [onA, onB] = await Promise.all([frames(a, 4), frames(b, 4)]);
    const common = onA.filter((ts) => onB.includes(ts));
    expect(common.length).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it('both instances answer the same session and device token', async () => {
    for (const app of [a, b]) {
      const r = await app.app.inject({
        method: 'POST',
        url: '/api/read/auth/local',
        payload: { token: client.token },
        cookies: { [SESSION_COOKIE]: client.cookie },
      });
      expect(r.json().data[0].mac).toBe(mac);
    }
  });
});
