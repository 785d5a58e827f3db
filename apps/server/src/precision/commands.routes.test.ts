import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevice, type SimDevice } from '@meterportal/simulator';
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
import { startRuntime, type Runtime } from '../runtime';

const PRECISION = '02-4D-50-00-00-03';
const AWAY = '02-4D-50-00-00-13';
const BREAKER = '02-4D-50-00-00-02';

describe.each(DIALECTS)('device commands over the embedded broker on $name', (dialect) => {
  let t: TestApp;
  let runtime: Runtime;
  let alice: Client;
  const sims: SimDevice[] = [];
  const tok = (mac: string) => alice.devices.find((d) => d.mac === mac)!.token;

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      env: { DEMO: 'false', ROLES: 'read,write,ingest' },
      commandTimeoutMs: 1500,
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
    const id = await addUser(t.services, 'alice', 'alice-secret');
    for (const [mac, type] of [
      [PRECISION, 3],
      [AWAY, 3],
      [BREAKER, 2],
    ] as const) {
      const deviceId = await addDevice(t.services, mac, type);
      await assign(t.services, id, deviceId, true);
      if (mac === AWAY) continue;
      const creds = await runtime.link!.credentials.issue(deviceId, mac);
      sims.push(
        startDevice({
          brokerUrl: `mqtt://127.0.0.1:${runtime.mqttPort}`,
          mac,
          type,
          ...creds,
          outages: false,
        }),
      );
    }
    alice = await quickSession(t.services, id);
    // Wait until both simulated devices are connected and answering.
    for (let i = 0; i < 100; i++) {
      const r = await call(
        t.app,
        'POST',
        '/api/read/applied-precision/harmonics',
        { device_token: tok(PRECISION) },
        alice,
      );
      if (r.statusCode === 200) break;
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop()));
    await runtime.stop();
    await t.close();
  });

  it('answers harmonics from the device: six series, order 1 at 100 %', async () => {
    const r = await call(
      t.app,
      'POST',
      '/api/read/applied-precision/harmonics',
      { device_token: tok(PRECISION) },
      alice,
    );
    expect(r.statusCode).toBe(200);
    const data = r.json().data;
    for (const q of ['U', 'I']) for (const p of ['L1', 'L2', 'L3']) expect(data[q][p].values[0]).toBe(100);
    expect(data.U.L1.values.length).toBeGreaterThan(20);
  });

  it('answers a waveform with voltage and current samples per phase', async () => {
    const r = await call(
      t.app,
      'POST',
      '/api/read/applied-precision/waveform',
      { device_token: tok(PRECISION) },
      alice,
    );
    const data = r.json().data;
    expect(data.sampleRateHz).toBeGreaterThan(0);
    const peak = Math.max(...(data.U.L1.values as number[]));
    expect(peak).toBeGreaterThan(300);
    expect(peak).toBeLessThan(350);
  });

  it('answers 604 when the device does not answer in time', async () => {
    const r = await call(
      t.app,
      'POST',
      '/api/read/applied-precision/waveform',
      { device_token: tok(AWAY) },
      alice,
    );
    expect(r.statusCode).toBe(504);
    expect(r.json()).toMatchObject({ status: 'ERROR', code: 604 });
  });

  it('leaves nothing waiting when the client gives up on a harmonics request', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const ac = new AbortController();
    const pending = fetch(`${address}/api/read/applied-precision/harmonics`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `mp_session=${alice.cookie}` },
      body: JSON.stringify({ device_token: tok(AWAY) }),
      signal: ac.signal,
    }).catch(() => 'aborted');
    await expect.poll(() => runtime.link!.commands.pending(), { timeout: 10_000 }).toBe(1);
    ac.abort();
    expect(await pending).toBe('aborted');
    await expect.poll(() => runtime.link!.commands.pending(), { timeout: 10_000 }).toBe(0);
  });

  it('refuses harmonics for a device that is not a precision analyzer', async () => {
    const r = await call(
      t.app,
      'POST',
      '/api/read/applied-precision/harmonics',
      { device_token: tok(BREAKER) },
      alice,
    );
    expect(r.statusCode).toBe(400);
  });

  it('switches the relay of a disconnector and reports the new state', async () => {
    const r = await call(
      t.app,
      'POST',
      '/api/write/devices/relay',
      { token: tok(BREAKER), state: 'OPEN' },
      alice,
    );
    expect(r.json()).toEqual({ status: 'OK', data: { state: 'OPEN' } });
    const back = await call(
      t.app,
      'POST',
      '/api/write/devices/relay',
      { token: tok(BREAKER), state: 'CLOSED' },
      alice,
    );
    expect(back.json().data.state).toBe('CLOSED');
  });
});
