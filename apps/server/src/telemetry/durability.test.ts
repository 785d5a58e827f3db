// Kill the ingest server (SIGKILL) at chosen points of a known QoS 1 stream, through the embedded
// broker and through Mosquitto, restart it, and check that every frame is stored exactly once:
// each minute row holds as many samples as the meter sent frames in that minute, and the
// quarter-hour energy adds up to the register difference between the first and the last frame.
// Then cut the store's connections and the broker link during ingest: nothing is lost, ingest
// resumes by itself, and the outage shows in the metrics.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { createMeterModel, createRegisters, meterProfile } from '@meterportal/simulator';
import { deviceTopic, encodePayload, type LiveFrame } from '@meterportal/protocol';
import { dropPgSchema, openDatabase, type Database } from '../db/database';
import { migrateToLatest } from '../db/migrations/index';
import type { TelemetryDB } from '../db/schema.telemetry';
import { createDeviceCredentials } from '../broker/credentials';
import { insertDevice, until } from './testing';
import { DIALECTS } from '../test/dialects';

const MQTT_URL = process.env.TEST_MQTT_URL;
if (!MQTT_URL) {
  // CI provides Mosquitto; there a missing broker is a failure, not a quiet skip.
  if (process.env.CI)
    throw new Error('TEST_MQTT_URL is not set: the durability test through Mosquitto does not run');
  console.warn('\n!!! TEST_MQTT_URL is not set: the durability test through Mosquitto does not run\n');
}
const CHILD = path.join(import.meta.dirname, 'durability.child.ts');
const BROKERS: readonly ('embedded' | 'mosquitto')[] = MQTT_URL ? ['embedded', 'mosquitto'] : ['embedded'];
const CASES = DIALECTS.flatMap((d) => BROKERS.map((b) => [d.name, b] as const));

/** A known sequence: one frame a second from `start`. */
function sequence(mac: string, start: number, count: number): LiveFrame[] {
  const model = createMeterModel(meterProfile(4, mac));
  const regs = createRegisters(11);
  return Array.from({ length: count }, (_, i) => {
    const s = model.sample(start + i);
    regs.integrate(s, 1);
    return { ts: start + i, ...s, ...regs.read() };
  });
}

/**
 * A free port below the kernel's ephemeral range (32768 and up), where the ports that other test
 * processes and outgoing connections are handed never land: the restarted server must get the
 * same port back after each kill.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const srv = net.createServer();
    const free = await new Promise<boolean>((r) => {
      srv.once('error', () => r(false));
      srv.listen(port, '0.0.0.0', () => r(true));
    });
    if (free) {
      await new Promise((r) => srv.close(r));
      return port;
    }
  }
}

/** A TCP relay to Mosquitto whose connections the test can cut, as a network failure would. */
async function relay(target: URL): Promise<{ url: string; cut(): void; close(): Promise<void> }> {
  const pairs = new Set<net.Socket>();
  const server = net.createServer((down) => {
    const up = net.connect(Number(target.port || 1883), target.hostname);
    down.pipe(up).pipe(down);
    const end = () => {
      down.destroy();
      up.destroy();
      pairs.delete(down);
    };
    down.on('error', end).on('close', end);
    up.on('error', end).on('close', end);
    pairs.add(down);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    cut: () => {
      for (const s of pairs) s.destroy();
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe.each(CASES)('ingest durability on %s through the %s broker', (dialect, broker) => {
  const run = randomBytes(2).toString('hex').toUpperCase();
  const mac = `EM-70-B3-D5-04-${run.slice(0, 2)}-${run.slice(2)}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dur-'));
  const schema = `dur_${run.toLowerCase()}_${Date.now() % 100000}`;
  const appName = `meterportal-dur-${run}`;
  const ingestClientId = `dur-ingest-${run}-${dialect}`;
  const pgUrl = process.env.TEST_DATABASE_URL;
  // On a whole minute two hours ago: old enough to be a backlog, recent enough to be plausible.
  const start = Math.floor(Date.now() / 60_000) * 60 - 7200;
  let database: Database;
  let link: Awaited<ReturnType<typeof relay>> | null = null;
  let childEnv: NodeJS.ProcessEnv;
  let brokerUrl: string;
  let password = 'x';

  beforeAll(async () => {
    database =
      dialect === 'postgres'
        ? await openDatabase({ url: pgUrl, pgSchema: schema, poolSize: 2 })
        : await openDatabase({ sqliteFile: path.join(dir, 'portal.db') });
    await migrateToLatest(database);
    const id = await insertDevice(database, mac, 4);
    const store =
      dialect === 'postgres'
        ? {
            DUR_PG_URL: `${pgUrl}${pgUrl!.includes('?') ? '&' : '?'}application_name=${appName}`,
            DUR_PG_SCHEMA: schema,
          }
        : { DUR_SQLITE: path.join(dir, 'portal.db') };
    if (broker === 'embedded') {
      password = (
        await createDeviceCredentials({ database, clock: { nowMs: () => Date.now() } }).issue(id, mac)
      ).password;
      const port = await freePort();
      brokerUrl = `mqtt://127.0.0.1:${port}`;
      childEnv = { ...process.env, ...store, DUR_EMBEDDED_PORT: String(port) };
    } else {
      link = await relay(new URL(MQTT_URL!));
      brokerUrl = MQTT_URL!;
      childEnv = { ...process.env, ...store, DUR_MQTT_URL: link.url, DUR_CLIENT_ID: ingestClientId };
    }
  });
  // A test that fails half-way leaves its server running; the next one needs the same port.
  const running = new Set<ChildProcess>();
  afterEach(async () => {
    await Promise.all([...running].map((c) => kill(c, 'SIGKILL')));
  });
  afterAll(async () => {
    if (broker === 'mosquitto') {
      // Drop the persistent session so the shared broker does not queue for it forever.
      await (await mqtt.connectAsync(MQTT_URL!, { clientId: ingestClientId, clean: true })).endAsync();
      await link?.close();
    }
    await database.close();
    if (dialect === 'postgres') await dropPgSchema(pgUrl!, schema);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const startChild = async (): Promise<ChildProcess> => {
    // node itself with the tsx loader, not the tsx wrapper: SIGKILL must hit the ingest process.
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: childEnv,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    running.add(child);
    child.once('exit', () => running.delete(child));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (b: Buffer) => b.toString().includes('ready') && resolve());
      child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
    });
    return child;
  };
  const kill = async (child: ChildProcess, signal: NodeJS.Signals) => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  };
  const metricsOf = async (child: ChildProcess): Promise<Map<string, number>> => {
    const line = new Promise<string>((resolve) => {
      let buf = '';
      const on = (b: Buffer) => {
        buf += b.toString();
        const m = /^metrics (.*)$/m.exec(buf);
        if (m) {
          child.stdout!.off('data', on);
          resolve(m[1]!);
        }
      };
      child.stdout!.on('data', on);
    });
    child.kill('SIGUSR2');
    const out = new Map<string, number>();
    for (const metric of JSON.parse(await line) as {
      name: string;
      values: { value: number; labels: Record<string, string> }[];
    }[]) {
      for (const v of metric.values) {
        const key = Object.keys(v.labels).length
          ? `${metric.name}{${Object.values(v.labels).join(',')}}`
          : metric.name;
        out.set(key, (out.get(key) ?? 0) + v.value);
      }
    }
    return out;
  };

  // The meter: a QoS 1 publisher that keeps what the broker has not acknowledged and sends it
  // again when it reconnects, as the devices' MQTT client does.
  const meter = async () => {
    const acked = new Set<number>();
    const client: MqttClient = await mqtt.connectAsync(brokerUrl, {
      clientId: `meter-${mac}`,
      username: mac,
      password,
      clean: false,
      reconnectPeriod: 200,
    });
    client.on('error', () => undefined);
    const send = (f: LiveFrame) =>
      client.publish(deviceTopic(mac, 'live'), encodePayload(f), { qos: 1 }, (err) => {
        if (!err) acked.add(f.ts);
      });
    return { acked, send, close: () => client.endAsync() };
  };

  it('stores every acknowledged frame exactly once across SIGKILLs mid-minute, after a minute closes and during commits', async () => {
    const frames = sequence(mac, start, 480);
    let child = await startChild();
    const dev = await meter();
    let next = 0;
    const sendUpTo = (end: number) => {
      for (; next < end; next++) dev.send(frames[next]!);
    };
    const allAcked = () => until(() => frames.slice(0, next).every((f) => dev.acked.has(f.ts)), 30_000);
    const restart = async () => {
      await kill(child, 'SIGKILL');
      child = await startChild();
    };

    // Mid-minute: 30 s of the third minute are taken, its row is not written yet.
    sendUpTo(150);
    await allAcked();
    await restart();
    // Just after a minute closes: its last second is taken and the minute committed.
    sendUpTo(240);
    await allAcked();
    await restart();
    // During commits: a burst still streaming in when the server dies.
    sendUpTo(360);
    await new Promise((r) => setTimeout(r, 150));
    await restart();
    await new Promise((r) => setTimeout(r, 300));
    await restart();
    sendUpTo(frames.length);
    await allAcked();
    const db = database.db.withTables<TelemetryDB>();
    const position = async () =>
      Number((await db.selectFrom('telemetry_cursors').select('ts_sec').executeTakeFirst())?.ts_sec);
    // Through Mosquitto the meter's acknowledgement comes from the broker: wait for the server.
    await until(async () => (await position()) === frames.at(-1)!.ts, 30_000);
    await dev.close();
    await kill(child, 'SIGTERM');

    const minutes = await db
      .selectFrom('telemetry_minutes')
      .select(['ts_sec', 'samples'])
      .orderBy('ts_sec')
      .execute();
    const expected = new Map<number, number>();
    for (const f of frames) expected.set(f.ts - (f.ts % 60), (expected.get(f.ts - (f.ts % 60)) ?? 0) + 1);
    expect(minutes.map((m) => [Number(m.ts_sec), m.samples])).toEqual([...expected]);
    const q = await db.selectFrom('energy_quarters').selectAll().execute();
    const sum = (col: 'e_i_wh' | 'e_e_wh' | 's_e_vah') => q.reduce((s, r) => s + Number(r[col]), 0);
    const total = (f: LiveFrame, k: 'E_I' | 'E_E' | 'S_E') => f[k].L1 + f[k].L2 + f[k].L3;
    const [first, last] = [frames[0]!, frames.at(-1)!];
    expect(sum('e_i_wh')).toBe(total(last, 'E_I') - total(first, 'E_I'));
    expect(sum('e_e_wh')).toBe(total(last, 'E_E') - total(first, 'E_E'));
    expect(sum('s_e_vah')).toBe(total(last, 'S_E') - total(first, 'S_E'));
  }, 180_000);

  // SQLite has no connection to lose, and the embedded broker no link: that case has nothing to cut.
  if (dialect === 'postgres' || broker === 'mosquitto')
    it('loses nothing when the store connections or the broker link drop during ingest, resumes by itself and shows the outage', async () => {
      const db = database.db.withTables<TelemetryDB>();
      const stored = await db.selectFrom('telemetry_cursors').select('ts_sec').executeTakeFirst();
      // The sequence goes on from where the previous test ended (same meter, same registers).
      const from = stored ? Number(stored.ts_sec) - start + 1 : 0;
      const all = sequence(mac, start, from + 240).slice(0, from + 240);
      const frames = all.slice(from);
      const child = await startChild();
      const dev = await meter();
      const admin = dialect === 'postgres' ? new pg.Client({ connectionString: pgUrl }) : null;
      await admin?.connect();
      try {
        for (let i = 0; i < frames.length; i++) {
          dev.send(frames[i]!);
          if (i % 60 === 30) {
            if (admin) {
              // Hold the server's next commit, then end its connections while it waits.
              await admin.query('BEGIN');
              await admin.query(`LOCK TABLE ${schema}.telemetry_cursors IN ACCESS EXCLUSIVE MODE`);
              await new Promise((r) => setTimeout(r, 400));
              await admin.query(
                'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
                [appName],
              );
              await admin.query('COMMIT');
            }
            link?.cut();
          }
          await new Promise((r) => setTimeout(r, 5));
        }
        await until(() => frames.every((f) => dev.acked.has(f.ts)), 60_000);
        await until(
          async () =>
            Number((await db.selectFrom('telemetry_cursors').select('ts_sec').executeTakeFirst())?.ts_sec) ===
            frames.at(-1)!.ts,
          30_000,
        );
        const metrics = await metricsOf(child);
        if (admin) expect(metrics.get('telemetry_commit_failures_total') ?? 0).toBeGreaterThan(0);
        if (link) expect(metrics.get('telemetry_broker_disconnects_total') ?? 0).toBeGreaterThan(0);
        expect(metrics.get('telemetry_store_up')).toBe(1);
      } finally {
        await admin?.end();
        await dev.close();
        await kill(child, 'SIGTERM');
      }
      const first = Math.floor(frames[0]!.ts / 60) * 60;
      const minutes = await db
        .selectFrom('telemetry_minutes')
        .select(['ts_sec', 'samples'])
        .where('ts_sec', '>=', first)
        .orderBy('ts_sec')
        .execute();
      const expected = new Map<number, number>();
      for (const f of all.filter((f) => f.ts >= first))
        expected.set(f.ts - (f.ts % 60), (expected.get(f.ts - (f.ts % 60)) ?? 0) + 1);
      expect(minutes.map((m) => [Number(m.ts_sec), m.samples])).toEqual([...expected]);
      const q = await db.selectFrom('energy_quarters').select('e_i_wh').execute();
      const total = (f: LiveFrame) => f.E_I.L1 + f.E_I.L2 + f.E_I.L3;
      expect(q.reduce((s, r) => s + Number(r.e_i_wh), 0)).toBe(total(all.at(-1)!) - total(all[0]!));
    }, 180_000);
});
