// Ingest throughput over real MQTT: a separate publisher process plays K meters at one frame per
// second each through a Mosquitto broker, the portal's device link ingests
// them into SQLite (and PostgreSQL with BENCH_DATABASE_URL/TEST_DATABASE_URL). K rises until the
// store no longer keeps up. The bare broker's pass-through to a plain subscriber is the ceiling.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { Registry } from 'prom-client';
import { openDatabase, dropPgSchema, type Database } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrations/index';
import { startDeviceLink } from '../apps/server/src/broker/device-link';
import { systemClock } from '../apps/server/src/clock';
import { r2, report } from './stats';

/**
 * A private Mosquitto tuned for one high-rate subscriber (no inflight or queue cap, which by
 * default is 20 and 1,000 messages and silently drops QoS 1 beyond), unless BENCH_MQTT_URL names
 * a broker to use instead.
 */
async function privateBroker(): Promise<{ url: string; stop: () => void }> {
  const port = await new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });
  const conf = path.join(os.tmpdir(), `bench-mosquitto-${port}.conf`);
  fs.writeFileSync(conf, [`listener ${port} 127.0.0.1`, 'allow_anonymous true', 'max_inflight_messages 0', 'max_queued_messages 0', 'persistence false', ''].join('\n'));
  const child = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
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

const own = process.env.BENCH_MQTT_URL ? null : await privateBroker();
const url = process.env.BENCH_MQTT_URL ?? own!.url;
const STEPS = (process.env.BENCH_STEPS ?? '2000,5000,10000,20000,30000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
const macOf = (i: number) => `02-BE-${[i >> 16, (i >> 8) & 255, i & 255].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join('-')}-01`;

function startPublisher(): Promise<ChildProcess> {
  const child = fork(path.join(import.meta.dirname, 'publisher.ts'), [url], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  return new Promise((resolve) => child.once('message', () => resolve(child)));
}
function play(child: ChildProcess, macs: string[], topicPrefix?: string): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (m: { sent: number }) => resolve(m.sent));
    child.send({ macs, seconds: SECONDS, ...(topicPrefix ? { topicPrefix } : {}) });
  });
}

async function counterValue(registry: Registry, name: string, label?: Record<string, string>): Promise<number> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const values = (metric?.values ?? []) as { value: number; labels: Record<string, string> }[];
  return values.filter((v) => !label || Object.entries(label).every(([k, x]) => v.labels[k] === x)).reduce((a, v) => a + v.value, 0);
}

async function histogramP99(registry: Registry, name: string): Promise<number | null> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const buckets = ((metric?.values ?? []) as { value: number; labels: { le?: number | string }; metricName?: string }[]).filter(
    (v) => v.metricName === `${name}_bucket`,
  );
  const total = buckets.find((b) => b.labels.le === '+Inf')?.value ?? 0;
  if (total === 0) return null;
  const hit = buckets.find((b) => b.value >= 0.99 * total);
  return hit ? Number(hit.labels.le) : null;
}

async function storeRun(database: Database, label: string, publisher: ChildProcess) {
  await migrateToLatest(database);
  const max = Math.max(...STEPS);
  const macs = Array.from({ length: max }, (_, i) => macOf(i));
  for (let i = 0; i < macs.length; i += 500) {
    await database.db
      .insertInto('devices')
      .values(macs.slice(i, i + 500).map((mac) => ({ mac, type: 4, title: mac.slice(-8), description: null, phase_use: 3, lora: 0, nilm_process: 0, nilm_autolearn: 0, fw: null, created_at_ms: Date.now() })))
      .execute();
  }
  const registry = new Registry();
  const link = await startDeviceLink({
    database,
    logger: quiet,
    clock: systemClock,
    mqttUrl: url,
    mqttClientId: `bench-ingest-${crypto.randomBytes(4).toString('hex')}`,
    mqttPort: 0,
    registry,
  });
  let peakRssMb = 0;
  const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, process.memoryUsage().rss / 2 ** 20)), 250);
  const steps: { devices: number; offeredPerSec: number; ingestedPerSec: number; keptUp: boolean; minuteCommitDelayP99Sec: number | null }[] = [];
  for (const k of STEPS) {
    const before = await counterValue(registry, 'telemetry_messages_total', { kind: 'live' });
    const started = performance.now();
    const sent = await play(publisher, macs.slice(0, k));
    // Let the broker and the last transaction drain.
    await new Promise((r) => setTimeout(r, 2000));
    await link.ingest.flush();
    const got = (await counterValue(registry, 'telemetry_messages_total', { kind: 'live' })) - before;
    const seconds = (performance.now() - started) / 1000 - 2;
    const step = {
      devices: k,
      offeredPerSec: Math.round(sent / SECONDS),
      ingestedPerSec: Math.round(got / seconds),
      keptUp: got >= 0.98 * sent,
      minuteCommitDelayP99Sec: await histogramP99(registry, 'telemetry_minute_commit_delay_seconds'),
    };
    steps.push(step);
    console.log(label, step);
    if (!step.keptUp) break;
  }
  clearInterval(sampler);
  await link.close();
  const sustained = Math.max(0, ...steps.filter((s) => s.keptUp).map((s) => s.ingestedPerSec));
  return { steps, sustainedFramesPerSec: sustained, peakRssMb: r2(peakRssMb) };
}

async function bareBroker(publisher: ChildProcess) {
  const sub = await mqtt.connectAsync(url, { clientId: `bench-bare-${process.pid}`, clean: true });
  let got = 0;
  sub.on('message', () => got++);
  await sub.subscribeAsync('benchbare/+/live', { qos: 1 });
  const steps: { devices: number; offeredPerSec: number; receivedPerSec: number }[] = [];
  for (const k of STEPS) {
    got = 0;
    const started = performance.now();
    const sent = await play(publisher, Array.from({ length: k }, (_, i) => macOf(i)), 'benchbare');
    await new Promise((r) => setTimeout(r, 2000));
    const seconds = (performance.now() - started) / 1000 - 2;
    steps.push({ devices: k, offeredPerSec: Math.round(sent / SECONDS), receivedPerSec: Math.round(got / seconds) });
    console.log('bare broker', steps.at(-1));
    if (got < 0.98 * sent) break;
  }
  await sub.endAsync();
  return { steps, ceilingPerSec: Math.max(...steps.map((s) => s.receivedPerSec)) };
}

const publisher = await startPublisher();
const out: Record<string, unknown> = { broker: url.replace(/\/\/[^@]*@/, '//***@'), secondsPerStep: SECONDS, cores: os.cpus().length };
out.bareBroker = await bareBroker(publisher);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ingest-'));
{
  const database = await openDatabase({ sqliteFile: path.join(tmp, 'ingest.db') });
  out.sqlite = await storeRun(database, 'sqlite', publisher);
  await database.close();
}
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pgUrl) {
  const schema = `bench_${crypto.randomBytes(4).toString('hex')}`;
  const database = await openDatabase({ url: pgUrl, pgSchema: schema });
  out.postgres = await storeRun(database, 'postgres', publisher);
  await database.close();
  await dropPgSchema(pgUrl, schema);
}
publisher.send('exit');
own?.stop();
fs.rmSync(tmp, { recursive: true, force: true });
out.targets = { sqliteFramesPerSec: 20000, postgresFramesPerSec: 10000, shareOfBareBroker: 0.5, minuteCommitDelayP99Sec: 2 };
report('ingest', out);
process.exit(0);
