import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { createServices } from '../services';
import { createTelemetryRepository, type QuarterRow } from '../telemetry/telemetry.repository';
import { ENERGY_COLUMNS } from '../telemetry/columns';
import type { TelemetryDB } from '../db/schema.telemetry';
import { fromWall } from '../history/calendar';
import { workdayTariff } from '../tariffs/testing';
import { prepareSmtpServer, type TestSmtpServer } from '../test/smtpServer';
import { testReportModels } from './folder-testing';
import { reportFormats } from './report-pdf';
import { pdfText as rawPdfText } from './pdfText';

/** PDF text with no-break spaces read as spaces, as the number formats are compared below. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
const pdfText = (pdf: Buffer) => plain(rawPdfText(pdf));
const formats = (language: 'en' | 'sk' | 'de', tz: string) => {
  const f = reportFormats(language, tz);
  return {
    wh: (v: number) => plain(f.wh(v)),
    kw: (v: number) => plain(f.kw(v)),
    money: (c: number, cur: string) => plain(f.money(c, cur)),
    dateTime: (ms: number) => plain(f.dateTime(ms)),
    share: (v: number | null) => plain(f.share(v)),
  };
};

const TZ = 'Europe/Bratislava';
const MAC = '02-4D-50-00-00-07';
const OTHER_MAC = '02-4D-50-00-00-08';
const at = (y: number, m: number, d: number, h = 0, min = 0) => fromWall(TZ, y, m, d, h, min);

function quarter(deviceId: number, tsSec: number, importWh: number, exportWh = 0): QuarterRow {
  const values = ENERGY_COLUMNS.map((c) => (c === 'e_i_wh' ? importWh : c === 'e_e_wh' ? exportWh : 0));
  return { deviceId, tsSec, values };
}

type CostAnswer = {
  data: {
    rows: {
      t: number;
      importWh: number;
      exportWh: number;
      totalCents: number;
      bands: Record<string, number>;
    }[];
    total: {
      importWh: number;
      exportWh: number;
      totalCents: number;
      bands: Record<string, number>;
      vatCents: number;
    };
  };
};

describe.each(DIALECTS)('PDF reports on $name', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let alice: Client;
  let carol: Client;
  let aliceId: number;
  let token: string;
  let otherToken: string;
  let deviceId: number;

  beforeAll(async () => {
    smtp = await prepareSmtpServer();
    await smtp.start();
    t = await createTestApp(dialect, { env: { TZ, SMTP_URL: smtp.url } });
    aliceId = await addUser(t.services, 'alice', 'alice-secret');
    const carolId = await addUser(t.services, 'carol', 'carol-secret');
    deviceId = await addDevice(t.services, MAC, 4, 'Workshop Žilina');
    const otherId = await addDevice(t.services, OTHER_MAC, 4, 'Carol’s meter');
    await assign(t.services, aliceId, deviceId, true);
    await assign(t.services, carolId, otherId, true);
    t.clock.set(Date.parse('2026-04-10T10:00:00Z'));
    alice = await quickSession(t.services, aliceId);
    carol = await quickSession(t.services, carolId);
    token = alice.devices[0]!.token;
    otherToken = carol.devices[0]!.token;
    const q: QuarterRow[] = [];
    // March 2026 holds the spring-forward day (29 March has 23 hours).
    for (let d = 1; d <= 31; d++) {
      q.push(quarter(deviceId, at(2026, 3, d, 12), 100 + d, d % 3));
      q.push(quarter(deviceId, at(2026, 3, d, 3), 37, 0));
      q.push(quarter(deviceId, at(2026, 3, d, 23, 45), 11 + d, 5));
    }
    q.push(quarter(deviceId, at(2026, 3, 16, 9), 3000)); // 12 kW: the month's peak
    q.push(quarter(deviceId, at(2026, 3, 17, 9), 2400)); // 9.6 kW: above MRK only
    q.push(quarter(deviceId, at(2026, 3, 29, 3, 15), 2600)); // 10.4 kW, just after the clock change
    q.push(quarter(deviceId, at(2026, 1, 10, 12), 1600));
    q.push(quarter(deviceId, at(2026, 2, 10, 12), 2000));
    q.push(quarter(deviceId, at(2026, 4, 5, 12), 500));
    await createTelemetryRepository(t.services.database, { tz: TZ }).insertHistory(q, []);
    await t.services.database.db
      .withTables<TelemetryDB>()
      .insertInto('device_status_changes')
      .values([
        { device_id: deviceId, at_ms: at(2026, 2, 27) * 1000, status: 1, connection: 'WIFI' },
        { device_id: deviceId, at_ms: at(2026, 3, 5, 6) * 1000, status: 0, connection: null },
        { device_id: deviceId, at_ms: at(2026, 3, 5, 18) * 1000, status: 1, connection: 'WIFI' },
      ])
      .execute();
    const user = { userId: aliceId, login: 'alice' };
    await t.services.tariffs.save(user, token, workdayTariff('2026-01-01', 0.2, 0.1, 10, 5) as never);
    await t.services.tariffs.save(user, token, workdayTariff('2026-03-16', 0.3, 0.12, 12, 6) as never);
    await t.services.devices.saveDetails(user, token, 9, 10);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  const read = (c: Client, path: string, body: object) => call(t.app, 'POST', `/api/read${path}`, body, c);
  const write = (c: Client, method: 'POST' | 'DELETE', path: string, body: object) =>
    call(t.app, method, `/api/write${path}`, body, c);
  const march = { from: at(2026, 3, 1), to: at(2026, 4, 1) };
  const models = () => testReportModels(t, TZ);
  const user = () => ({ userId: aliceId, login: 'alice' });

  it('energy and cost of a DST month equal /energy/cost to the Wh and the cent', async () => {
    const m = models();
    const model = await m.build(user(), token, 'ENERGY_COST', m.monthPeriod('2026-03'), 'en');
    const day = (await read(alice, '/energy/cost', { token, ...march, period: 'DAY' })).json<CostAnswer>();
    const month = (
      await read(alice, '/energy/cost', { token, ...march, period: 'MONTH' })
    ).json<CostAnswer>();
    if (model.body.kind !== 'ENERGY_COST') throw new Error('kind');
    expect(model.body.days).toHaveLength(31);
    expect(model.body.days.map((d) => [d.dayMs, d.importWh, d.exportWh, d.cost?.totalCents])).toEqual(
      day.data.rows.map((r) => [r.t, r.importWh, r.exportWh, r.totalCents]),
    );
    expect(model.body.total).toEqual(month.data.total);
    expect(model.body.totalImportWh).toBe(month.data.total.importWh);
    // 29 March: 23 hours, its quarters still all counted.
    const d29 = model.body.days.find((d) => d.dayMs === at(2026, 3, 29) * 1000)!;
    expect(d29.importWh).toBe(129 + 37 + 40 + 2600);

    const pdf = await read(alice, '/reports', {
      token,
      kind: 'ENERGY_COST',
      month: '2026-03',
      language: 'en',
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf.rawPayload);
    const f = formats('en', TZ);
    expect(text).toContain('Energy and cost');
    expect(text).toContain('Workshop Žilina');
    for (const r of day.data.rows) {
      expect(text).toContain(f.wh(r.importWh));
      expect(text).toContain(f.money(r.totalCents, 'EUR'));
    }
    expect(text).toContain(f.wh(month.data.total.importWh));
    expect(text).toContain(f.money(month.data.total.totalCents, 'EUR'));
    expect(text).toContain(f.money(month.data.total.vatCents, 'EUR'));
    expect(text).toContain(f.money(month.data.total.bands.High!, 'EUR'));
  });

  it('writes Slovak and German reports with their letters and number formats', async () => {
    const month = (
      await read(alice, '/energy/cost', { token, ...march, period: 'MONTH' })
    ).json<CostAnswer>();
    for (const [language, words] of [
      ['sk', ['Energia a náklady', 'Časové pásmo', 'Zariadenie', 'Žilina', 'Spolu']],
      ['de', ['Energie und Kosten', 'Grundgebühr', 'Einspeisevergütung', 'Summe']],
    ] as const) {
      const pdf = await read(alice, '/reports', { token, kind: 'ENERGY_COST', month: '2026-03', language });
      const text = pdfText(pdf.rawPayload);
      for (const w of words) expect(text).toContain(w);
      const f = formats(language, TZ);
      // Decimal commas: 1,234.567 kWh reads 1 234,567 (sk) and 1.234,567 (de).
      expect(text).toContain(f.wh(month.data.total.importWh));
      expect(f.wh(1234567)).toBe(language === 'sk' ? '1 234,567' : '1.234,567');
      expect(text).toContain(f.money(month.data.total.totalCents, 'EUR'));
    }
    const sk = pdfText(
      (await read(alice, '/reports', { token, kind: 'PEAKS', month: '2026-03', language: 'sk' })).rawPayload,
    );
    expect(sk).toContain('Štvrťhodiny nad MRK');
    const de = pdfText(
      (await read(alice, '/reports', { token, kind: 'AVAILABILITY', month: '2026-03', language: 'de' }))
        .rawPayload,
    );
    expect(de).toContain('Verfügbarkeit');
  });

  it('max demand equals /energy/peaks and the 15-minute maximum chart', async () => {
    const m = models();
    const model = await m.build(user(), token, 'PEAKS', m.monthPeriod('2026-03'), 'en');
    if (model.body.kind !== 'PEAKS') throw new Error('kind');
    const peaks = (await read(alice, '/energy/peaks', { token, months: 2 })).json<{
      data: { months: { monthMs: number; peakKw: number; atMs: number; avg12Kw: number }[] };
    }>();
    const marchPeak = peaks.data.months.find((p) => p.monthMs === at(2026, 3, 1) * 1000)!;
    expect(model.body.months).toEqual([marchPeak]);
    expect(marchPeak.peakKw).toBe(12);
    expect(marchPeak.avg12Kw).toBe(Math.round(((6.4 + 8 + 12) / 3) * 1000) / 1000);
    const maxima = (
      await read(alice, '/energy', { token, data: 'E_I', ...march, period: '15MIN', maximum: true })
    ).json<{
      data: { E_I: { CUM: [number, number | null][] } };
    }>().data.E_I.CUM;
    const kw = maxima.map((p) => p[1] ?? 0);
    expect(model.body.peakKw).toBe(Math.max(...kw));
    expect(model.body.peakAtMs).toBe(marchPeak.atMs);
    expect(model.body.quartersAboveMrk).toBe(kw.filter((v) => v > 9).length);
    expect(model.body.quartersAboveMrk).toBe(3);
    expect(model.body.quartersAboveRk).toBe(2);
    const text = pdfText(
      (await read(alice, '/reports', { token, kind: 'PEAKS', month: '2026-03', language: 'en' })).rawPayload,
    );
    const f = formats('en', TZ);
    expect(text).toContain(`${f.kw(12)} kW · ${f.dateTime(marchPeak.atMs)}`);
    expect(text).toContain(f.kw(marchPeak.avg12Kw));
    expect(text).toMatch(/Quarter hours above MRK\s+3/);
    expect(text).toMatch(/Quarter hours above RK\s+2/);
  });

  it('availability equals /tools/monitoring per day', async () => {
    const m = models();
    const model = await m.build(user(), token, 'AVAILABILITY', m.monthPeriod('2026-03'), 'en');
    if (model.body.kind !== 'AVAILABILITY') throw new Error('kind');
    const mon = (await read(alice, '/tools/monitoring', { token, ...march, period: 'DAY' })).json<{
      data: { online: [number, number][]; offline: [number, number][] };
    }>();
    expect(model.body.days.map((d) => [d.dayMs, d.onlineHours, d.offlineHours])).toEqual(
      mon.data.online.map(([t, on], i) => [t, on, mon.data.offline[i]![1]]),
    );
    const d5 = model.body.days[4]!;
    expect(d5.offlineHours).toBe(12);
    expect(d5.share).toBe(0.5);
    // Offline from 06:00 to 18:00 on 5 March: one outage.
    expect(model.body.outages).toBe(1);
    const text = pdfText(
      (await read(alice, '/reports', { token, kind: 'AVAILABILITY', month: '2026-03', language: 'en' }))
        .rawPayload,
    );
    expect(text).toContain('50.00%');
    expect(text).toContain('Outages: 1');
    expect(text).toContain(formats('en', TZ).share(model.body.share));
  });

  it("answers another user's device and kept report as absent, and refuses bad input", async () => {
    const theirs = await read(alice, '/reports', {
      token: otherToken,
      kind: 'PEAKS',
      month: '2026-03',
      language: 'en',
    });
    const mine = await read(carol, '/reports', { token, kind: 'PEAKS', month: '2026-03', language: 'en' });
    expect(theirs.statusCode).toBe(404);
    expect(mine.statusCode).toBe(404);
    expect(theirs.json()).toEqual(mine.json());
    for (const body of [
      { token, kind: 'PEAKS', month: '2026-13', language: 'en' },
      { token, kind: 'PDF', month: '2026-03', language: 'en' },
      { token, kind: 'PEAKS', month: '2026-03', language: 'fr' },
      { token, kind: 'PEAKS', month: '2027-01', language: 'en' },
      { token, kind: 'PEAKS' },
    ]) {
      const r = await read(alice, '/reports', body);
      expect(r.statusCode).toBe(400);
    }
    for (const body of [
      { token, kind: 'PEAKS', every: 'DAILY', delivery: 'KEEP', language: 'en' },
      { token, kind: 'PEAKS', every: 'WEEKLY', delivery: 'EMAIL', language: 'en' },
      { token, kind: 'PEAKS', every: 'WEEKLY', delivery: 'KEEP', email: 'a@b.example', language: 'en' },
      { token, kind: 'PEAKS', every: 'WEEKLY', delivery: 'EMAIL', email: 'not-an-address', language: 'en' },
    ])
      expect((await write(alice, 'POST', '/reports/schedules', body)).statusCode).toBe(400);
    const r = await write(carol, 'POST', '/reports/schedules', {
      token,
      kind: 'PEAKS',
      every: 'WEEKLY',
      delivery: 'KEEP',
      language: 'en',
    });
    expect(r.statusCode).toBe(404);
    expect((await read(carol, '/reports/schedules/list', {})).json()).toEqual({ status: 'OK', data: [] });
  });

  it('runs schedules once per period across a restart, e-mails the PDF and keeps the other', async () => {
    const mk = (body: object) =>
      write(alice, 'POST', '/reports/schedules', { token, kind: 'ENERGY_COST', language: 'sk', ...body });
    const mail = (await mk({ every: 'MONTHLY', delivery: 'EMAIL', email: 'boss@factory.example' })).json<{
      data: { id: number };
    }>();
    const keep = (await mk({ every: 'MONTHLY', delivery: 'KEEP', kind: 'PEAKS', language: 'de' })).json<{
      data: { id: number };
    }>();
    const weekly = (
      await mk({ every: 'WEEKLY', delivery: 'KEEP', kind: 'AVAILABILITY', language: 'en' })
    ).json<{
      data: { id: number };
    }>();
    expect(mail.data.id).toBeGreaterThan(0);
    const list = (await read(alice, '/reports/schedules/list', {})).json<{ data: { id: number }[] }>();
    expect(list.data.map((s) => s.id)).toEqual([mail.data.id, keep.data.id, weekly.data.id]);

    // 10 April: March ended before the schedules were made; nothing is due.
    expect(await t.services.reports.runDue()).toBe(0);
    // Monday 13 April 00:30: the week of 6 to 12 April is due.
    t.clock.set(at(2026, 4, 13, 0, 30) * 1000);
    expect(await t.services.reports.runDue()).toBe(1);
    // 1 May 01:00 local: April's monthly reports and the week of 20 to 26 April.
    t.clock.set(at(2026, 5, 1, 1) * 1000);
    expect(await t.services.reports.runDue()).toBe(3);
    expect(await t.services.reports.runDue()).toBe(0);
    expect(smtp.messages).toHaveLength(1);
    const m = smtp.messages[0]!;
    expect(m.to).toBe('boss@factory.example');
    expect(m.subject).toContain('Energia a náklady');
    expect(m.attachments).toHaveLength(1);
    expect(m.attachments[0]!.contentType).toBe('application/pdf');
    expect(m.attachments[0]!.filename).toBe(`energy-cost-${MAC}-2026-04-01.pdf`);
    expect(pdfText(m.attachments[0]!.content)).toContain('Energia a náklady');

    // A restart: new services over the same database run nothing twice.
    const again = await createServices({
      config: t.services.config,
      database: t.services.database,
      clock: t.clock,
    });
    expect(await again.reports.runDue()).toBe(0);
    // Down from 2 May to 3 July: May's reports and the weeks between are missed; June's reports
    // and the week of 22 to 28 June come once.
    t.clock.set(at(2026, 7, 3, 9) * 1000);
    expect(await again.reports.runDue()).toBe(3);
    expect(await again.reports.runDue()).toBe(0);
    expect(await t.services.reports.runDue()).toBe(0);
    expect(smtp.messages).toHaveLength(2);
    expect(smtp.messages[1]!.attachments[0]!.filename).toBe(`energy-cost-${MAC}-2026-06-01.pdf`);
    const runs = await t.services.database.db
      .selectFrom('report_runs' as never)
      .select(['schedule_id' as never, 'period_sec' as never, 'state' as never])
      .execute();
    expect(runs).toHaveLength(7);

    alice = await quickSession(t.services, aliceId);
    carol = await quickSession(t.services, (await t.services.repos.users.findByLogin('carol'))!.id);
    const keptRes = await read(alice, '/reports/kept/list', {});
    if (keptRes.statusCode !== 200) throw new Error(keptRes.body);
    const kept = keptRes.json<{
      data: { id: number; kind: string; fromMs: number; toMs: number; language: string }[];
    }>();
    expect(kept.data.map((k) => [k.kind, k.fromMs, k.language])).toEqual([
      ['AVAILABILITY', at(2026, 6, 22) * 1000, 'en'],
      ['PEAKS', at(2026, 6, 1) * 1000, 'de'],
      ['AVAILABILITY', at(2026, 4, 20) * 1000, 'en'],
      ['PEAKS', at(2026, 4, 1) * 1000, 'de'],
      ['AVAILABILITY', at(2026, 4, 6) * 1000, 'en'],
    ]);
    const file = await read(alice, '/reports/kept', { id: kept.data[3]!.id });
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(pdfText(file.rawPayload)).toContain('Höchstlast und Leistung');
    // Another user's kept report is as absent as one that never was.
    const theirs = await read(carol, '/reports/kept', { id: kept.data[3]!.id });
    const none = await read(carol, '/reports/kept', { id: 999_999 });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual(none.json());
    expect((await read(carol, '/reports/kept/list', {})).json()).toEqual({ status: 'OK', data: [] });

    // Only the owner of a schedule removes it.
    expect((await write(carol, 'DELETE', '/reports/schedules', { id: mail.data.id })).statusCode).toBe(404);
    expect((await write(alice, 'DELETE', '/reports/schedules', { id: mail.data.id })).json()).toEqual({
      status: 'OK',
    });
    expect((await write(alice, 'DELETE', '/reports/schedules', { id: mail.data.id })).statusCode).toBe(404);
  });
});
