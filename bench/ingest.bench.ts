// Ingest throughput over real MQTT: a separate publisher process plays K meters at one frame per
// second each through a Mosquitto broker, the portal's device link ingests
// them into SQLite (and PostgreSQL with BENCH_DATABASE_URL/TEST_DATABASE_URL). K rises until the
// store no longer keeps up; each step runs BENCH_SECONDS (default 20) after a 3-second warm-up. The bare broker's pass-through to a plain subscriber is the ceiling.
// Before the steps, a steady phase (BENCH_DELAY_DEVICES meters, default 10,000) runs across
// BENCH_DELAY_MINUTES minute boundaries (default 2) and measures the delay from each minute's
// end to its aggregate row being committed, twice: from the ingest's own histogram
// (telemetry_minute_commit_delay_seconds) and by counting the rows in the table every 100 ms.
// BENCH_BURN=0.5 runs a second process that keeps half a core busy throughout, as a busy
// machine would (0, the default, runs none).
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { openDatabase, dropPgSchema, type Database } from '../apps/server/src/db/database';
import {
  bucketsSince,
  counterValue,
  histogramBuckets,
  histogramQuantile,
  macOf,
  play,
  privateBroker,
  round3,
  seedFleet,
  sleep,
  startLink,
  startPublisher,
  watchMinuteRows,
} from './ingest-rig';
import { percentile, r2, report } from './stats';

const BURN = Math.min(1, Math.max(0, Number(process.env.BENCH_BURN ?? 0)));
// Busy for BURN of every 100 ms slice, idle for the rest; ends with the benchmark.
const burner =
  BURN > 0
    ? spawn(
        process.execPath,
        [
          '-e',
          `setInterval(() => { const end = Date.now() + ${BURN * 100}; while (Date.now() < end); }, 100); process.stdin.on('end', () => process.exit(0)); process.stdin.resume();`,
        ],
        { stdio: ['pipe', 'ignore', 'ignore'] },
      )
    : null;
const own = process.env.BENCH_MQTT_URL ? null : await privateBroker();
const url = process.env.BENCH_MQTT_URL ?? own!.url;
const STEPS = (process.env.BENCH_STEPS ?? '2000,5000,10000,20000,30000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = 3;
/** A step kept up when every frame was stored within this long of the last one being sent. */
const MAX_LAG_SEC = 3;
const DELAY_DEVICES = Number(process.env.BENCH_DELAY_DEVICES ?? 10000);
const DELAY_MINUTES = Number(process.env.BENCH_DELAY_MINUTES ?? 2);
const DELAY_METRIC = 'telemetry_minute_commit_delay_seconds';

/**
 * Steady load across minute boundaries: starts 15 s before a minute ends (devices load and warm
 * up), runs DELAY_MINUTES boundaries and 10 s past the last one.
 */
async function commitDelay(
  database: Database,
  link: Awaited<ReturnType<typeof startLink>>,
  publisher: ChildProcess,
  macs: string[],
) {
  const secOfMinute = (Date.now() / 1000) % 60;
  await sleep(((45 - secOfMinute + 60) % 60) * 1000);
  const startSec = Math.floor(Date.now() / 1000);
  const firstEndSec = Math.ceil(startSec / 60) * 60;
  const lastEndSec = firstEndSec + 60 * (DELAY_MINUTES - 1);
  const seconds = lastEndSec + 10 - startSec;
  const before = await histogramBuckets(link.registry, DELAY_METRIC);
  const watch = watchMinuteRows(database, firstEndSec - 60);
  const framesBefore = await counterValue(link.registry, 'telemetry_messages_total', { kind: 'live' });
  const { sent } = await play(publisher, macs.slice(0, DELAY_DEVICES), seconds);
  await sleep(2000);
  const got =
    (await counterValue(link.registry, 'telemetry_messages_total', { kind: 'live' })) - framesBefore;
  const polled = await watch.stop(lastEndSec);
  const observed = bucketsSince(await histogramBuckets(link.registry, DELAY_METRIC), before);
  const result = {
    devices: DELAY_DEVICES,
    seconds,
    minuteBoundaries: DELAY_MINUTES,
    keptUp: got >= 0.98 * sent,
    // Exact per device-minute, to within one 100 ms poll: when the row became visible in the table.
    polled: {
      deviceMinutes: polled.delays.length,
      p50Sec: round3(percentile(polled.delays, 50)),
      p99Sec: round3(percentile(polled.delays, 99)),
      maxSec: round3(Math.max(...polled.delays)),
      perMinute: polled.minutes,
    },
    // The ingest's own histogram (what /metrics shows in production), interpolated in its bucket.
    histogram: {
      observations: observed.at(-1)?.[1] ?? 0,
      p50Sec: histogramQuantile(observed, 0.5),
      p99Sec: histogramQuantile(observed, 0.99),
    },
  };
  return result;
}

async function storeRun(database: Database, label: string, publisher: ChildProcess) {
  const macs = await seedFleet(database, Math.max(DELAY_DEVICES, ...STEPS));
  const link = await startLink(database, url);
  const { registry } = link;
  let peakRssMb = 0;
  const sampler = setInterval(
    () => (peakRssMb = Math.max(peakRssMb, process.memoryUsage().rss / 2 ** 20)),
    250,
  );
  const minuteCommitDelay = DELAY_MINUTES > 0 ? await commitDelay(database, link, publisher, macs) : null;
  if (minuteCommitDelay) console.log(label, 'minute commit delay', JSON.stringify(minuteCommitDelay));
  const steps: {
    devices: number;
    offeredPerSec: number;
    ingestedPerSec: number;
    storedWithinSec: number;
    cpuUsPerFrame: number;
    keptUp: boolean;
  }[] = [];
  for (const k of STEPS) {
    // New meters first: a meter's first frame looks it up in the store, a cost paid once per
    // meter and not part of sustained throughput, so the step's meters send for a few seconds
    // before the measured run.
    await play(publisher, macs.slice(0, k), WARMUP_SECONDS);
    await sleep(2000);
    await link.link.ingest.flush();
    const before = await counterValue(registry, 'telemetry_messages_total', { kind: 'live' });
    const cpuBefore = process.cpuUsage();
    const { sent, startedAt } = await play(publisher, macs.slice(0, k), SECONDS);
    const playedAt = performance.now();
    // One second for what is in flight through the broker, then everything taken in is committed:
    // a store that keeps up has it all stored within a few seconds of the last frame, one that
    // only buffers (frames taken in faster than they are committed) shows a long lag here.
    await sleep(1000);
    await link.link.ingest.flush();
    const got = (await counterValue(registry, 'telemetry_messages_total', { kind: 'live' })) - before;
    const lagSec = (performance.now() - playedAt) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const seconds = (performance.now() - startedAt) / 1000 - 1;
    const step = {
      devices: k,
      offeredPerSec: Math.round(sent / SECONDS),
      ingestedPerSec: Math.round(got / seconds),
      storedWithinSec: r2(lagSec),
      // CPU time of the ingesting process (user + system) per frame taken in and stored.
      cpuUsPerFrame: r2((cpu.user + cpu.system) / Math.max(1, got)),
      keptUp: got >= 0.98 * sent && lagSec <= MAX_LAG_SEC,
    };
    steps.push(step);
    console.log(label, step);
    if (!step.keptUp) break;
  }
  clearInterval(sampler);
  await link.link.close();
  const sustained = Math.max(0, ...steps.filter((s) => s.keptUp).map((s) => s.ingestedPerSec));
  return { minuteCommitDelay, steps, sustainedFramesPerSec: sustained, peakRssMb: r2(peakRssMb) };
}

async function bareBroker(publisher: ChildProcess) {
  const sub = await mqtt.connectAsync(url, { clientId: `bench-bare-${process.pid}`, clean: true });
  let got = 0;
  sub.on('message', () => got++);
  await sub.subscribeAsync('benchbare/+/live', { qos: 1 });
  const steps: { devices: number; offeredPerSec: number; receivedPerSec: number }[] = [];
  for (const k of STEPS) {
    got = 0;
    const { sent, startedAt } = await play(
      publisher,
      Array.from({ length: k }, (_, i) => macOf(i)),
      SECONDS,
      'benchbare',
    );
    await sleep(2000);
    const seconds = (performance.now() - startedAt) / 1000 - 2;
    steps.push({
      devices: k,
      offeredPerSec: Math.round(sent / SECONDS),
      receivedPerSec: Math.round(got / seconds),
    });
    console.log('bare broker', steps.at(-1));
    if (got < 0.98 * sent) break;
  }
  await sub.endAsync();
  return { steps, ceilingPerSec: Math.max(...steps.map((s) => s.receivedPerSec)) };
}

const publisher = await startPublisher(url);
const out: Record<string, unknown> = {
  broker: url.replace(/\/\/[^@]*@/, '//***@'),
  secondsPerStep: SECONDS,
  cores: os.cpus().length,
  burnCores: BURN,
};
const bare = await bareBroker(publisher);
out.bareBroker = bare;
const share = (r: { sustainedFramesPerSec: number }) => ({
  ...r,
  shareOfBareBroker: round3(r.sustainedFramesPerSec / Math.max(1, bare.ceilingPerSec)),
});
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ingest-'));
// BENCH_STORES=postgres (or sqlite) measures one store only.
const STORES = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',');
if (STORES.includes('sqlite')) {
  const database = await openDatabase({ sqliteFile: path.join(tmp, 'ingest.db') });
  out.sqlite = share(await storeRun(database, 'sqlite', publisher));
  await database.close();
}
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pgUrl && STORES.includes('postgres')) {
  const schema = `bench_${crypto.randomBytes(4).toString('hex')}`;
  const database = await openDatabase({ url: pgUrl, pgSchema: schema });
  out.postgres = share(await storeRun(database, 'postgres', publisher));
  await database.close();
  await dropPgSchema(pgUrl, schema);
}
publisher.send('exit');
own?.stop();
burner?.stdin?.end();
fs.rmSync(tmp, { recursive: true, force: true });
out.targets = {
  sqliteFramesPerSec: 20000,
  postgresFramesPerSec: 10000,
  shareOfBareBroker: 0.5,
  minuteCommitDelayP99Sec: 2,
};
report(BURN > 0 ? `ingest.burn-${BURN}` : 'ingest', out);
process.exit(0);
