import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PowerQualityWeek } from '@meterportal/protocol';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  call,
  createTestApp,
  quickSession,
  snapshot,
  type Client,
  type TestApp,
} from '../test/harness';
import { analyzerMinutes } from '@meterportal/simulator';
import { createTelemetryRepository, type MinuteRow } from '../telemetry/telemetry.repository';
import { addSample, finishMinute, frameChannels, newMinuteBucket } from '../telemetry/minute-aggregate';
import { weekBounds, yearToDateBounds } from './power-quality-fns';
import {
  mondayDate,
  mondayOf,
  plantDemoPowerQualityWeek,
  writeAnalyzerSpectra,
  writeAnalyzerWeek,
} from './planted-week';
import { harmonicsRepository } from './harmonics.repository';
import { historyRepository } from '../history/history.repository';

const TZ = 'Europe/Bratislava';
const ANALYZER = '02-4D-50-00-00-03';
const INDUSTRIAL = '02-4D-50-00-00-04';
/** An ordinary week, and the week of the spring-forward change with the planted disturbances. */
const GOOD_WEEK = '2026-03-16';
const PLANTED_WEEK = '2026-03-23';
/** A third analyzer's February week whose Tuesday ran at 50.8 Hz (outside 50 Hz ± 1 %). */
const OFF_FREQUENCY_ANALYZER = '02-4D-50-00-00-23';
const OFF_FREQUENCY_WEEK = '2026-02-09';
const OFF_FREQUENCY_DAY = { fromSec: 86400, toSec: 2 * 86400 };

/** An analyzer's simulated minutes of a week, through the store's history path, with an off-frequency day. */
async function writeOffFrequencyWeek(
  repo: ReturnType<typeof createTelemetryRepository>,
  device: { id: number; mac: string },
  week: { fromSec: number; toSec: number },
): Promise<void> {
  const rows: MinuteRow[] = [];
  for (const m of analyzerMinutes(device.mac, week.fromSec, week.toSec)) {
    if (m.samples.length === 0) continue;
    const at = m.minuteSec - week.fromSec;
    const off = at >= OFF_FREQUENCY_DAY.fromSec && at < OFF_FREQUENCY_DAY.toSec;
    const bucket = newMinuteBucket(m.minuteSec);
    for (const s of m.samples) addSample(bucket, frameChannels(off ? { ...s, F: 50.8 } : s));
    rows.push({ deviceId: device.id, agg: finishMinute(bucket) });
  }
  await repo.insertHistory([], rows);
}

describe.each(DIALECTS)('EN 50160 power quality on $name', (dialect) => {
  let t: TestApp;
  let owner: Client;
  let viewer: Client;
  let stranger: Client;
  let token: string;
  let viewerToken: string;
  let industrialToken: string;
  let offToken: string;
  let repo: ReturnType<typeof createTelemetryRepository>;

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { TZ } });
    const alice = await addUser(t.services, 'alice', 'alice-secret');
    const bob = await addUser(t.services, 'bob', 'bob-secret-1');
    const carol = await addUser(t.services, 'carol', 'carol-secret');
    const analyzerId = await addDevice(t.services, ANALYZER, 3, 'Substation analyzer');
    const offId = await addDevice(t.services, OFF_FREQUENCY_ANALYZER, 3, 'Island analyzer');
    const industrialId = await addDevice(t.services, INDUSTRIAL, 4, 'Workshop');
    t.clock.set(Date.parse('2026-04-08T10:00:00Z'));
    await assign(t.services, alice, analyzerId, true);
    await assign(t.services, alice, industrialId, true);
    await assign(t.services, alice, offId, true);
    await assign(t.services, bob, analyzerId, false, 86400 * 30);
    owner = await quickSession(t.services, alice);
    viewer = await quickSession(t.services, bob);
    stranger = await quickSession(t.services, carol);
    token = owner.devices.find((d) => d.mac === ANALYZER)!.token;
    offToken = owner.devices.find((d) => d.mac === OFF_FREQUENCY_ANALYZER)!.token;
    industrialToken = owner.devices.find((d) => d.type === 4)!.token;
    viewerToken = viewer.devices[0]!.token;
    repo = createTelemetryRepository(t.services.database, { tz: TZ });
    const device = { id: analyzerId, mac: ANALYZER };
    await writeAnalyzerWeek(repo, device, weekBounds(GOOD_WEEK, TZ), false);
    await writeAnalyzerWeek(repo, device, weekBounds(PLANTED_WEEK, TZ), true);
    const harmonics = harmonicsRepository(t.services.database);
    await writeAnalyzerSpectra(harmonics, device, weekBounds(GOOD_WEEK, TZ));
    const planted = weekBounds(PLANTED_WEEK, TZ);
    await writeAnalyzerSpectra(harmonics, device, planted, planted.fromSec);
    // The industrial meter has minutes too: its absence is not for want of data.
    await writeAnalyzerWeek(repo, { id: industrialId, mac: INDUSTRIAL }, weekBounds(GOOD_WEEK, TZ), false);
    const off = { id: offId, mac: OFF_FREQUENCY_ANALYZER };
    await writeOffFrequencyWeek(repo, off, weekBounds(OFF_FREQUENCY_WEEK, TZ));
    await writeAnalyzerWeek(repo, off, weekBounds(GOOD_WEEK, TZ), false);
  }, 120_000);
  afterAll(() => t.close());

  const read = (c: Client | null, body: object) =>
    call(t.app, 'POST', '/api/read/precision/power-quality', body, c);
  const verdictOf = async (week: string, c: Client = owner, tok = token) => {
    const r = await read(c, { token: tok, week });
    expect(r.statusCode).toBe(200);
    return r.json<{ data: PowerQualityWeek }>().data;
  };
  const crit = (w: PowerQualityWeek, c: string) => w.criteria.find((x) => x.criterion === c)!;

  it('passes an ordinary week of the simulated analyzer', async () => {
    const w = await verdictOf(GOOD_WEEK);
    expect(w.verdict).toBe('PASS');
    expect(w).toMatchObject({ timeZone: TZ, nominalV: 230, nominalHz: 50 });
    expect(w.fromSec).toBe(Date.parse('2026-03-15T23:00:00Z') / 1000);
    for (const c of [
      'VOLTAGE_95',
      'VOLTAGE_ALWAYS',
      'FREQUENCY_995',
      'FREQUENCY_ALWAYS',
      'THD_95',
      'UNBALANCE_95',
      'HARMONICS',
    ])
      expect(crit(w, c).verdict, c).toBe('PASS');
    for (const c of ['FLICKER', 'DIPS']) expect(crit(w, c).verdict, c).toBe('NOT_MEASURED');
    // Every harmonic order 2 to 25 is judged on the week's spectra and passes.
    expect(w.harmonics.orders.map((o) => o.order)).toEqual(Array.from({ length: 24 }, (_, i) => i + 2));
    for (const o of w.harmonics.orders)
      expect([o.order, o.verdict], String(o.order)).toEqual([o.order, 'PASS']);
    expect(w.harmonics.intervalsInWeek).toBe(1008);
    expect(w.harmonics.coveragePct).toBeGreaterThan(97);
    expect(w.coverage.intervalsInWeek).toBe(1008);
    // The simulated supply has a short power cut on some days; nearly the whole week is there.
    expect(w.coverage.pct).toBeGreaterThan(97);
    expect(crit(w, 'VOLTAGE_95').worst).toHaveLength(5);
  });

  it('fails the planted week on the sag and the distortion, in the 167-hour week of the clock change', async () => {
    const w = await verdictOf(PLANTED_WEEK);
    expect(w.verdict).toBe('FAIL');
    expect(w.coverage.intervalsInWeek).toBe(1002);
    const sag = crit(w, 'VOLTAGE_95');
    expect(sag.verdict).toBe('FAIL');
    expect(sag.achievedPct).toBeLessThan(95);
    expect(crit(w, 'VOLTAGE_ALWAYS').verdict).toBe('FAIL');
    // The worst interval lies in the sag: Wednesday 25 March 08:00-20:00 local, about 184 V.
    const worst = sag.worst[0]!;
    expect(worst.startSec).toBeGreaterThanOrEqual(Date.parse('2026-03-25T07:00:00Z') / 1000);
    expect(worst.startSec).toBeLessThan(Date.parse('2026-03-25T19:00:00Z') / 1000);
    expect(worst.value).toBeLessThan(195.5);
    const thd = crit(w, 'THD_95');
    expect(thd.verdict).toBe('FAIL');
    expect(thd.worst[0]!.value).toBeGreaterThan(8);
    // The distorted days push the 5th harmonic above its 6 % on every phase for 28.6 % of the week.
    expect(crit(w, 'HARMONICS').verdict).toBe('FAIL');
    expect(w.harmonics.verdict).toBe('FAIL');
    const fifth = w.harmonics.orders.find((o) => o.order === 5)!;
    expect(fifth).toMatchObject({ verdict: 'FAIL', limitPct: 6 });
    expect(fifth.achievedPct).toBeLessThan(75);
    expect(fifth.worst!.value).toBeGreaterThan(6);
    expect(fifth.worst!.startSec).toBeGreaterThanOrEqual(Date.parse('2026-03-25T23:00:00Z') / 1000);
    expect(fifth.worst!.startSec).toBeLessThan(Date.parse('2026-03-27T23:00:00Z') / 1000);
    for (const order of [2, 3, 4, 7, 11, 13])
      expect(w.harmonics.orders.find((o) => o.order === order)!.verdict, String(order)).toBe('PASS');
    // A three-phase sag leaves the supply balanced.
    expect(crit(w, 'UNBALANCE_95').verdict).toBe('PASS');
    expect(crit(w, 'FREQUENCY_995').verdict).toBe('PASS');
  });

  it("judges frequency over the year to date and keeps the week's own share", async () => {
    const good = await verdictOf(GOOD_WEEK);
    const planted = await verdictOf(PLANTED_WEEK);
    const ytd = yearToDateBounds(PLANTED_WEEK, TZ);
    expect(ytd.fromSec).toBe(Date.parse('2025-12-31T23:00:00Z') / 1000);
    const f = crit(planted, 'FREQUENCY_995');
    expect([f.spanFromSec, f.spanToSec]).toEqual([ytd.fromSec, planted.toSec]);
    // The year so far holds both stored weeks of this analyzer.
    expect(f.assessed).toBe(planted.coverage.minutesStored + good.coverage.minutesStored);
    expect(f.week).toMatchObject({ assessed: planted.coverage.minutesStored, achievedPct: 100 });
    expect(crit(planted, 'FREQUENCY_ALWAYS').assessed).toBe(f.assessed);
    expect(crit(planted, 'VOLTAGE_95')).toMatchObject({ spanFromSec: planted.fromSec, week: null });
  });

  it('fails a clean week on frequency when the year held an off-frequency day', async () => {
    const w = await verdictOf(GOOD_WEEK, owner, offToken);
    const f = crit(w, 'FREQUENCY_995');
    // 1,440 of about 20,000 minutes at 50.8 Hz: about 93 % within, the year fails.
    expect(f.verdict).toBe('FAIL');
    expect(f.achievedPct).toBeLessThan(99.5);
    expect(f.assessed - f.within).toBe(1440);
    expect(f.week).toMatchObject({ achievedPct: 100 });
    expect(w.verdict).toBe('FAIL');
    // No spectra were polled from this analyzer: its harmonics read no data, never a pass.
    expect(w.harmonics).toMatchObject({ verdict: 'NO_DATA', intervalsWithSpectrum: 0, coveragePct: 0 });
    expect(w.harmonics.orders.every((o) => o.verdict === 'NO_DATA')).toBe(true);
    expect(crit(w, 'HARMONICS')).toMatchObject({ verdict: 'NO_DATA', achievedPct: null });
    // The off-frequency week itself lists its worst minutes at 50.8 Hz.
    const feb = crit(await verdictOf(OFF_FREQUENCY_WEEK, owner, offToken), 'FREQUENCY_995');
    expect(feb.worst[0]!.value).toBeCloseTo(50.8, 3);
    expect(feb.assessed - feb.within).toBe(1440);
  });

  it("keeps the year's frequency counts when the minutes are pruned", async () => {
    const before = crit(await verdictOf(GOOD_WEEK, owner, offToken), 'FREQUENCY_995');
    // Minutes kept 30 days from 8 April: February's minutes go, its counts stay.
    await repo.prune(
      { minutesSec: 30 * 86400, quartersSec: 3650 * 86400, statusChangesSec: 730 * 86400 },
      t.clock.nowMs(),
    );
    const feb = weekBounds(OFF_FREQUENCY_WEEK, TZ);
    const history = historyRepository(t.services.database);
    const offId = (
      await t.services.database.db
        .selectFrom('devices')
        .select('id')
        .where('mac', '=', OFF_FREQUENCY_ANALYZER)
        .executeTakeFirstOrThrow()
    ).id;
    expect((await history.minuteColumns(offId, feb.fromSec, feb.toSec, ['f_avg'])).tsSec).toHaveLength(0);
    const after = crit(await verdictOf(GOOD_WEEK, owner, offToken), 'FREQUENCY_995');
    expect(after).toEqual(before);
  });

  it('answers a user the analyzer is assigned to (not its owner) alike', async () => {
    expect(await verdictOf(PLANTED_WEEK, viewer, viewerToken)).toEqual(await verdictOf(PLANTED_WEEK));
  });

  it('says NO_DATA for a past week without stored minutes', async () => {
    const w = await verdictOf('2026-03-02');
    expect(w.verdict).toBe('NO_DATA');
    expect(w.coverage).toMatchObject({ minutesStored: 0, pct: 0 });
  });

  it('answers another device type, another user and no session like a missing device', async () => {
    const missing = await read(owner, { token: `${'x'.repeat(20)}|1999999999`, week: GOOD_WEEK });
    expect(missing.statusCode).toBe(404);
    const industrial = await read(owner, { token: industrialToken, week: GOOD_WEEK });
    const strangers = await read(stranger, { token, week: GOOD_WEEK });
    for (const r of [industrial, strangers]) {
      expect(r.statusCode).toBe(missing.statusCode);
      expect(r.json()).toEqual(missing.json());
    }
    expect((await read(null, { token, week: GOOD_WEEK })).statusCode).toBe(401);
  });

  it('refuses a bad week with a 4xx and changes nothing', async () => {
    const before = await snapshot(t.services);
    const notBegun = mondayDate(mondayOf(Date.parse('2026-04-08T10:00:00Z') / 1000, TZ, -1), TZ);
    expect(notBegun).toBe('2026-04-13');
    // A Tuesday, no such day, another format, a number, an empty text, a week not yet begun, none.
    for (const week of ['2026-03-17', '2026-02-30', '16.03.2026', 20260316, '', notBegun, undefined]) {
      const r = await read(owner, { token, week });
      expect(r.statusCode, String(week)).toBeGreaterThanOrEqual(400);
      expect(r.statusCode, String(week)).toBeLessThan(500);
      expect(r.json()).toMatchObject({ status: 'ERROR' });
    }
    expect(await snapshot(t.services)).toEqual(before);
  }, 60_000);

  it('plants the demo week three weeks back once, and not again on the next start', async () => {
    const id = await addDevice(t.services, '02-4D-50-00-00-13', 3, 'Second analyzer');
    const history = historyRepository(t.services.database);
    const harmonics = harmonicsRepository(t.services.database);
    const deps = {
      repository: createTelemetryRepository(t.services.database, { tz: TZ }),
      history,
      harmonics,
      clock: t.clock,
      tz: TZ,
    };
    const first = await plantDemoPowerQualityWeek(deps, [{ id, mac: '02-4D-50-00-00-13' }]);
    expect(first).toBeGreaterThan(9000);
    expect(await plantDemoPowerQualityWeek(deps, [{ id, mac: '02-4D-50-00-00-13' }])).toBe(0);
    const { fromSec, toSec } = weekBounds('2026-03-16', TZ);
    expect(mondayOf(t.clock.nowMs() / 1000, TZ, 3)).toBe(fromSec);
    const stored = await history.minuteColumns(id, fromSec, toSec, ['f_avg']);
    expect(stored.tsSec.length).toBe(first);
    // Its spectra too, once: 1,008 intervals of three phases less the power cuts.
    const spectra = await harmonics.spectra(id, fromSec, toSec);
    expect(spectra.length).toBeGreaterThan(2900);
    await plantDemoPowerQualityWeek(deps, [{ id, mac: '02-4D-50-00-00-13' }]);
    expect(await harmonics.spectra(id, fromSec, toSec)).toEqual(spectra);
  });

  it('takes the current week, begun but not over', async () => {
    const w = await verdictOf('2026-04-06');
    expect(w.coverage.minutesStored).toBe(0);
  });
});
