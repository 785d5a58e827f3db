import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENERGY_COLUMNS, MINUTE_COLUMNS } from '../telemetry/columns';
import {
  createTelemetryRepository,
  type MinuteRow,
  type QuarterRow,
} from '../telemetry/telemetry.repository';
import { fromWall } from '../history/calendar';
import { workdayTariff } from '../tariffs/testing';
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

const TZ = 'Europe/Bratislava';
const MACS = ['02-4D-50-00-00-04', '02-4D-50-00-00-05', '02-4D-50-00-00-07', '02-4D-50-00-00-08'];
const FOREIGN_MAC = '02-4D-50-00-00-06';
const at = (y: number, m: number, d: number, h = 0) => fromWall(TZ, y, m, d, h);
/** Three local days around the spring-forward day of 2026 (29 March has 23 hours). */
const FROM = at(2026, 3, 28);
const TO = at(2026, 3, 31);
/** The fall-back day of 2026: 03:00 local (01:00 UTC) becomes 02:00 again. */
const FALL_FROM = at(2026, 10, 25);
const FALL_TO = at(2026, 10, 26);
/** Three hours of minutes across the change: 02:00 local (01:00 UTC) becomes 03:00. */
const MIN_FROM = Date.parse('2026-03-29T00:00:00Z') / 1000;
const MIN_TO = MIN_FROM + 3 * 3600;

/** Import Wh of a quarter: uneven, so a shifted or lost quarter shows in every sum. */
const importWh = (k: number) => 11 + ((k * 37) % 97);

function quarter(deviceId: number, tsSec: number, k: number, scale: number): QuarterRow {
  const wh = importWh(k) * scale;
  const values = ENERGY_COLUMNS.map((c) => {
    if (c === 'e_i_wh') return wh * 3;
    if (c === 'e_e_wh') return 5 * scale;
    if (/^e_i_l[123]_wh$/.test(c)) return wh;
    if (c === 'q1_varh') return 7;
    return 0;
  });
  return { deviceId, tsSec, values };
}

function minute(deviceId: number, tsSec: number, k: number): MinuteRow {
  const values = MINUTE_COLUMNS.map((c) => {
    if (c.startsWith('u_l')) return 230 + Number(c[3]) + (k % 5) / 10;
    if (c.startsWith('p_l')) return 100 * Number(c[3]) + (k % 13);
    if (c.startsWith('f_')) return 50;
    return 1;
  });
  return { deviceId, agg: { minuteStartSec: tsSec, samples: 60, values } };
}

/** A CSV answer as its header and rows of fields (the files here have no quoted fields). */
function parseCsv(text: string): { header: string[]; rows: string[][] } {
  expect(text.endsWith('\r\n')).toBe(true);
  const [header, ...rows] = text
    .slice(0, -2)
    .split('\r\n')
    .map((l) => l.split(','));
  return { header: header!, rows };
}

/** Cells of a worksheet by reference: type attribute, and the value or inline text. */
function sheetCells(xml: string): Map<string, { t: string | null; v: string }> {
  const cells = new Map<string, { t: string | null; v: string }>();
  for (const m of xml.matchAll(/<c r="([A-Z]+\d+)"(?: s="\d+")?(?: t="(\w+)")?>(.*?)<\/c>/g)) {
    const inner = m[3]!;
    const v = /<v>(.*?)<\/v>/.exec(inner)?.[1] ?? /<t[^>]*>(.*?)<\/t>/.exec(inner)?.[1] ?? '';
    cells.set(m[1]!, { t: m[2] ?? null, v });
  }
  return cells;
}

describe.each(DIALECTS)('series exports on $name', (dialect) => {
  let t: TestApp;
  let alice: Client;
  let olga: Client;
  let token: (mac: string) => string;

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { TZ } });
    const s = t.services;
    const aliceId = await addUser(s, 'alice', 'alice-secret');
    const olgaId = await addUser(s, 'olga', 'olga-secret');
    const ids: number[] = [];
    for (const [i, mac] of MACS.entries()) {
      ids.push(await addDevice(s, mac, 4, ['Workshop', 'Office', 'Store', 'Yard'][i]));
      await assign(s, aliceId, ids[i]!, true);
    }
    await assign(s, olgaId, await addDevice(s, FOREIGN_MAC, 4, 'Olga'), true);
    t.clock.set(Date.parse('2026-11-15T10:00:00Z'));
    alice = await quickSession(s, aliceId);
    olga = await quickSession(s, olgaId);
    token = (mac) => alice.devices.find((d) => d.mac === mac)!.token;
    const quarters: QuarterRow[] = [];
    let k = 0;
    for (let ts = FROM; ts < TO; ts += 900, k++) {
      quarters.push(quarter(ids[0]!, ts, k, 1));
      quarters.push(quarter(ids[1]!, ts, k + 3, 2));
    }
    // The fall-back day as well: 25 October 2026 has 25 hours, 02:00 local twice.
    for (let ts = FALL_FROM; ts < FALL_TO; ts += 900, k++) quarters.push(quarter(ids[0]!, ts, k, 1));
    const minutes: MinuteRow[] = [];
    k = 0;
    for (let ts = MIN_FROM; ts < MIN_TO; ts += 60, k++) minutes.push(minute(ids[0]!, ts, k));
    await createTelemetryRepository(s.database, { tz: TZ }).insertHistory(quarters, minutes);
    const saved = await call(
      t.app,
      'POST',
      '/api/write/tariffs',
      { token: token(MACS[0]!), tariff: workdayTariff('2026-01-01', 0.213457, 0.1, 10, 5) },
      alice,
    );
    expect(saved.json()).toEqual({ status: 'OK' });
  }, 60_000);
  afterAll(() => t.close());

  const exportOf = (body: object, c: Client | null = alice) =>
    call(t.app, 'POST', '/api/read/exports', body, c);
  const energy = async (mac: string, period: string, from = FROM, to = TO) =>
    (
      await call(
        t.app,
        'POST',
        '/api/read/energy',
        { token: token(mac), data: 'E_I,E_E,Q1', from, to, period },
        alice,
      )
    ).json<{ data: Record<string, { CUM: [number, number][] } | undefined> }>().data;
  const cost = async (period: string, from = FROM, to = TO) =>
    (
      await call(t.app, 'POST', '/api/read/energy/cost', { token: token(MACS[0]!), from, to, period }, alice)
    ).json<{
      data: { rows: { t: number; totalCents: number; vatCents: number; bands: Record<string, number> }[] };
    }>().data;
  const csv = async (body: object) => {
    const res = await exportOf({ format: 'CSV', ...body });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    return { ...parseCsv(res.body), disposition: String(res.headers['content-disposition']) };
  };
  const utcOf = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

  it('exports hourly energy and cost equal to the energy and cost reads, to the Wh and the cent', async () => {
    const file = await csv({
      series: 'ENERGY',
      devices: [token(MACS[0]!)],
      data: 'E_I,E_E,Q1',
      period: 'HOUR',
      from: FROM,
      to: TO,
    });
    expect(file.disposition).toBe('attachment; filename="4D50000004-energy-hour-2026-03-28.csv"');
    expect(file.header).toEqual([
      'time_utc',
      'time_local [Europe/Bratislava]',
      'E_I [kWh]',
      'E_E [kWh]',
      'Q1 [kvarh]',
      'cost_High [EUR]',
      'cost_Low [EUR]',
      'cost_energy [EUR]',
      'cost_fixed [EUR]',
      'cost_capacity [EUR]',
      'cost_vat [EUR]',
      'export_credit [EUR]',
      'cost_total [EUR]',
    ]);
    const e = await energy(MACS[0]!, 'HOUR');
    const c = await cost('HOUR');
    // 24 + 23 + 24 local hours: the spring-forward day has no hour 2.
    expect(file.rows).toHaveLength(71);
    expect(file.rows.filter((r) => r[1]!.startsWith('2026-03-29'))).toHaveLength(23);
    expect(file.rows.map((r) => r[0])).toEqual(e.E_I!.CUM.map(([ms]) => utcOf(ms)));
    expect(file.rows.map((r) => Math.round(Number(r[2]) * 1000))).toEqual(
      e.E_I!.CUM.map(([, kwh]) => Math.round(kwh * 1000)),
    );
    expect(file.rows.map((r) => Number(r[3]))).toEqual(e.E_E!.CUM.map(([, v]) => v));
    expect(file.rows.map((r) => Number(r[4]))).toEqual(e.Q1!.CUM.map(([, v]) => v));
    expect(c.rows.map((r) => utcOf(r.t))).toEqual(file.rows.map((r) => r[0]));
    expect(file.rows.map((r) => Math.round(Number(r[12]) * 100))).toEqual(c.rows.map((r) => r.totalCents));
    expect(file.rows.map((r) => Math.round(Number(r[10]) * 100))).toEqual(c.rows.map((r) => r.vatCents));
    expect(file.rows.map((r) => Math.round(Number(r[5]) * 100))).toEqual(
      c.rows.map((r) => r.bands.High ?? 0),
    );
    // Both times of the hours around the change: 01:00 +01:00 is 00:00 UTC, the next hour 03:00 +02:00.
    const byUtc = new Map(file.rows.map((r) => [r[0], r[1]]));
    expect(byUtc.get('2026-03-29T00:00:00Z')).toBe('2026-03-29T01:00:00+01:00');
    expect(byUtc.get('2026-03-29T01:00:00Z')).toBe('2026-03-29T03:00:00+02:00');
    expect(byUtc.get('2026-03-27T23:00:00Z')).toBe('2026-03-28T00:00:00+01:00');
  });

  it('exports the 25 hours of the fall-back day, 02:00 local twice with its two offsets', async () => {
    const file = await csv({
      series: 'ENERGY',
      devices: [token(MACS[0]!)],
      data: 'E_I',
      period: 'HOUR',
      from: FALL_FROM,
      to: FALL_TO,
    });
    expect(file.rows).toHaveLength(25);
    expect(file.rows.slice(2, 5).map((r) => [r[0], r[1]])).toEqual([
      ['2026-10-25T00:00:00Z', '2026-10-25T02:00:00+02:00'],
      ['2026-10-25T01:00:00Z', '2026-10-25T02:00:00+01:00'],
      ['2026-10-25T02:00:00Z', '2026-10-25T03:00:00+01:00'],
    ]);
    expect(file.rows[0]!.slice(0, 2)).toEqual(['2026-10-24T22:00:00Z', '2026-10-25T00:00:00+02:00']);
    expect(file.rows.at(-1)![1]).toBe('2026-10-25T23:00:00+01:00');
    const e = await energy(MACS[0]!, 'HOUR', FALL_FROM, FALL_TO);
    expect(file.rows.map((r) => Number(r[2]))).toEqual(e.E_I!.CUM.map(([, v]) => v));
    // Cost per hour beside it, each hour priced by its own local hour.
    const c = await cost('HOUR', FALL_FROM, FALL_TO);
    expect(file.rows.map((r) => Math.round(Number(r.at(-1)) * 100))).toEqual(c.rows.map((r) => r.totalCents));
  });

  it('exports local days with both times, the short day included, equal to the day reads', async () => {
    const file = await csv({
      series: 'ENERGY',
      devices: [token(MACS[0]!)],
      data: ['E_I'],
      period: 'DAY',
      from: FROM,
      to: TO,
    });
    expect(file.rows.map((r) => [r[0], r[1]])).toEqual([
      ['2026-03-27T23:00:00Z', '2026-03-28T00:00:00+01:00'],
      ['2026-03-28T23:00:00Z', '2026-03-29T00:00:00+01:00'],
      ['2026-03-29T22:00:00Z', '2026-03-30T00:00:00+02:00'],
    ]);
    const e = await energy(MACS[0]!, 'DAY');
    const c = await cost('DAY');
    expect(file.rows.map((r) => Number(r[2]))).toEqual(e.E_I!.CUM.map(([, v]) => v));
    expect(file.rows.map((r) => Math.round(Number(r.at(-1)) * 100))).toEqual(c.rows.map((r) => r.totalCents));
    // The short day holds 92 quarters, its neighbours 96.
    const quarters = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => importWh(from + i) * 3).reduce((a, b) => a + b, 0) / 1000;
    expect(file.rows.map((r) => Number(r[2]))).toEqual([
      quarters(0, 96),
      quarters(96, 92),
      quarters(188, 96),
    ]);
  });

  it('exports a year as one interval with the year row of the cost', async () => {
    const from = at(2026, 1, 1);
    const to = at(2027, 1, 1);
    const file = await csv({
      series: 'ENERGY',
      devices: [token(MACS[0]!)],
      data: 'E_I',
      period: 'YEAR',
      from,
      to,
    });
    expect(file.rows.map((r) => [r[0], r[1]])).toEqual([
      ['2025-12-31T23:00:00Z', '2026-01-01T00:00:00+01:00'],
    ]);
    const months = (await energy(MACS[0]!, 'MONTH', from, to)).E_I!.CUM;
    const wh = months.reduce((a, [, kwh]) => a + Math.round(kwh * 1000), 0);
    expect(Math.round(Number(file.rows[0]![2]) * 1000)).toBe(wh);
    const year = await cost('YEAR', from, to);
    expect(Math.round(Number(file.rows[0]!.at(-1)) * 100)).toBe(year.rows[0]!.totalCents);
  });

  it('exports minute profiles per phase and their sum with units, across the change of time', async () => {
    const file = await csv({
      series: 'PROFILE',
      devices: [token(MACS[0]!)],
      data: 'P,U,F',
      from: MIN_FROM,
      to: MIN_TO,
    });
    expect(file.header).toEqual([
      'time_utc',
      'time_local [Europe/Bratislava]',
      'P_L1 [W]',
      'P_L2 [W]',
      'P_L3 [W]',
      'P_total [W]',
      'U_L1 [V]',
      'U_L2 [V]',
      'U_L3 [V]',
      'F [Hz]',
    ]);
    expect(file.rows).toHaveLength(180);
    const profile = (
      await call(
        t.app,
        'POST',
        '/api/read/profile',
        { token: token(MACS[0]!), data: 'P,U', from: MIN_FROM, to: MIN_TO },
        alice,
      )
    ).json<{ data: Record<string, Record<string, [number, number][]>> }>().data;
    expect(file.rows.map((r) => Number(r[2]))).toEqual(profile.P!.L1!.map(([, v]) => v));
    expect(file.rows.map((r) => Number(r[5]))).toEqual(profile.P!.cumulative!.map(([, v]) => v));
    expect(file.rows.map((r) => Number(r[8]))).toEqual(profile.U!.L3!.map(([, v]) => v));
    const byUtc = new Map(file.rows.map((r) => [r[0], r[1]]));
    expect(byUtc.get('2026-03-29T00:59:00Z')).toBe('2026-03-29T01:59:00+01:00');
    expect(byUtc.get('2026-03-29T01:00:00Z')).toBe('2026-03-29T03:00:00+02:00');
  });

  it('exports many devices side by side, each column named by its serial; one without a tariff has no cost', async () => {
    const file = await csv({
      series: 'ENERGY',
      devices: [token(MACS[0]!), token(MACS[1]!), token(MACS[2]!)],
      data: 'E_I',
      period: 'HOUR',
      from: FROM,
      to: TO,
    });
    expect(file.disposition).toBe('attachment; filename="3-devices-energy-hour-2026-03-28.csv"');
    expect(file.header.slice(0, 3)).toEqual([
      'time_utc',
      'time_local [Europe/Bratislava]',
      '4D50000004 E_I [kWh]',
    ]);
    expect(file.header.slice(-2)).toEqual(['4D50000004 cost_total [EUR]', '4D50000005 E_I [kWh]']);
    const a = (await energy(MACS[0]!, 'HOUR')).E_I!.CUM;
    const b = (await energy(MACS[1]!, 'HOUR')).E_I!.CUM;
    expect(file.rows.map((r) => Number(r[2]))).toEqual(a.map(([, v]) => v));
    expect(file.rows.map((r) => Number(r.at(-1)))).toEqual(b.map(([, v]) => v));
  });

  it('writes an Office Open XML workbook with numeric cells equal to the CSV', async () => {
    const body = {
      series: 'ENERGY',
      devices: [token(MACS[0]!)],
      data: 'E_I,E_E',
      period: 'DAY',
      from: FROM,
      to: TO,
    };
    const text = await csv(body);
    const res = await exportOf({ ...body, format: 'XLSX' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="4D50000004-energy-day-2026-03-28.xlsx"',
    );
    expect([...res.rawPayload.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    const files = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(files).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
      'xl/worksheets/sheet2.xml',
    ]);
    const read = (name: string) => strFromU8(files[name]!);
    const types = read('[Content_Types].xml');
    expect(types).toContain(
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>',
    );
    expect(types).toContain(
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>',
    );
    expect(read('_rels/.rels')).toContain(
      'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"',
    );
    expect(read('xl/workbook.xml')).toContain(
      '<sheet name="Data" sheetId="1" r:id="rId1"/><sheet name="About" sheetId="2" r:id="rId2"/>',
    );
    expect(read('xl/_rels/workbook.xml.rels')).toContain(
      'Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"',
    );
    for (const name of Object.keys(files))
      expect(read(name).startsWith('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>')).toBe(true);

    const cells = sheetCells(read('xl/worksheets/sheet1.xml'));
    text.header.forEach((h, i) =>
      expect(cells.get(`${String.fromCharCode(65 + i)}1`)).toEqual({ t: 'inlineStr', v: h }),
    );
    expect(text.header).toContain('cost_total [EUR]');
    text.rows.forEach((row, r) => {
      expect(cells.get(`A${r + 2}`)).toEqual({ t: 'inlineStr', v: row[0] });
      expect(cells.get(`B${r + 2}`)).toEqual({ t: 'inlineStr', v: row[1] });
      row.slice(2).forEach((v, c) => {
        const cell = cells.get(`${String.fromCharCode(67 + c)}${r + 2}`);
        // Numbers are numeric cells (no type attribute means a number) holding the CSV's value.
        expect(cell).toEqual({ t: null, v });
        expect(Number.isFinite(Number(cell!.v))).toBe(true);
      });
    });
    const about = sheetCells(read('xl/worksheets/sheet2.xml'));
    expect(about.get('A1')).toEqual({ t: 'inlineStr', v: 'Time zone' });
    expect(about.get('B1')).toEqual({ t: 'inlineStr', v: 'Europe/Bratislava' });
    expect([...about.values()].map((c) => c.v)).toEqual(
      expect.arrayContaining(['4D50000004', 'Workshop', 'EUR']),
    );
  });

  it("answers a device that is not the user's exactly like a missing one, and changes nothing", async () => {
    const foreign = olga.devices[0]!.token;
    const before = await snapshot(t.services);
    const base = { series: 'ENERGY', data: 'E_I', period: 'DAY', from: FROM, to: TO, format: 'CSV' };
    const denied = await exportOf({ ...base, devices: [token(MACS[0]!), foreign] });
    // A token of the right form that names no device of the user's.
    const own = token(MACS[0]!);
    const missing = await exportOf({
      ...base,
      devices: [own, `${own.startsWith('A') ? 'B' : 'A'}${own.slice(1)}`],
    });
    expect(denied.statusCode).toBe(404);
    expect(denied.json()).toEqual({ status: 'ERROR', code: 605, message: 'Device not found' });
    expect(missing.statusCode).toBe(denied.statusCode);
    expect(missing.json()).toEqual(denied.json());
    expect((await exportOf({ ...base, devices: [token(MACS[0]!)] }, olga)).json()).toMatchObject({
      code: 605,
    });
    expect((await exportOf({ ...base, devices: [token(MACS[0]!)] }, null)).json()).toMatchObject({
      code: 601,
    });
    expect(await snapshot(t.services)).toEqual(before);
  });

  it('answers 610 when no device has data in the range', async () => {
    const res = await exportOf({
      series: 'PROFILE',
      data: 'U',
      devices: [token(MACS[2]!), token(MACS[3]!)],
      from: FROM,
      to: TO,
      format: 'XLSX',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 'ERROR', code: 610 });
  });

  it.each([
    ['an unknown format', { format: 'PDF' }],
    ['an unknown series', { series: 'POWER' }],
    ['no device', { devices: [] }],
    ['a device twice', { devices: 'twice' }],
    ['an energy kind in a profile', { series: 'PROFILE', data: 'Q1' }],
    ['a profile quantity in energy', { data: 'U' }],
    ['an energy export without its period', { period: undefined }],
    ['a range that runs backwards', { from: TO, to: FROM }],
    ['a range over 367 days', { from: FROM - 400 * 86400 }],
    ['quarter hours over 93 days', { period: '15MIN', from: TO - 100 * 86400 }],
    [
      'more values than one export may hold',
      {
        series: 'PROFILE',
        data: 'U,I,P,Q,S,E_I,E_E,Q_E,S_E,F,PF,DF_U,DF_I',
        devices: 'all',
        from: MIN_FROM - 86400,
        to: MIN_FROM + 86400,
      },
    ],
  ])('refuses %s with 600 and changes nothing', async (_name, change) => {
    const before = await snapshot(t.services);
    const body: Record<string, unknown> = {
      series: 'ENERGY',
      devices: [token(MACS[0]!)],
      data: 'E_I',
      period: 'HOUR',
      from: FROM,
      to: TO,
      format: 'CSV',
      ...change,
    };
    if (body.devices === 'twice') body.devices = [token(MACS[0]!), token(MACS[0]!)];
    if (body.devices === 'all') body.devices = MACS.map(token);
    const res = await exportOf(body);
    expect(res.statusCode).toBe(400);
    expect(res.json(), res.body).toMatchObject({ status: 'ERROR', code: 600 });
    expect(await snapshot(t.services)).toEqual(before);
  });
});
