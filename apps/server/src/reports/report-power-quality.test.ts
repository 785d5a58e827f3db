import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PowerQualityWeek, PqCriterionResult } from '@meterportal/protocol';
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
import { createTelemetryRepository } from '../telemetry/telemetry.repository';
import { weekBounds } from '../powerquality/power-quality-fns';
import { writeAnalyzerSpectra, writeAnalyzerWeek } from '../powerquality/planted-week';
import { harmonicsRepository } from '../powerquality/harmonics.repository';
import { fromWall } from '../history/calendar';
import { weeksEndingIn } from './report-model';
import { reportFormats } from './report-pdf';
import { REPORT_WORDS } from './report-texts';
import { pdfText as rawPdfText } from './pdfText';

const TZ = 'Europe/Bratislava';
const ANALYZER = '02-4D-50-00-00-03';
const INDUSTRIAL = '02-4D-50-00-00-04';
const GOOD_WEEK = '2026-03-16';
const PLANTED_WEEK = '2026-03-23';

const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
const pdfText = (pdf: Buffer) => plain(rawPdfText(pdf));

describe('weeks of a report period', () => {
  const month = (y: number, m: number) => ({
    fromSec: fromWall(TZ, y, m, 1),
    toSec: fromWall(TZ, y, m + 1, 1),
    every: 'MONTH' as const,
  });
  const later = Date.parse('2027-01-01T00:00:00Z') / 1000;
  it.each([
    // March 2026 begins on a Sunday: the week of 23 February ends on 1 March and belongs to March.
    [2026, 3, ['2026-02-23', '2026-03-02', '2026-03-09', '2026-03-16', '2026-03-23']],
    // February 2026 begins on a Sunday too; its last Sunday is 22 February.
    [2026, 2, ['2026-01-26', '2026-02-02', '2026-02-09', '2026-02-16']],
    // November 2026 begins on a Sunday and ends on a Monday.
    [2026, 11, ['2026-10-26', '2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23']],
  ])('lists the weeks whose Sunday falls in %i-%i', (y, m, weeks) => {
    expect(weeksEndingIn(month(y, m), TZ, later)).toEqual(weeks);
  });
  it('gives a weekly period its own week and leaves out weeks not begun', () => {
    const week = { ...weekBounds(PLANTED_WEEK, TZ), every: 'WEEK' as const };
    expect(weeksEndingIn(week, TZ, later)).toEqual([PLANTED_WEEK]);
    expect(weeksEndingIn(month(2026, 3), TZ, fromWall(TZ, 2026, 3, 16, 12))).toEqual([
      '2026-02-23',
      '2026-03-02',
      '2026-03-09',
      '2026-03-16',
    ]);
  });
});

describe.each(DIALECTS)('EN 50160 report of an analyzer on $name', (dialect) => {
  let t: TestApp;
  let owner: Client;
  let stranger: Client;
  let token: string;
  let industrialToken: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { TZ } });
    const alice = await addUser(t.services, 'alice', 'alice-secret');
    const carol = await addUser(t.services, 'carol', 'carol-secret');
    const analyzerId = await addDevice(t.services, ANALYZER, 3, 'Substation analyzer');
    const industrialId = await addDevice(t.services, INDUSTRIAL, 4, 'Workshop');
    t.clock.set(Date.parse('2026-04-08T10:00:00Z'));
    await assign(t.services, alice, analyzerId, true);
    await assign(t.services, alice, industrialId, true);
    owner = await quickSession(t.services, alice);
    stranger = await quickSession(t.services, carol);
    token = owner.devices.find((d) => d.mac === ANALYZER)!.token;
    industrialToken = owner.devices.find((d) => d.mac === INDUSTRIAL)!.token;
    const repo = createTelemetryRepository(t.services.database, { tz: TZ });
    const device = { id: analyzerId, mac: ANALYZER };
    await writeAnalyzerWeek(repo, device, weekBounds(GOOD_WEEK, TZ), false);
    await writeAnalyzerWeek(repo, device, weekBounds(PLANTED_WEEK, TZ), true);
    const harmonics = harmonicsRepository(t.services.database);
    await writeAnalyzerSpectra(harmonics, device, weekBounds(GOOD_WEEK, TZ));
    const planted = weekBounds(PLANTED_WEEK, TZ);
    await writeAnalyzerSpectra(harmonics, device, planted, planted.fromSec);
  }, 120_000);
  afterAll(() => t.close());

  const read = (c: Client, path: string, body: object) => call(t.app, 'POST', `/api/read${path}`, body, c);
  const compliance = async (week: string) =>
    (await read(owner, '/precision/power-quality', { token, week })).json<{ data: PowerQualityWeek }>().data;

  /** The lines of the week's section: from its heading to the next week's heading. */
  function section(text: string, language: 'en' | 'sk' | 'de', wk: PowerQualityWeek): string[] {
    const f = reportFormats(language, TZ);
    const w = REPORT_WORDS[language];
    const head = plain(`${w.pq.week} ${f.date(wk.fromSec * 1000)} – ${f.date(wk.toSec * 1000 - 1)}`);
    const lines = text.split('\n');
    const start = lines.findIndex((l) => l.includes(head));
    expect(start, head).toBeGreaterThanOrEqual(0);
    const end = lines.findIndex((l, i) => i > start && l.includes(`${w.pq.week} `) && l.includes(': '));
    return lines.slice(start, end === -1 ? undefined : end);
  }

  /** Each criterion's row holds its verdict, achieved share and span; each worst interval its time and value. */
  function expectWeek(lines: string[], language: 'en' | 'sk' | 'de', wk: PowerQualityWeek) {
    const f = reportFormats(language, TZ);
    const w = REPORT_WORDS[language];
    const q = w.pq;
    expect(lines[0]).toContain(`: ${q.verdict[wk.verdict]}`);
    const rowOf = (c: PqCriterionResult) =>
      lines.find((l) => l.trimStart().startsWith(q.criteria[c.criterion]));
    for (const c of wk.criteria) {
      const row = rowOf(c);
      expect(row, c.criterion).toBeDefined();
      expect(row).toContain(q.verdict[c.verdict]);
      if (c.verdict === 'NOT_MEASURED') continue;
      const achieved = c.achievedPct === null ? '–' : plain(`${f.num(c.achievedPct, 2)} %`);
      expect(row, c.criterion).toContain(achieved);
      expect(row).toContain(plain(`${f.date(c.spanFromSec * 1000)} – ${f.date(c.spanToSec * 1000 - 1)}`));
      if (c.week) expect(row).toContain(q.yearToDate);
      for (const x of c.worst) {
        const value = plain(`${f.num(x.value, c.unit === 'Hz' ? 3 : 2)} ${c.unit}`);
        const at = plain(f.dateTime(x.startSec * 1000));
        expect(
          lines.some((l) => l.includes(at) && l.includes(value) && l.includes(x.phase ?? '–')),
          `${c.criterion} ${at} ${value}`,
        ).toBe(true);
      }
    }
    expectHarmonics(lines, language, wk);
  }

  /** The harmonic table: a row per order with its limit, verdict, worst phase's share and highest interval. */
  function expectHarmonics(lines: string[], language: 'en' | 'sk' | 'de', wk: PowerQualityWeek) {
    const f = reportFormats(language, TZ);
    const q = REPORT_WORDS[language].pq;
    const h = wk.harmonics;
    expect(lines.some((l) => l.includes(`${q.harmonics}: ${q.verdict[h.verdict]}`))).toBe(true);
    if (h.intervalsWithSpectrum === 0) {
      expect(lines.join(' ')).toContain(q.harmonicsNoData);
      return;
    }
    const coverage = plain(`${f.num(h.intervalsWithSpectrum, 0)} `);
    expect(lines.some((l) => l.includes(coverage) && l.includes(plain(`${f.num(h.coveragePct, 2)} %`)))).toBe(
      true,
    );
    for (const o of h.orders) {
      const limit = plain(`≤ ${f.num(o.limitPct, 1)} %`);
      const row = lines.find((l) => l.trimStart().startsWith(`${o.order} `) && l.includes(limit));
      expect(row, `order ${o.order}`).toBeDefined();
      expect(row).toContain(q.verdict[o.verdict]);
      expect(row).toContain(plain(`${f.num(o.achievedPct!, 2)} % ${o.worstPhase}`));
      expect(row).toContain(plain(f.dateTime(o.worst!.startSec * 1000)));
      expect(row).toContain(plain(`${f.num(o.worst!.value, 2)} % ${o.worst!.phase}`));
    }
  }

  it('shows each week of the month with the numbers of the compliance page', async () => {
    const good = await compliance(GOOD_WEEK);
    const planted = await compliance(PLANTED_WEEK);
    expect(planted.verdict).toBe('FAIL');
    const r = await read(owner, '/reports', {
      token,
      kind: 'POWER_QUALITY',
      month: '2026-03',
      language: 'en',
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-disposition']).toContain('power-quality-02-4D-50-00-00-03-2026-03-01.pdf');
    const text = pdfText(r.rawPayload);
    expect(text).toContain('Power quality (EN 50160)');
    expectWeek(section(text, 'en', good), 'en', good);
    expectWeek(section(text, 'en', planted), 'en', planted);
    // The failing sag and its worst interval, as the page shows them.
    const sag = planted.criteria.find((c) => c.criterion === 'VOLTAGE_95')!;
    expect(sag.verdict).toBe('FAIL');
    // The planted distortion fails the 5th harmonic; the ordinary week passes every order.
    expect(planted.harmonics.orders.find((o) => o.order === 5)!.verdict).toBe('FAIL');
    expect(good.harmonics.verdict).toBe('PASS');
    expect(section(text, 'en', planted).join('\n')).toContain('Supply voltage, 10-minute means');
    // The frequency is counted over the year to date: 1 January to the end of the week.
    expect(text).toContain('year to date 1 Jan 2026 – 29 Mar 2026');
    // The weeks of March without data are there too, without a verdict of pass.
    const empty = await compliance('2026-03-02');
    expect(empty.verdict).toBe('NO_DATA');
    expect(section(text, 'en', empty)[0]).toContain(': No data');
  });

  it('writes the section in Slovak and German', async () => {
    const planted = await compliance(PLANTED_WEEK);
    for (const language of ['sk', 'de'] as const) {
      const r = await read(owner, '/reports', { token, kind: 'POWER_QUALITY', month: '2026-03', language });
      expect(r.statusCode).toBe(200);
      const text = pdfText(r.rawPayload);
      expect(text).toContain(REPORT_WORDS[language].titles.POWER_QUALITY);
      expectWeek(section(text, language, planted), language, planted);
    }
  });

  it('refuses the kind for a meter that is not an analyzer and answers a stranger as absent', async () => {
    const body = { kind: 'POWER_QUALITY', month: '2026-03', language: 'en' };
    const other = await read(owner, '/reports', { ...body, token: industrialToken });
    expect(other.statusCode).toBe(400);
    const schedule = await call(
      t.app,
      'POST',
      '/api/write/reports/schedules',
      { token: industrialToken, kind: 'POWER_QUALITY', every: 'WEEKLY', delivery: 'KEEP', language: 'en' },
      owner,
    );
    expect(schedule.statusCode).toBe(400);
    expect((await read(owner, '/reports/schedules/list', {})).json()).toEqual({ status: 'OK', data: [] });
    expect((await read(stranger, '/reports', { ...body, token })).statusCode).toBe(404);
  });

  it('keeps a weekly scheduled report of the planted week that fails', async () => {
    // Made during the planted week, so its end is the schedule's first period.
    t.clock.set(Date.parse('2026-03-27T08:00:00Z'));
    const made = await call(
      t.app,
      'POST',
      '/api/write/reports/schedules',
      { token, kind: 'POWER_QUALITY', every: 'WEEKLY', delivery: 'KEEP', language: 'en' },
      owner,
    );
    expect(made.statusCode).toBe(200);
    // Monday 30 March: the planted week is the last whole week.
    t.clock.set(Date.parse('2026-03-30T08:00:00Z'));
    expect(await t.services.reports.runDue()).toBe(1);
    t.clock.set(Date.parse('2026-04-08T10:00:00Z'));
    const kept = (await read(owner, '/reports/kept/list', {})).json<{ data: { id: number }[] }>().data;
    expect(kept).toHaveLength(1);
    const pdf = await read(owner, '/reports/kept', { id: kept[0]!.id });
    const planted = await compliance(PLANTED_WEEK);
    const text = pdfText(pdf.rawPayload);
    expectWeek(section(text, 'en', planted), 'en', planted);
    expect(text).not.toContain('Week 16 Mar 2026');
  });
});
