import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelemetryDB } from '../db/schema.telemetry';
import { ENERGY_COLUMNS } from '../telemetry/columns';
import { weekBounds } from '../powerquality/power-quality-fns';
import { writeAnalyzerWeek } from '../powerquality/planted-week';
import { createTelemetryRepository, type QuarterRow } from '../telemetry/telemetry.repository';
import { DIALECTS, addDevice, assign, call, snapshot, type Client } from '../test/harness';
import { folderReportModel, type FolderAvailabilityModel, type FolderPeaksModel } from './report-folder';
import type { FolderPowerQualityModel } from './report-folder-pq';
import { reportFormats } from './report-pdf';
import { REPORT_WORDS } from './report-texts';
import {
  CAROLS,
  HALL_A,
  HALL_B,
  OFFICE,
  TZ,
  at,
  folder,
  folderWorld,
  leaf,
  pdfText,
  plain,
  tree,
  type FolderWorld,
} from './folder-testing';

type Listed = { folder: string[] | null; kind: string };
type Kept = { id: number; kind: string; folder: string[] | null; fromMs: number };

const MACS = [HALL_A, HALL_B, OFFICE] as const;

describe.each(DIALECTS)('folder max-demand and availability reports on $name', (dialect) => {
  let w: FolderWorld;
  const user = () => ({ userId: w.aliceId, login: 'alice' });
  const march = () => w.models().monthPeriod('2026-03');
  const write = (c: Client, path: string, body: object) =>
    call(w.t.app, 'POST', `/api/write${path}`, body, c);

  beforeAll(async () => {
    // 10 March 2026: the schedules below are made before March and its last week end.
    w = await folderWorld(dialect, Date.parse('2026-03-10T10:00:00Z'));
    const s = w.t.services;
    const ids = new Map((await s.devices.assigned(w.aliceId)).map((d) => [d.mac, d.id]));
    const quarter = (mac: string, tsSec: number, importWh: number): QuarterRow => ({
      deviceId: ids.get(mac)!,
      tsSec,
      values: ENERGY_COLUMNS.map((c) => (c === 'e_i_wh' ? importWh : 0)),
    });
    // Halls A and B peak in the same quarter (8 and 6 kW), the office alone later (10 kW).
    await createTelemetryRepository(s.database, { tz: TZ }).insertHistory(
      [
        quarter(HALL_A, at(2026, 3, 10, 9), 2000),
        quarter(HALL_B, at(2026, 3, 10, 9), 1500),
        quarter(OFFICE, at(2026, 3, 20, 9), 2500),
      ],
      [],
    );
    await s.devices.saveDetails(user(), w.tokenOf(HALL_A), 7, 10);
    // Hall A is offline twice in March (12 h and a day), Hall B never; the office never reported.
    const status = (mac: string, y: number, m: number, d: number, h: number, online: boolean) => ({
      device_id: ids.get(mac)!,
      at_ms: at(y, m, d, h) * 1000,
      status: online ? 1 : 0,
      connection: online ? 'WIFI' : null,
    });
    await s.database.db
      .withTables<TelemetryDB>()
      .insertInto('device_status_changes')
      .values([
        status(HALL_A, 2026, 2, 27, 0, true),
        status(HALL_A, 2026, 3, 5, 6, false),
        status(HALL_A, 2026, 3, 5, 18, true),
        status(HALL_A, 2026, 3, 20, 0, false),
        status(HALL_A, 2026, 3, 21, 0, true),
        status(HALL_B, 2026, 2, 27, 0, true),
      ])
      .execute();
  }, 60_000);
  afterAll(() => w.t.close());

  it('e-mails a monthly max-demand schedule and keeps a weekly availability one', async () => {
    const peaks = await write(w.alice, '/reports/schedules/folder', {
      folder: ['Plant'],
      kind: 'PEAKS',
      every: 'MONTHLY',
      delivery: 'KEEP',
      language: 'sk',
    });
    expect(peaks.statusCode, peaks.body).toBe(200);
    const availability = await write(w.alice, '/reports/schedules/folder', {
      folder: ['Plant'],
      kind: 'AVAILABILITY',
      every: 'WEEKLY',
      delivery: 'KEEP',
      language: 'de',
    });
    expect(availability.statusCode, availability.body).toBe(200);
    const listed = (await w.read(w.alice, '/reports/schedules/list', {})).json<{ data: Listed[] }>().data;
    expect(listed.map((l) => [l.folder, l.kind])).toEqual([
      [['Plant'], 'PEAKS'],
      [['Plant'], 'AVAILABILITY'],
    ]);

    // 1 April 01:00 local: March and the week of 23 to 29 March are due.
    w.t.clock.set(at(2026, 4, 1, 1) * 1000);
    await w.renewSessions();
    expect(await w.t.services.reports.runDue()).toBe(2);
    const kept = (await w.read(w.alice, '/reports/kept/list', {})).json<{ data: Kept[] }>().data;
    expect(kept.map((k) => [k.kind, k.folder, k.fromMs]).sort()).toEqual(
      [
        ['AVAILABILITY', ['Plant'], at(2026, 3, 23) * 1000],
        ['PEAKS', ['Plant'], at(2026, 3, 1) * 1000],
      ].sort(),
    );
    const file = async (kind: string) => {
      const r = await w.read(w.alice, '/reports/kept', { id: kept.find((k) => k.kind === kind)!.id });
      return { name: r.headers['content-disposition'], text: pdfText(r.rawPayload) };
    };
    const monthly = await file('PEAKS');
    expect(monthly.name).toContain('folder-peaks-Plant-2026-03.pdf');
    expect(monthly.text).toContain('Maximálny odber priečinka');
    expect(monthly.text).toContain('Súčasná špička priečinka');
    const weekly = await file('AVAILABILITY');
    expect(weekly.name).toContain('folder-availability-Plant-2026-03-23.pdf');
    expect(weekly.text).toContain('Verfügbarkeit eines Ordners');
    // The week of 23 to 29 March holds neither of Hall A's outages.
    expect(weekly.text.split('\n').find((l) => l.includes(HALL_A))).toMatch(/100,00\s?%/);
  });

  it('lists each device’s peak as its own max-demand report has it, with the coincident peak', async () => {
    const models = w.models();
    const m = await folderReportModel(
      { devices: w.t.services.devices, models },
      user(),
      ['Plant'],
      'PEAKS',
      march(),
      'en',
    );
    const body = m.body as FolderPeaksModel;
    expect(body.kind).toBe('FOLDER_PEAKS');
    for (const [i, mac] of MACS.entries()) {
      const own = await models.build(user(), w.tokenOf(mac), 'PEAKS', march(), 'en');
      if (own.body.kind !== 'PEAKS') throw new Error('kind');
      expect(body.devices[i]).toEqual({
        title: own.device.title,
        mac,
        mrkKw: own.body.mrkKw,
        rkKw: own.body.rkKw,
        peakKw: own.body.peakKw,
        peakAtMs: own.body.peakAtMs,
        avg12Kw: own.body.months.at(-1)!.avg12Kw,
        quartersAboveMrk: own.body.quartersAboveMrk,
        quartersAboveRk: own.body.quartersAboveRk,
      });
    }
    expect(body.devices.map((d) => [d.peakKw, d.peakAtMs])).toEqual([
      [8, at(2026, 3, 10, 9) * 1000],
      [6, at(2026, 3, 10, 9) * 1000],
      [10, at(2026, 3, 20, 9) * 1000],
    ]);
    expect(body.devices[0]).toMatchObject({ mrkKw: 7, rkKw: 10, quartersAboveMrk: 1, quartersAboveRk: 0 });
    // The sum adds peaks of different quarters; the folder drew at most 14 kW at once.
    expect(body.sumOfPeaksKw).toBe(24);
    expect([body.coincidentKw, body.coincidentAtMs]).toEqual([14, at(2026, 3, 10, 9) * 1000]);

    const r = await w.read(w.alice, '/reports/folder', {
      folder: ['Plant'],
      kind: 'PEAKS',
      month: '2026-03',
      language: 'en',
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-disposition']).toContain('folder-peaks-Plant-2026-03.pdf');
    const text = pdfText(r.rawPayload);
    const f = reportFormats('en', TZ);
    const line = (s: string) => text.split('\n').find((l) => l.includes(s)) ?? '';
    expect(text).toContain('Maximum demand of a folder');
    for (const d of body.devices) {
      expect(line(d.mac)).toContain(plain(f.kw(d.peakKw!)));
      expect(line(d.mac)).toContain(plain(f.dateTime(d.peakAtMs!)));
      expect(line(d.mac)).toContain(plain(f.kw(d.avg12Kw!)));
    }
    expect(line(HALL_A)).toContain(plain(f.kw(7)));
    expect(line(HALL_B)).toContain('not set');
    expect(line('Sum of the devices’ peaks')).toContain(plain(f.kw(24)));
    expect(line('Coincident peak of the folder')).toContain(
      `${plain(f.kw(14))} kW · ${plain(f.dateTime(at(2026, 3, 10, 9) * 1000))}`,
    );
    expect(text).not.toContain(CAROLS);
  });

  it('lists each device’s availability as its own report has it, with the folder’s totals', async () => {
    const models = w.models();
    const m = await folderReportModel(
      { devices: w.t.services.devices, models },
      user(),
      ['Plant'],
      'AVAILABILITY',
      march(),
      'en',
    );
    const body = m.body as FolderAvailabilityModel;
    expect(body.kind).toBe('FOLDER_AVAILABILITY');
    for (const [i, mac] of MACS.entries()) {
      const own = await models.build(user(), w.tokenOf(mac), 'AVAILABILITY', march(), 'en');
      if (own.body.kind !== 'AVAILABILITY') throw new Error('kind');
      const { onlineHours, offlineHours, share, outages } = own.body;
      expect(body.devices[i]).toEqual({
        title: own.device.title,
        mac,
        onlineHours,
        offlineHours,
        share,
        outages,
      });
    }
    const [a, b, o] = body.devices;
    expect([a!.offlineHours, a!.outages]).toEqual([36, 2]);
    expect([b!.share, b!.outages]).toEqual([1, 0]);
    expect(o!.share).toBeNull();
    expect(body.outages).toBe(2);
    expect(body.belowFull).toBe(1);
    expect(body.meanShare).toBeCloseTo((a!.share! + 1) / 2, 12);

    // The device's own report says how many outages it had.
    const own = pdfText(
      (
        await w.read(w.alice, '/reports', {
          token: w.tokenOf(HALL_A),
          kind: 'AVAILABILITY',
          month: '2026-03',
          language: 'en',
        })
      ).rawPayload,
    );
    expect(own).toMatch(/Outages: 2/);

    for (const language of ['en', 'sk', 'de'] as const) {
      const r = await w.read(w.alice, '/reports/folder', {
        folder: ['plant'],
        kind: 'AVAILABILITY',
        month: '2026-03',
        language,
      });
      expect(r.statusCode).toBe(200);
      const text = pdfText(r.rawPayload);
      const words = REPORT_WORDS[language];
      const f = reportFormats(language, TZ);
      const line = (s: string) => text.split('\n').find((l) => l.includes(s)) ?? '';
      expect(text).toContain(words.titles.FOLDER_AVAILABILITY);
      expect(line(HALL_A)).toContain(plain(f.hours(a!.offlineHours)));
      expect(line(HALL_A)).toContain(plain(f.share(a!.share)));
      expect(line(HALL_A)).toMatch(/\s2\s/);
      expect(line(OFFICE)).toContain('–');
      expect(line(words.meanShare)).toContain(plain(f.share(body.meanShare)));
      expect(line(words.belowFull)).toMatch(/\s1\s?\/\s?3$/);
      expect(line(`${words.total}  `)).toContain(plain(f.hours(body.offlineHours)));
    }
  });

  it('keeps the energy and cost report when the kind is left out', async () => {
    const body = { folder: ['Plant'], month: '2026-03', language: 'en' };
    const plainAsk = await w.read(w.alice, '/reports/folder', body);
    const energy = await w.read(w.alice, '/reports/folder', { ...body, kind: 'ENERGY_COST' });
    expect(plainAsk.headers['content-disposition']).toContain('folder-Plant-2026-03.pdf');
    expect(energy.headers['content-disposition']).toEqual(plainAsk.headers['content-disposition']);
    expect(pdfText(energy.rawPayload)).toEqual(pdfText(plainAsk.rawPayload));
    expect(pdfText(plainAsk.rawPayload)).toContain('Energy and cost of a folder');
  });

  it('answers a folder the caller lacks as absent for every kind and refuses other kinds', async () => {
    const before = await snapshot(w.t.services);
    const month = { month: '2026-03', language: 'en' };
    const timing = { every: 'MONTHLY', delivery: 'KEEP', language: 'en' };
    const absent = (await w.read(w.alice, '/reports/folder', { folder: ['Nowhere'], ...month })).json();
    for (const kind of ['PEAKS', 'AVAILABILITY', 'POWER_QUALITY']) {
      // Carol has a folder Plant of her own, but no Halls in it.
      for (const [c, folder] of [
        [w.carol, ['Plant', 'Halls']],
        [w.alice, ['Nowhere']],
      ] as const) {
        const download = await w.read(c, '/reports/folder', { folder, kind, ...month });
        expect(download.statusCode).toBe(404);
        expect(download.json()).toEqual(absent);
        const schedule = await write(c, '/reports/schedules/folder', { folder, kind, ...timing });
        expect(schedule.json()).toEqual(absent);
      }
      for (const bad of ['power_quality', 'peaks', 'FOLDER_PEAKS', 1, null]) {
        const body = { folder: ['Plant'], kind: bad };
        expect((await w.read(w.alice, '/reports/folder', { ...body, ...month })).statusCode).toBe(400);
        expect((await write(w.alice, '/reports/schedules/folder', { ...body, ...timing })).statusCode).toBe(
          400,
        );
      }
    }
    expect(await snapshot(w.t.services)).toEqual(before);
  });
});

describe.each(DIALECTS)('folder power-quality reports on $name', (dialect) => {
  const ANALYZER = '02-4D-50-00-00-35';
  const PLANTED_WEEK = '2026-03-23';
  let w: FolderWorld;
  const user = () => ({ userId: w.aliceId, login: 'alice' });
  const march = () => w.models().monthPeriod('2026-03');

  beforeAll(async () => {
    w = await folderWorld(dialect, Date.parse('2026-04-08T10:00:00Z'));
    const s = w.t.services;
    const id = await addDevice(s, ANALYZER, 3, 'Hall analyzer');
    await assign(s, w.aliceId, id, true);
    await w.renewSessions();
    // The analyzer in Plant › Halls; a folder Annex holds only the office meter.
    const [plant, office] = tree();
    const halls = plant!.children![0]!;
    halls.children!.push({ ...leaf('Hall analyzer', ANALYZER, 5), data: { id: 5, mac: ANALYZER, type: 3 } });
    const nodes = [plant!, office!, folder('Annex', [leaf('Office', OFFICE, 6)], 'f3')];
    await s.devices.saveHierarchy(user(), JSON.stringify({ nodes, tags: [] }));
    const repo = createTelemetryRepository(s.database, { tz: TZ });
    const device = { id, mac: ANALYZER };
    await writeAnalyzerWeek(repo, device, weekBounds('2026-03-16', TZ), false);
    await writeAnalyzerWeek(repo, device, weekBounds(PLANTED_WEEK, TZ), true);
  }, 120_000);
  afterAll(() => w.t.close());

  it('lists each analyzer’s weeks as its own report judges them, with the folder’s counts', async () => {
    const models = w.models();
    const m = await folderReportModel(
      { devices: w.t.services.devices, models },
      user(),
      ['Plant'],
      'POWER_QUALITY',
      march(),
      'en',
    );
    const body = m.body as FolderPowerQualityModel;
    expect(body.kind).toBe('FOLDER_POWER_QUALITY');
    const own = await models.build(user(), w.tokenOf(ANALYZER), 'POWER_QUALITY', march(), 'en');
    if (own.body.kind !== 'POWER_QUALITY') throw new Error('kind');
    const weeks = own.body.weeks;
    expect(body.analyzers).toEqual([
      {
        title: own.device.title,
        mac: ANALYZER,
        weeks: weeks.map((wk) => ({
          fromSec: wk.fromSec,
          toSec: wk.toSec,
          verdict: wk.verdict,
          criteria: wk.criteria.map(({ criterion, verdict, achievedPct }) => ({
            criterion,
            verdict,
            achievedPct,
          })),
        })),
      },
    ]);
    expect(body.notAssessed.map((d) => d.mac)).toEqual([HALL_A, HALL_B, OFFICE]);
    const verdicts = weeks.map((wk) => wk.verdict);
    expect(verdicts).toEqual(['NO_DATA', 'NO_DATA', 'NO_DATA', 'PASS', 'FAIL']);
    expect([body.weeks, body.assessed, body.passed, body.failed]).toEqual([5, 2, 1, 1]);
    const planted = weeks[4]!;
    for (const { criterion, failed } of body.failedByCriterion)
      expect(failed, criterion).toBe(
        planted.criteria.some((c) => c.criterion === criterion && c.verdict === 'FAIL') ? 1 : 0,
      );
    expect(body.failedByCriterion.find((c) => c.criterion === 'VOLTAGE_95')!.failed).toBe(1);

    for (const language of ['en', 'sk', 'de'] as const) {
      const r = await w.read(w.alice, '/reports/folder', {
        folder: ['plant'],
        kind: 'POWER_QUALITY',
        month: '2026-03',
        language,
      });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-disposition']).toContain('folder-power-quality-plant-2026-03.pdf');
      const text = pdfText(r.rawPayload);
      const { pq, folderPq, titles } = REPORT_WORDS[language];
      const f = reportFormats(language, TZ);
      const line = (s: string) => text.split('\n').find((l) => l.trimStart().startsWith(s)) ?? '';
      expect(text).toContain(titles.FOLDER_POWER_QUALITY);
      expect(line(folderPq.analyzers)).toMatch(/\s1$/);
      expect(line(folderPq.notAssessed)).toMatch(/\s3$/);
      expect(line(folderPq.weeksAssessed)).toMatch(/\s2$/);
      expect(line(folderPq.weeksPassed)).toMatch(/\s1$/);
      expect(line(folderPq.weeksFailed)).toMatch(/\s1$/);
      for (const mac of [HALL_A, HALL_B, OFFICE]) expect(text).toContain(`(${mac})`);
      expect(text).toContain(`${own.device.title} (${ANALYZER})`);
      expect(line(folderPq.weekVerdict)).toMatch(new RegExp(`${pq.verdict.PASS}\\s+${pq.verdict.FAIL}$`));
      // Each criterion's row: the failed count of the folder, then the analyzer's weeks in order.
      for (const c of planted.criteria) {
        const rows = text.split('\n').filter((l) => l.trimStart().startsWith(pq.criteria[c.criterion]));
        expect(rows, c.criterion).toHaveLength(2);
        const failed = body.failedByCriterion.find((x) => x.criterion === c.criterion)!.failed;
        expect(rows[0]).toMatch(new RegExp(`\\s${failed}\\s?/\\s?2$`));
        const cell =
          c.verdict === 'PASS' || c.verdict === 'FAIL'
            ? `${pq.verdict[c.verdict]} ${plain(f.num(c.achievedPct!, 2))} %`
            : pq.verdict[c.verdict];
        expect(rows[1], c.criterion).toMatch(new RegExp(`${cell.replace(/[.()]/g, '\\$&')}$`));
      }
      expect(text).not.toContain(CAROLS);
    }
  });

  it('answers a folder without an analyzer with a report that says so', async () => {
    const r = await w.read(w.alice, '/reports/folder', {
      folder: ['Annex'],
      kind: 'POWER_QUALITY',
      month: '2026-03',
      language: 'sk',
    });
    expect(r.statusCode).toBe(200);
    const text = pdfText(r.rawPayload).replace(/\s+/g, ' ');
    expect(text).toContain(REPORT_WORDS.sk.titles.FOLDER_POWER_QUALITY);
    expect(text).toContain(REPORT_WORDS.sk.folderPq.noAnalyzer);
    expect(text).toContain(`Office meter (${OFFICE})`);
  });

  it('keeps a weekly scheduled folder report of the week that fails', async () => {
    // Made during the planted week, so its end is the schedule's first period.
    w.t.clock.set(Date.parse('2026-03-27T08:00:00Z'));
    await w.renewSessions();
    const made = await call(
      w.t.app,
      'POST',
      '/api/write/reports/schedules/folder',
      {
        folder: ['Plant', 'Halls'],
        kind: 'POWER_QUALITY',
        every: 'WEEKLY',
        delivery: 'KEEP',
        language: 'de',
      },
      w.alice,
    );
    expect(made.statusCode, made.body).toBe(200);
    // Monday 30 March: the planted week is the last whole week.
    w.t.clock.set(Date.parse('2026-03-30T08:00:00Z'));
    await w.renewSessions();
    expect(await w.t.services.reports.runDue()).toBe(1);
    const kept = (await w.read(w.alice, '/reports/kept/list', {})).json<{ data: Kept[] }>().data;
    expect(kept.map((k) => [k.kind, k.folder, k.fromMs])).toEqual([
      ['POWER_QUALITY', ['Plant', 'Halls'], at(2026, 3, 23) * 1000],
    ]);
    const r = await w.read(w.alice, '/reports/kept', { id: kept[0]!.id });
    expect(r.headers['content-disposition']).toContain('folder-power-quality-Plant-Halls-2026-03-23.pdf');
    const text = pdfText(r.rawPayload);
    const { pq, folderPq, titles } = REPORT_WORDS.de;
    expect(text).toContain(titles.FOLDER_POWER_QUALITY);
    expect(text).toContain(`${pq.week} ${plain(reportFormats('de', TZ).date(at(2026, 3, 23) * 1000))}`);
    expect(text.split('\n').find((l) => l.trimStart().startsWith(folderPq.weekVerdict))).toMatch(
      new RegExp(`${pq.verdict.FAIL}$`),
    );
    expect(text.split('\n').find((l) => l.trimStart().startsWith(folderPq.weeksFailed))).toMatch(/\s1$/);
  });
});
