// A meter whose clock is wrong has its frames refused; its users see how far the clock is off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMeterModel, createRegisters, meterProfile } from '@meterportal/simulator';
import { deviceTopic, encodePayload, type LiveFrame } from '@meterportal/protocol';
import { DEFAULT_TZ } from '../config/config';
import { CLOCK_AHEAD_TOLERANCE_SEC, createIngest } from '../telemetry/ingest';
import { createTelemetryMetrics } from '../telemetry/metrics';
import { createTelemetryRepository } from '../telemetry/telemetry.repository';
import { memoryLogger } from '../telemetry/testing';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  call,
  createTestApp,
  signIn,
  snapshot,
  type Client,
  type TestApp,
} from '../test/harness';

const SKEWED = '02-4D-50-00-00-21';
const RIGHT = '02-4D-50-00-00-22';
const enc = (x: unknown) => new TextEncoder().encode(encodePayload(x));

function frames(mac: string, count: number, startSec: number): LiveFrame[] {
  const model = createMeterModel(meterProfile(1, mac));
  const regs = createRegisters(3);
  return Array.from({ length: count }, (_, i) => {
    const s = model.sample(startSec + i);
    regs.integrate(s, 1);
    return { ts: startSec + i, ...s, ...regs.read() };
  });
}

describe.each(DIALECTS)('device clock on $name', (dialect) => {
  let t: TestApp;
  let alice: Client;
  let bob: Client;
  const tokenOf = (c: Client, mac: string) => c.devices.find((d) => d.mac === mac)!.token;
  const clockOf = (c: Client, token: string) => call(t.app, 'POST', '/api/read/devices/clock', { token }, c);
  const ingestInto = () =>
    createIngest({
      repository: createTelemetryRepository(t.services.database, { tz: DEFAULT_TZ }),
      logger: memoryLogger(),
      clock: t.clock,
      metrics: createTelemetryMetrics(),
    });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const aliceId = await addUser(t.services, 'alice', 'alice-secret');
    const bobId = await addUser(t.services, 'bob', 'bob-secret');
    const skewed = await addDevice(t.services, SKEWED, 1, 'Skewed');
    const right = await addDevice(t.services, RIGHT, 1, 'Right');
    await assign(t.services, aliceId, skewed, true);
    await assign(t.services, aliceId, right, true);
    await assign(t.services, bobId, right, true);
    alice = await signIn(t.app, 'alice', 'alice-secret');
    bob = await signIn(t.app, 'bob', 'bob-secret');
  });
  afterAll(() => t.close());

  it('reports how far ahead a meter clock is once its frames are refused, and null again once a frame is right', async () => {
    const nowSec = Math.floor(t.clock.nowMs() / 1000);
    const token = tokenOf(alice, SKEWED);
    expect((await clockOf(alice, token)).json()).toEqual({ status: 'OK', data: { skewSec: null } });

    const ingest = ingestInto();
    const aheadSec = 5 * 60;
    for (const f of frames(SKEWED, 3, nowSec + aheadSec)) ingest.handle(deviceTopic(SKEWED, 'live'), enc(f));
    await ingest.settled();
    await ingest.flush();
    const r = await clockOf(alice, token);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: 'OK', data: { skewSec: aheadSec } });
    // The other meter of the same user is untouched.
    expect((await clockOf(alice, tokenOf(alice, RIGHT))).json().data).toEqual({ skewSec: null });

    // A frame within the tolerance clears the mark.
    const [ok] = frames(SKEWED, 1, nowSec + CLOCK_AHEAD_TOLERANCE_SEC - 1);
    ingest.handle(deviceTopic(SKEWED, 'live'), enc(ok));
    await ingest.settled();
    await ingest.flush();
    expect((await clockOf(alice, token)).json().data).toEqual({ skewSec: null });
    await ingest.close();
  });

  it('reports a clock far behind as a negative error', async () => {
    const nowSec = Math.floor(t.clock.nowMs() / 1000);
    const ingest = ingestInto();
    const [old] = frames(SKEWED, 1, nowSec - 40 * 86400);
    ingest.handle(deviceTopic(SKEWED, 'live'), enc(old));
    await ingest.settled();
    await ingest.flush();
    expect((await clockOf(alice, tokenOf(alice, SKEWED))).json().data).toEqual({ skewSec: -40 * 86400 });
    await ingest.close();
  });

  it('answers a user without the meter like a missing device, and anonymous callers with 601, changing nothing', async () => {
    const before = await snapshot(t.services);
    // Bob holds a valid token of his own device only; the skewed meter's token is Alice's.
    const foreign = await clockOf(bob, tokenOf(alice, SKEWED));
    const forged = await clockOf(bob, 'MDItNEQtNTAtMDAtMDAtMjE.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA|32535215940');
    expect(foreign.statusCode).toBe(404);
    expect(forged.statusCode).toBe(404);
    expect(foreign.json()).toEqual(forged.json());
    expect(JSON.stringify(foreign.json())).not.toContain('skewSec');
    const anonymous = await call(t.app, 'POST', '/api/read/devices/clock', { token: tokenOf(alice, SKEWED) });
    expect(anonymous.json().code).toBe(601);
    expect(await snapshot(t.services)).toEqual(before);
  });
});
