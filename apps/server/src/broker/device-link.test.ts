import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { startDevice, type SimDevice } from '@meterportal/simulator';
import { deviceTopic, encodePayload, type DeviceMessage, type LiveFrame } from '@meterportal/protocol';
import type { TelemetryDB } from '../db/schema.telemetry';
import { insertDevice, memoryLogger, openTestDatabase, until } from '../telemetry/testing';
import { startDeviceLink, type DeviceLink } from './device-link';
import { DeviceNotRespondingError } from './commands';
import { DIALECTS } from '../test/dialects';

const MAC_A = 'EM-70-B3-D5-01-00-0A';
const MAC_B = 'EM-70-B3-D5-02-00-0B';
const MAC_P = 'EM-70-B3-D5-03-00-0C';

describe.each(DIALECTS)('device link with the embedded broker on $name', ({ name: dialect }) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let link: DeviceLink;
  let url: string;
  const sims: SimDevice[] = [];
  const creds = new Map<string, { username: string; password: string }>();
  const firstFrame = new Map<string, LiveFrame>();
  const lastFrame = new Map<string, LiveFrame>();
  const messages: DeviceMessage[] = [];
  const db = () => database.db.withTables<TelemetryDB>();

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    for (const [mac, type] of [
      [MAC_A, 1],
      [MAC_B, 2],
      [MAC_P, 3],
    ] as const)
      await insertDevice(database, mac, type);
    firstFrame.clear();
    messages.length = 0;
    lastFrame.clear();
    link = await startDeviceLink({
      database,
      logger: memoryLogger(),
      clock: { nowMs: () => Date.now() },
      mqttPort: 0,
      flushIntervalMs: 100,
      commandTimeoutMs: 1500,
      onMessage: (m) => messages.push(m),
      onLive: (mac, _id, f) => {
        if (!firstFrame.has(mac)) firstFrame.set(mac, f);
        lastFrame.set(mac, f);
      },
    });
    expect(link.embeddedPort).not.toBe(1883);
    url = `mqtt://127.0.0.1:${link.embeddedPort}`;
    for (const mac of [MAC_A, MAC_B, MAC_P]) {
      const id = (
        await database.db.selectFrom('devices').select('id').where('mac', '=', mac).executeTakeFirstOrThrow()
      ).id;
      creds.set(mac, await link.credentials.issue(id, mac));
    }
  });

  afterEach(async () => {
    await Promise.all(sims.splice(0).map((s) => s.stop()));
    await link.close();
    await database.dispose();
  });

  const sim = async (mac: string, type: 1 | 2 | 3, speed = 30) => {
    const c = creds.get(mac)!;
    // Faster than real time from an hour ago, as a meter sending its buffer: its stamps stay in the past.
    const d = startDevice({
      brokerUrl: url,
      mac,
      type,
      ...c,
      speed,
      outages: false,
      nowMs: () => Date.now() - 3_600_000,
    });
    sims.push(d);
    await d.connected;
    return d;
  };

  it('stores what simulated meters send: minutes, quarter energy equal to their registers, state', async () => {
    const a = await sim(MAC_A, 1, 60);
    await sim(MAC_B, 2, 60);
    await until(
      async () =>
        (await db().selectFrom('telemetry_minutes').select('ts_sec').where('samples', '=', 60).execute())
          .length >= 2,
    );
    await until(() => (lastFrame.get(MAC_A)?.ts ?? 0) > (firstFrame.get(MAC_A)?.ts ?? 0) + 150);
    await a.stop();
    await link.ingest.flush();
    const idA = (
      await database.db.selectFrom('devices').select('id').where('mac', '=', MAC_A).executeTakeFirstOrThrow()
    ).id;
    const q = await db()
      .selectFrom('energy_quarters')
      .select(['e_i_wh', 'q1_l1_varh', 'q4_l1_varh'])
      .where('device_id', '=', idA)
      .execute();
    const f0 = firstFrame.get(MAC_A)!;
    const f1 = lastFrame.get(MAC_A)!;
    const imp = (f: LiveFrame) => f.E_I.L1 + f.E_I.L2 + f.E_I.L3;
    expect(q.reduce((s, r) => s + Number(r.e_i_wh), 0)).toBe(imp(f1) - imp(f0));
    expect(q.reduce((s, r) => s + Number(r.q1_l1_varh) + Number(r.q4_l1_varh), 0)).toBe(
      f1.Q1.L1 + f1.Q4.L1 - f0.Q1.L1 - f0.Q4.L1,
    );
    const changes = await db()
      .selectFrom('device_status_changes')
      .select(['device_id', 'status'])
      .where('device_id', '=', idA)
      .orderBy('id')
      .execute();
    expect(changes.map((c) => c.status)).toEqual([1, 0]);
    const m = await db().selectFrom('telemetry_minutes').selectAll().where('device_id', '=', idA).execute();
    // A minute merged from two parts averages in floating point: allow one part in 10^9.
    const eps = 1e-9 * 230;
    const bad = m.filter(
      (r) =>
        !(
          r.u_l1_min !== null &&
          r.u_l1_avg !== null &&
          r.u_l1_max !== null &&
          r.f_avg !== null &&
          r.u_l1_min - eps <= r.u_l1_avg &&
          r.u_l1_avg <= r.u_l1_max + eps &&
          r.f_avg > 49.9 &&
          r.f_avg < 50.1
        ),
    );
    expect(bad).toEqual([]);
  });

  it('records a power cut as offline and back online, and counts the energy after it', async () => {
    const startSec = Math.floor(Date.now() / 1000) - 3600;
    const cut = { fromSec: startSec + 15, toSec: startSec + 45 };
    // Faster than real time from an hour ago, as a meter sending its buffer: its stamps stay in the past.
    const d = startDevice({
      brokerUrl: url,
      mac: MAC_A,
      type: 1,
      ...creds.get(MAC_A)!,
      speed: 20,
      nowMs: () => Date.now() - 3_600_000,
      outageSchedule: () => cut,
    });
    sims.push(d);
    await d.connected;
    const idA = (
      await database.db.selectFrom('devices').select('id').where('mac', '=', MAC_A).executeTakeFirstOrThrow()
    ).id;
    const statuses = async () =>
      (
        await db()
          .selectFrom('device_status_changes')
          .select('status')
          .where('device_id', '=', idA)
          .orderBy('id')
          .execute()
      ).map((r) => r.status);
    await until(async () => (await statuses()).length >= 3);
    expect(await statuses()).toEqual([1, 0, 1]);
    await until(() => (lastFrame.get(MAC_A)?.ts ?? 0) > cut.toSec + 5);
    const f0 = firstFrame.get(MAC_A)!;
    const f1 = lastFrame.get(MAC_A)!;
    await d.stop();
    await link.ingest.flush();
    // No frames during the cut, and registers stood still: the energy is still exact.
    expect(f0.ts).toBeLessThan(cut.fromSec);
    const q = await db()
      .selectFrom('energy_quarters')
      .select('e_i_l1_wh')
      .where('device_id', '=', idA)
      .execute();
    expect(q.reduce((s, r) => s + Number(r.e_i_l1_wh), 0)).toBe(f1.E_I.L1 - f0.E_I.L1);
  });

  it('answers commands through the broker, and 604 when the device is away', async () => {
    await sim(MAC_B, 2);
    await sim(MAC_P, 3);
    const h = await link.commands.send(MAC_P, { cmd: 'HARMONICS' });
    expect(h).toMatchObject({ ok: true, cmd: 'HARMONICS' });
    if (h.ok && h.cmd === 'HARMONICS') expect(h.result.U.L1.values[0]).toBe(100);
    const upload = await link.commands.send(MAC_P, { cmd: 'METERS_UPLOAD' });
    expect(upload.ok && upload.cmd === 'METERS_UPLOAD' && upload.result.meters.length).toBeGreaterThan(0);
    expect(await link.commands.send(MAC_B, { cmd: 'RELAY', state: 'OPEN' })).toMatchObject({
      ok: true,
      result: { state: 'OPEN' },
    });
    await until(() =>
      messages.some(
        (m) => m.kind === 'event' && m.payload.type === 'DISCONNECTOR' && m.payload.data.event === 'OPEN',
      ),
    );
    expect(await link.commands.send(MAC_P, { cmd: 'RELAY', state: 'OPEN' })).toMatchObject({
      ok: false,
      error: 'NOT_SUPPORTED',
    });
    const up = await link.commands.send(MAC_P, { cmd: 'FIRMWARE_UPGRADE', fw: '3.2.0' });
    expect(up).toMatchObject({ ok: true });
    await until(
      async () =>
        (await db().selectFrom('device_states').select('fw').where('fw', '=', '3.2.0').execute()).length ===
        1,
    );
    await until(() => messages.some((m) => m.kind === 'upgrade' && m.payload.state === 'DONE'));
    const steps = messages.flatMap((m) => (m.kind === 'upgrade' ? [m.payload.state] : []));
    expect(steps.slice(0, 2)).toEqual(['STARTING', 'UPGRADING']);
    expect(steps).toContain('REBOOTING');
    await expect(link.commands.send(MAC_A, { cmd: 'WAVEFORM' })).rejects.toBeInstanceOf(
      DeviceNotRespondingError,
    );
  });

  it('lands a frame published with the device credentials and drops one on another device topic', async () => {
    const a = creds.get(MAC_A)!;
    const client = await mqtt.connectAsync(url, { ...a, clientId: `meter-${MAC_A}`, reconnectPeriod: 0 });
    await sim(MAC_B, 2, 1); // a running meter gives a real frame to copy
    await until(() => lastFrame.has(MAC_B));
    const tsSec = Math.floor(Date.now() / 1000) - 600; // a time no meter of this test has reached
    const good = { ...lastFrame.get(MAC_B)!, ts: tsSec };
    await client.publishAsync(deviceTopic(MAC_A, 'live'), encodePayload(good), { qos: 1 });
    // Device A's credentials on device B's topic: the broker refuses and drops the link.
    let dropped = false;
    client.once('close', () => (dropped = true));
    // The refused publish is never acknowledged, so it is not awaited.
    client.publish(deviceTopic(MAC_B, 'live'), encodePayload({ ...good, ts: tsSec + 500 }), { qos: 1 });
    await until(() => lastFrame.get(MAC_A)?.ts === tsSec);
    await new Promise((r) => setTimeout(r, 300));
    await link.ingest.flush();
    const cursors = await db()
      .selectFrom('telemetry_cursors')
      .innerJoin('devices', 'devices.id', 'telemetry_cursors.device_id')
      .select(['mac', 'ts_sec'])
      .execute();
    expect(Number(cursors.find((c) => c.mac === MAC_A)?.ts_sec)).toBe(tsSec);
    expect(Number(cursors.find((c) => c.mac === MAC_B)?.ts_sec)).not.toBe(tsSec + 500);
    await until(() => dropped); // the broker itself refuses it (the ingest check is a second line)
    await client.endAsync(true);

    // Subscribing to another device's commands is refused.
    const c2 = await mqtt.connectAsync(url, { ...a, clientId: `meter-${MAC_A}`, reconnectPeriod: 0 });
    await expect(c2.subscribeAsync(deviceTopic(MAC_B, 'cmd/req'), { qos: 1 })).rejects.toThrow(
      /Subscribe error/,
    );
    await expect(c2.subscribeAsync(deviceTopic(MAC_A, 'cmd/req'), { qos: 1 })).resolves.toHaveLength(1);
    await c2.endAsync();

    // A wrong password or a secret of another device does not log in.
    await expect(
      mqtt.connectAsync(url, { username: MAC_A, password: 'x'.repeat(43), reconnectPeriod: 0 }),
    ).rejects.toThrow();
    await expect(
      mqtt.connectAsync(url, { username: MAC_A, password: creds.get(MAC_P)!.password, reconnectPeriod: 0 }),
    ).rejects.toThrow();
  });
});
