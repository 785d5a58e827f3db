// Soak: a steady fleet (BENCH_SOAK_DEVICES meters, default 10,000, one frame per second each)
// played by the separate publisher process over Mosquitto into the portal's ingest on SQLite
// for BENCH_SOAK_SECONDS (default 600). Every 10 s it samples the ingesting process's memory
// (RSS, and the V8 heap after a full collection, so the heap figure is what is live); memory is
// flat when neither grows by more than 1 MB per minute over the last 8 minutes (least squares).
// Opt-in: `npm run bench -- soak` (not part of the default `npm run bench`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { openDatabase } from '../apps/server/src/db/database';
import {
  bucketsSince,
  counterValue,
  histogramBuckets,
  histogramQuantile,
  play,
  privateBroker,
  seedFleet,
  sleep,
  startLink,
  startPublisher,
} from './ingest-rig';
import { r2, report } from './stats';

const DEVICES = Number(process.env.BENCH_SOAK_DEVICES ?? 10000);
const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const SAMPLE_SEC = 10;
const SLOPE_WINDOW_SEC = Math.min(480, SECONDS - 2 * SAMPLE_SEC);
const FLAT_MB_PER_MIN = 1;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const mb = (b: number) => b / 2 ** 20;

/** Least-squares slope of y over x. */
function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const sxy = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return sxy / sxx;
}

const own = process.env.BENCH_MQTT_URL ? null : await privateBroker();
const url = process.env.BENCH_MQTT_URL ?? own!.url;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-soak-'));
const database = await openDatabase({ sqliteFile: path.join(tmp, 'soak.db') });
const macs = await seedFleet(database, DEVICES);
const link = await startLink(database, url);
const publisher = await startPublisher(url);

const samples: {
  atSec: number;
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  framesIngested: number;
  pendingRows: number;
}[] = [];
const frames = () => counterValue(link.registry, 'telemetry_messages_total', { kind: 'live' });
const delayBefore = await histogramBuckets(link.registry, 'telemetry_minute_commit_delay_seconds');
const t0 = performance.now();
const done = play(publisher, macs, SECONDS);
let finished = false;
void done.then(() => (finished = true));
for (let i = 1; !finished; i++) {
  await Promise.race([sleep(t0 + i * SAMPLE_SEC * 1000 - performance.now()), done]);
  if (finished) break;
  const rssMb = mb(process.memoryUsage().rss);
  gc();
  const m = process.memoryUsage();
  samples.push({
    atSec: Math.round((performance.now() - t0) / 1000),
    rssMb: r2(rssMb),
    heapUsedMb: r2(mb(m.heapUsed)),
    heapTotalMb: r2(mb(m.heapTotal)),
    externalMb: r2(mb(m.external)),
    framesIngested: await frames(),
    pendingRows: link.link.ingest.pendingRows(),
  });
  console.log('soak', JSON.stringify(samples.at(-1)));
}
const { sent } = await done;
await sleep(2000);
const got = await frames();
const delay = bucketsSince(
  await histogramBuckets(link.registry, 'telemetry_minute_commit_delay_seconds'),
  delayBefore,
);
await link.link.close();
publisher.send('exit');
own?.stop();
await database.close();
fs.rmSync(tmp, { recursive: true, force: true });

const last = SECONDS - SLOPE_WINDOW_SEC;
const tail = samples.filter((s) => s.atSec >= last);
const series = (key: 'rssMb' | 'heapUsedMb') => ({
  firstMb: samples[0]?.[key] ?? null,
  lastMb: samples.at(-1)?.[key] ?? null,
  maxMb: Math.max(...samples.map((s) => s[key])),
  slopeMbPerMinLast8Min: r2(slope(tail.map((s) => ({ x: s.atSec / 60, y: s[key] })))),
});
const rss = series('rssMb');
const heap = series('heapUsedMb');
const flat = rss.slopeMbPerMinLast8Min <= FLAT_MB_PER_MIN && heap.slopeMbPerMinLast8Min <= FLAT_MB_PER_MIN;
const result = {
  store: 'sqlite',
  devices: DEVICES,
  seconds: SECONDS,
  sampleEverySec: SAMPLE_SEC,
  slopeWindowSec: SLOPE_WINDOW_SEC,
  framesSent: sent,
  framesIngested: got,
  keptUp: got >= 0.98 * sent,
  rss,
  heapUsedAfterGc: heap,
  memoryFlat: flat ? 'met' : 'NOT MET: memory grows',
  minuteCommitDelay: {
    observations: delay.at(-1)?.[1] ?? 0,
    p50Sec: histogramQuantile(delay, 0.5),
    p99Sec: histogramQuantile(delay, 0.99),
  },
  target: { flatWhenSlopeAtMostMbPerMin: FLAT_MB_PER_MIN },
  samples,
};
report('soak', result);
console.log(
  `memory flat over ${SECONDS / 60} min: ${result.memoryFlat} (RSS ${rss.slopeMbPerMinLast8Min} MB/min, heap ${heap.slopeMbPerMinLast8Min} MB/min)`,
);
process.exit(flat ? 0 : 1);
