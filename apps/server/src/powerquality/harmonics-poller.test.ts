import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { ManualClock } from '../clock';
import { harmonicsPoller } from './harmonics-poller';
import { startDevice, type SimDevice } from '@meterportal/simulator';
import type { PowerQualityWeek } from '@meterportal/protocol';
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
import { createTelemetryRepository } from '../telemetry/telemetry.repository';
import type { TelemetryDB } from '../db/schema.telemetry';
import { harmonicsRepository } from './harmonics.repository';
import { EN50160_HARMONIC_LIMITS } from './harmonics-fns';
import { mondayDate, mondayOf } from './planted-week';

const ANALYZER = '02-4D-50-00-00-03';
const HUNG = '02-4D-50-00-00-13';
const NEVER_SEEN = '02-4D-50-00-00-23';
const BREAKER = '02-4D-50-00-00-02';
const TZ = 'Europe/Bratislava';

/** Waits until the condition holds (the devices' state messages arrive over the broker). */
async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not reached in 20 s');
}

const quiet = pino({ level: 'silent' });

describe('the harmonics poller', () => {
  it('asks at most `concurrency` analyzers at the same time and every online one once', async () => {
    const analyzers = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, mac: `02-4D-50-00-01-${i}` }));
    const stored: number[] = [];
    let inFlight = 0;
    let most = 0;
    const spectrum = { values: [100, 0.1, 1, 0.1, 2] };
    const poller = harmonicsPoller({
      repo: {
        onlineAnalyzers: () => Promise.resolve(analyzers),
        addSpectrum: (id) => {
          stored.push(id);
          return Promise.resolve();
        },
      },
      send: async (mac) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        if (mac.endsWith('-7')) throw new Error('no answer');
        const U = { L1: spectrum, L2: spectrum, L3: spectrum };
        return { id: 'x', cmd: 'HARMONICS', ok: true, result: { U, I: U } };
      },
      clock: new ManualClock(),
      registry: new Registry(),
      periodMs: 600_000,
      concurrency: 8,
    });
    expect(await poller.pollOnce()).toEqual({ stored: 19, failed: 1 });
    expect(most).toBe(8);
    expect(stored.sort((a, b) => a - b)).toEqual(analyzers.map((a) => a.id).filter((id) => id !== 8));
  });
});

describe.each(DIALECTS)('polling analyzers for their harmonic spectrum on $name', (dialect) => {
  let t: TestApp;
  let runtime: Runtime;
  let alice: Client;
  const sims = new Map<string, SimDevice>();
  const ids = new Map<string, number>();
  let repo: ReturnType<typeof harmonicsRepository>;
  const polled = async (mac: string) => repo.spectra(ids.get(mac)!, 0, 4_000_000_000);
  const online = async () => (await repo.onlineAnalyzers()).map((d) => d.mac);

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      env: { DEMO: 'false', ROLES: 'read,write,ingest', TZ },
      commandTimeoutMs: 1500,
    });
    runtime = await startRuntime(t.services, { logger: quiet, mqttPort: 0 });
    repo = harmonicsRepository(t.services.database);
    const id = await addUser(t.services, 'alice', 'alice-secret');
    for (const [mac, type] of [
      [ANALYZER, 3],
      [HUNG, 3],
      [NEVER_SEEN, 3],
      [BREAKER, 2],
    ] as const) {
      const deviceId = await addDevice(t.services, mac, type);
      ids.set(mac, deviceId);
      await assign(t.services, id, deviceId, true);
      if (mac === NEVER_SEEN) continue;
      const creds = await runtime.link!.credentials.issue(deviceId, mac);
      const sim = startDevice({
        brokerUrl: `mqtt://127.0.0.1:${runtime.mqttPort}`,
        mac,
        type,
        ...creds,
        outages: false,
      });
      sims.set(mac, sim);
      await sim.connected;
    }
    alice = await quickSession(t.services, id);
    // The hung analyzer is online and measuring, but answers no command.
    sims.get(HUNG)!.hang(true);
    await until(async () => (await online()).length === 2);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([...sims.values()].map((s) => s.stop()));
    await runtime.stop();
    await t.close();
  });

  const failures = async () => {
    const m = await t.services.metrics.getSingleMetric('power_quality_harmonic_polls_total')!.get();
    const of = (result: string) => m.values.find((v) => v.labels.result === result)?.value ?? 0;
    return { stored: of('stored'), failed: of('failed') };
  };

  it('stores the answering analyzer spectrum per phase and counts the silent one as failed, not as data', async () => {
    const r = await t.services.harmonicsPoller.pollOnce();
    expect(r).toEqual({ stored: 1, failed: 1 });
    expect(await failures()).toEqual({ stored: 1, failed: 1 });
    const rows = await polled(ANALYZER);
    const nowSec = t.clock.nowMs() / 1000;
    expect(rows.map((x) => [x.intervalSec, x.phase])).toEqual(
      [1, 2, 3].map((ph) => [nowSec - (nowSec % 600), ph]),
    );
    for (const x of rows) {
      expect(x.values).toHaveLength(24);
      // An ordinary supply: every order present, above zero, within the table's limit.
      x.values.forEach((v, i) => {
        expect(v, `h${i + 2}`).toBeGreaterThan(0);
        expect(v!, `h${i + 2}`).toBeLessThanOrEqual(EN50160_HARMONIC_LIMITS[i + 2]!);
      });
      // Voltage distortion is mostly the 5th.
      expect(x.values[3]).toBe(Math.max(...x.values.map(Number)));
    }
    expect(await polled(HUNG)).toEqual([]);
    expect(await polled(BREAKER)).toEqual([]);
  });

  it('keeps the rms of two polls in one interval', async () => {
    const first = await polled(ANALYZER);
    await t.services.harmonicsPoller.pollOnce();
    const rows = await polled(ANALYZER);
    expect(rows).toHaveLength(3);
    const stored = await t.services.database.db
      .withTables<TelemetryDB>()
      .selectFrom('harmonic_intervals')
      .select(['samples'])
      .where('device_id', '=', ids.get(ANALYZER)!)
      .execute();
    expect(stored.map((s) => s.samples)).toEqual([2, 2, 2]);
    // The rms of two values lies between them: at least the first one's share of the pair.
    for (const [k, x] of rows.entries())
      x.values.forEach((v, i) => expect(v!).toBeGreaterThanOrEqual(first[k]!.values[i]! / Math.SQRT2 - 1e-9));
    // The next interval gets its own row.
    t.clock.advance(600_000);
    await t.services.harmonicsPoller.pollOnce();
    expect(await polled(ANALYZER)).toHaveLength(6);
  });

  it('skips analyzers that went offline', async () => {
    const before = await failures();
    await sims.get(HUNG)!.stop();
    sims.delete(HUNG);
    await expect.poll(online, { timeout: 20_000 }).toEqual([ANALYZER]);
    expect(await t.services.harmonicsPoller.pollOnce()).toEqual({ stored: 1, failed: 0 });
    expect(await failures()).toEqual({ stored: before.stored + 1, failed: before.failed });
  });

  it('judges the polled intervals on the compliance page of the week', async () => {
    const week = mondayDate(mondayOf(t.clock.nowMs() / 1000, TZ), TZ);
    const token = alice.devices.find((d) => d.mac === ANALYZER)!.token;
    const r = await call(t.app, 'POST', '/api/read/precision/power-quality', { token, week }, alice);
    expect(r.statusCode).toBe(200);
    const w = r.json<{ data: PowerQualityWeek }>().data;
    expect(w.harmonics.verdict).toBe('PASS');
    // Two polled intervals: two polls in the first, two in the next.
    expect(w.harmonics.intervalsWithSpectrum).toBe(2);
    expect(w.harmonics.orders.find((o) => o.order === 5)).toMatchObject({
      verdict: 'PASS',
      assessed: 2,
      within: 2,
      achievedPct: 100,
    });
    expect(w.criteria.find((c) => c.criterion === 'HARMONICS')!.verdict).toBe('PASS');
  });

  it('prunes the spectra with the minutes', async () => {
    const telemetry = createTelemetryRepository(t.services.database, { tz: TZ });
    const keep = { minutesSec: 90 * 86400, quartersSec: 3650 * 86400, statusChangesSec: 730 * 86400 };
    expect((await telemetry.prune(keep, t.clock.nowMs())).harmonics).toBe(0);
    expect(await polled(ANALYZER)).toHaveLength(6);
    // 90 days later the first interval is older than the minutes' retention, the next one not yet.
    const removed = await telemetry.prune(keep, t.clock.nowMs() + 90 * 86400_000 - 300_000);
    expect(removed.harmonics).toBe(3);
    expect(await polled(ANALYZER)).toHaveLength(3);
  });
});
