// Shared parts of the ingest benchmarks: a private Mosquitto, the publisher process, the bench
// fleet in the devices table, the device link under test, and readings of its metrics.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import type { Database } from '../apps/server/src/db/database';
import type { TelemetryDB } from '../apps/server/src/db/schema.telemetry';
import { migrateToLatest } from '../apps/server/src/db/migrations/index';
import { startDeviceLink, type DeviceLinkDeps } from '../apps/server/src/broker/device-link';
import { systemClock } from '../apps/server/src/clock';
import { testDeviceRow } from '../apps/server/src/telemetry/testing';
import { percentile } from './stats';

/**
 * A private Mosquitto tuned for one high-rate subscriber (no inflight or queue cap, which by
 * default is 20 and 1,000 messages and silently drops QoS 1 beyond), unless BENCH_MQTT_URL names
 * a broker to use instead.
 */
export async function privateBroker(): Promise<{ url: string; stop: () => void }> {
  const port = await new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });
  const conf = path.join(os.tmpdir(), `bench-mosquitto-${port}.conf`);
  fs.writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'max_inflight_messages 0',
      'max_queued_messages 0',
      'persistence false',
      '',
    ].join('\n'),
  );
  const child = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
  // The broker goes with the benchmark, also when it is stopped with Ctrl-C or a TERM.
  const stop = () => child.kill();
  process.once('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stop();
      process.exit(130);
    });
  }
  for (let i = 0; i < 50; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const sock = net.connect(port, '127.0.0.1', () => {
        sock.end();
        resolve(true);
      });
      sock.on('error', () => resolve(false));
    });
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `mqtt://127.0.0.1:${port}`, stop: () => child.kill() };
}

export const quiet = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};
export const macOf = (i: number) =>
  `02-BE-${[i >> 16, (i >> 8) & 255, i & 255].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join('-')}-01`;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function startPublisher(url: string): Promise<ChildProcess> {
  const child = fork(path.join(import.meta.dirname, 'publisher.ts'), [url], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  return new Promise((resolve) => child.once('message', () => resolve(child)));
}

/**
 * Plays the meters for the given seconds at one frame each per second; resolves with frames sent
 * and the performance.now() of the first frame (the publisher first waits for a whole second).
 */
export function play(
  child: ChildProcess,
  macs: string[],
  seconds: number,
  topicPrefix?: string,
): Promise<{ sent: number; startedAt: number }> {
  return new Promise((resolve) => {
    child.once('message', (m: { sent: number; ms: number }) =>
      resolve({ sent: m.sent, startedAt: performance.now() - m.ms }),
    );
    child.send({ macs, seconds, ...(topicPrefix ? { topicPrefix } : {}) });
  });
}

/** Migrates and inserts `count` bench meters; returns their macs. */
export async function seedFleet(database: Database, count: number): Promise<string[]> {
  await migrateToLatest(database);
  const macs = Array.from({ length: count }, (_, i) => macOf(i));
  for (let i = 0; i < macs.length; i += 500) {
    await database.db
      .insertInto('devices')
      .values(macs.slice(i, i + 500).map((mac) => testDeviceRow(mac, 4)))
      .execute();
  }
  return macs;
}

/** The portal's device link on the bench broker, with its own metrics registry. */
export async function startLink(
  database: Database,
  url: string,
  /** Who gets each live frame beside the store (the alarm evaluator, say). */
  extra: Pick<DeviceLinkDeps, 'onLive'> = {},
) {
  const registry = new Registry();
  const link = await startDeviceLink({
    ...extra,
    database,
    logger: quiet,
    clock: systemClock,
    mqttUrl: url,
    mqttClientId: `bench-ingest-${crypto.randomBytes(4).toString('hex')}`,
    mqttPort: 0,
    registry,
  });
  return { link, registry };
}

export async function counterValue(
  registry: Registry,
  name: string,
  label?: Record<string, string>,
): Promise<number> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const values = (metric?.values ?? []) as { value: number; labels: Record<string, string> }[];
  return values
    .filter((v) => !label || Object.entries(label).every(([k, x]) => v.labels[k] === x))
    .reduce((a, v) => a + v.value, 0);
}

/** Cumulative buckets [upper bound, count] of a histogram, +Inf last. */
export async function histogramBuckets(registry: Registry, name: string): Promise<[number, number][]> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const values = (metric?.values ?? []) as {
    value: number;
    labels: { le?: number | string };
    metricName?: string;
  }[];
  return values
    .filter((v) => v.metricName === `${name}_bucket`)
    .map((v): [number, number] => [
      v.labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(v.labels.le),
      v.value,
    ])
    .sort((a, b) => a[0] - b[0]);
}

/** Difference of two bucket readings (what was observed in between). */
export function bucketsSince(now: [number, number][], before: [number, number][]): [number, number][] {
  return now.map(([le, n], i) => [le, n - (before[i]?.[1] ?? 0)]);
}

/**
 * Quantile of a histogram as Prometheus's histogram_quantile computes it (linear inside the
 * bucket), and the bucket's upper bound, which the true value does not exceed.
 */
export function histogramQuantile(
  buckets: [number, number][],
  q: number,
): { estimate: number; atMost: number } | null {
  const total = buckets.at(-1)?.[1] ?? 0;
  if (total === 0) return null;
  const rank = q * total;
  let prevLe = 0;
  let prevN = 0;
  for (const [le, n] of buckets) {
    if (n >= rank) {
      if (!Number.isFinite(le)) return { estimate: prevLe, atMost: le };
      const estimate = prevLe + ((le - prevLe) * (rank - prevN)) / Math.max(1, n - prevN);
      return { estimate: Math.round(estimate * 1000) / 1000, atMost: le };
    }
    prevLe = le;
    prevN = n;
  }
  return null;
}

/**
 * Watches the minute table from outside the ingest: every `everyMs` it counts the rows of each
 * minute, so the delay from a minute's end to the moment its row became visible (committed) is
 * known per device-minute to within one poll.
 */
export function watchMinuteRows(database: Database, fromMinuteSec: number, everyMs = 100) {
  const firstSeen = new Map<number, number[]>(); // minute start -> wall time (ms) each row was first counted
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const rows = await database.db
        .withTables<TelemetryDB>()
        .selectFrom('telemetry_minutes')
        .select(['ts_sec', (eb) => eb.fn.countAll().as('n')])
        .where('ts_sec', '>=', fromMinuteSec)
        .groupBy('ts_sec')
        .execute();
      const at = Date.now();
      for (const r of rows) {
        const m = Number(r.ts_sec);
        const seen = firstSeen.get(m) ?? [];
        for (let i = seen.length; i < Number(r.n); i++) seen.push(at);
        firstSeen.set(m, seen);
      }
      await sleep(everyMs);
    }
  })();
  return {
    /** Stops watching; returns each finished minute's delays (s), for minutes ending before `untilSec`. */
    async stop(untilSec: number): Promise<{
      minutes: { minuteEndSec: number; rows: number; p50: number; p99: number; max: number }[];
      delays: number[];
    }> {
      stopped = true;
      await loop;
      const minutes: { minuteEndSec: number; rows: number; p50: number; p99: number; max: number }[] = [];
      const delays: number[] = [];
      for (const [m, seen] of [...firstSeen].sort((a, b) => a[0] - b[0])) {
        const end = m + 60;
        if (end > untilSec) continue;
        const d = seen.map((t) => t / 1000 - end);
        delays.push(...d);
        minutes.push({
          minuteEndSec: end,
          rows: d.length,
          p50: round3(percentile(d, 50)),
          p99: round3(percentile(d, 99)),
          max: round3(Math.max(...d)),
        });
      }
      return { minutes, delays };
    },
  };
}

export const round3 = (n: number) => Math.round(n * 1000) / 1000;
