// Alarm evaluation at the ingest rate: the ingest rig (Mosquitto, the publisher process, the
// device link into SQLite) plays BENCH_ALARM_DEVICES meters (default 2,000) at one frame per
// second each, with the alarm evaluator hooked on every live frame as the server runs it, first
// with no rules and then with BENCH_ALARM_RULES active rules (default 1,000: voltage, current,
// power and frequency thresholds with hold times and bands, quarter-hour demand against MRK, and
// offline rules). The two are run alternately, BENCH_ALARM_ROUNDS times each (default 2), each
// for BENCH_SECONDS (default 15) after a 3-second warm-up, in one process, and compared as
// ratios: sustained frames per second and CPU per frame of the ingesting process.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AlarmRuleDefinition } from '@meterportal/protocol';
import { openDatabase } from '../apps/server/src/db/database';
import { systemClock } from '../apps/server/src/clock';
import { alarmEngine } from '../apps/server/src/tools/alarms.engine';
import { alarmsRepository } from '../apps/server/src/tools/alarms.repository';
import {
  counterValue,
  play,
  privateBroker,
  quiet,
  seedFleet,
  sleep,
  startLink,
  startPublisher,
} from './ingest-rig';
import { r2, report } from './stats';

const DEVICES = Number(process.env.BENCH_ALARM_DEVICES ?? 2000);
const RULES = Number(process.env.BENCH_ALARM_RULES ?? 1000);
const ROUNDS = Number(process.env.BENCH_ALARM_ROUNDS ?? 2);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP_SECONDS = 3;

/** The i-th bench rule: a spread of kinds, none of which the bench frames trip. */
function ruleOf(i: number): AlarmRuleDefinition {
  const common = { name: `rule ${i}`, severity: 'warning' as const };
  switch (i % 10) {
    case 0:
      return { kind: 'offline', ...common, offlineMin: 15 };
    case 1:
    case 2:
      return { kind: 'demand', ...common, limit: 'MRK', sharePct: 90 };
    case 3:
      return {
        kind: 'threshold',
        ...common,
        quantity: 'F',
        phase: 'SUM',
        condition: 'outside',
        threshold: 45,
        thresholdHigh: 55,
        hysteresis: 0.1,
        holdSec: 10,
      };
    case 4:
    case 5:
      return {
        kind: 'threshold',
        ...common,
        quantity: 'I',
        phase: 'SUM',
        condition: 'above',
        threshold: 10_000,
        hysteresis: 5,
        holdSec: 30,
      };
    default:
      return {
        kind: 'threshold',
        ...common,
        quantity: 'U',
        phase: (['L1', 'L2', 'L3'] as const)[i % 3]!,
        condition: 'below',
        threshold: 50,
        hysteresis: 3,
        holdSec: 60,
      };
  }
}

const own = process.env.BENCH_MQTT_URL ? null : await privateBroker();
const url = process.env.BENCH_MQTT_URL ?? own!.url;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-alarms-'));
const database = await openDatabase({ sqliteFile: path.join(dir, 'bench.db') });
const macs = await seedFleet(database, DEVICES);
const ids = (await database.db.selectFrom('devices').select(['id', 'mac']).execute()).sort(
  (a, b) => a.id - b.id,
);
const user = await database.db
  .insertInto('users')
  .values({
    login: 'bench',
    login_key: 'bench',
    auth_type: 1,
    password_hash: null,
    issuer: null,
    subject: null,
    user_name: null,
    avatar: null,
    applications: '',
    created_at_ms: Date.now(),
  })
  .returning('id')
  .executeTakeFirstOrThrow();
// A contract limit far above what the bench meters draw, so demand rules project every frame.
await database.db
  .insertInto('device_details')
  .values(ids.map((d) => ({ device_id: d.id, mrk_w: 1e9, rk_w: 1e9, updated_at_ms: 0 })))
  .execute();

let notices = 0;
const engine = alarmEngine({
  repo: alarmsRepository(database),
  notifier: { record: () => Promise.resolve(notices++) },
  clock: systemClock,
  log: quiet,
});
const stopEngine = await engine.start();
const publisher = await startPublisher(url);
const link = await startLink(database, url, {
  onLive: (_mac, deviceId, frame) => engine.onFrame(deviceId, frame),
});

async function setRules(count: number): Promise<void> {
  await database.db.deleteFrom('alarm_rules').execute();
  for (let i = 0; i < count; i += 500) {
    await database.db
      .insertInto('alarm_rules')
      .values(
        Array.from({ length: Math.min(500, count - i) }, (_, k) => ({
          user_id: user.id,
          device_id: ids[(i + k) % ids.length]!.id,
          definition: JSON.stringify(ruleOf(i + k)),
          lang: 'en',
          created_at_ms: 0,
          updated_at_ms: 0,
        })),
      )
      .execute();
  }
  await engine.reload();
  if (engine.ruleCount() !== count) throw new Error(`expected ${count} rules, hold ${engine.ruleCount()}`);
}

async function measure(rules: number) {
  await setRules(rules);
  await play(publisher, macs, WARMUP_SECONDS);
  await sleep(1000);
  await link.link.ingest.flush();
  const before = await counterValue(link.registry, 'telemetry_messages_total', { kind: 'live' });
  const cpuBefore = process.cpuUsage();
  const { sent, startedAt } = await play(publisher, macs, SECONDS);
  await sleep(1000);
  await link.link.ingest.flush();
  const got = (await counterValue(link.registry, 'telemetry_messages_total', { kind: 'live' })) - before;
  const cpu = process.cpuUsage(cpuBefore);
  const seconds = (performance.now() - startedAt) / 1000 - 1;
  const run = {
    rules,
    offeredPerSec: Math.round(sent / SECONDS),
    ingestedPerSec: Math.round(got / seconds),
    cpuUsPerFrame: r2((cpu.user + cpu.system) / Math.max(1, got)),
    keptUp: got >= 0.98 * sent,
  };
  console.log(JSON.stringify(run));
  return run;
}

const runs: Awaited<ReturnType<typeof measure>>[] = [];
for (let r = 0; r < ROUNDS; r++) {
  runs.push(await measure(0));
  runs.push(await measure(RULES));
}
const mean = (rules: number, k: 'ingestedPerSec' | 'cpuUsPerFrame') => {
  const xs = runs.filter((x) => x.rules === rules).map((x) => x[k]);
  return xs.reduce((a, b) => a + b, 0) / xs.length;
};
const framesRatio = mean(RULES, 'ingestedPerSec') / mean(0, 'ingestedPerSec');
const cpuRatio = mean(RULES, 'cpuUsPerFrame') / mean(0, 'cpuUsPerFrame');
report('alarms', {
  devices: DEVICES,
  rules: RULES,
  seconds: SECONDS,
  rounds: ROUNDS,
  runs,
  withoutRules: {
    ingestedPerSec: Math.round(mean(0, 'ingestedPerSec')),
    cpuUsPerFrame: r2(mean(0, 'cpuUsPerFrame')),
  },
  withRules: {
    ingestedPerSec: Math.round(mean(RULES, 'ingestedPerSec')),
    cpuUsPerFrame: r2(mean(RULES, 'cpuUsPerFrame')),
  },
  /** With rules over without: 1 is no change; the target is within 10 %. */
  framesPerSecRatio: r2(framesRatio),
  cpuPerFrameRatio: r2(cpuRatio),
  withinTenPercent: framesRatio >= 0.9 && cpuRatio <= 1.1,
  alarmsRaised: notices,
});

await stopEngine();
await link.link.close();
publisher.kill();
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
own?.stop();
process.exit(0);
