import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, snapshot, type Client } from '../test/harness';
import { prepareSmtpServer, type TestSmtpServer } from '../test/smtpServer';
import { reportFormats } from './report-pdf';
import type { ReportsDB } from './reports.schema';
import {
  HALL_A,
  HALL_B,
  OFFICE,
  TZ,
  at,
  expectPlantMarch,
  folder,
  folderWorld,
  leaf,
  marchImportWh,
  pdfText,
  plain,
  type FolderWorld,
} from './folder-testing';

type Listed = {
  id: number;
  folder: string[] | null;
  title: string;
  missing: boolean;
  token: string | null;
  kind: string;
};
type Kept = { id: number; folder: string[] | null; mac: string | null; title: string; fromMs: number };

describe.each(DIALECTS)('scheduled folder reports on $name', (dialect) => {
  let w: FolderWorld;
  let smtp: TestSmtpServer;
  let weeklyId = 0;

  beforeAll(async () => {
    smtp = await prepareSmtpServer();
    await smtp.start();
    // 10 March 2026: the schedules are made before March and its last week end.
    w = await folderWorld(dialect, Date.parse('2026-03-10T10:00:00Z'), { SMTP_URL: smtp.url });
  }, 60_000);
  afterAll(async () => {
    await w.t.close();
    await smtp.stop();
  });

  const write = (c: Client, method: 'POST' | 'PUT' | 'DELETE', path: string, body: object) =>
    call(w.t.app, method, `/api/write${path}`, body, c);
  const schedules = async (c: Client) =>
    (await w.read(c, '/reports/schedules/list', {})).json<{ data: Listed[] }>().data;
  const kept = async (c: Client) => (await w.read(c, '/reports/kept/list', {})).json<{ data: Kept[] }>().data;
  const runs = () =>
    w.t.services.database.db
      .withTables<ReportsDB>()
      .selectFrom('report_runs')
      .select(['schedule_id', 'period_sec', 'state', 'error'])
      .orderBy('period_sec')
      .execute();

  it('e-mails a monthly folder report whose sums are /energy/cost and keeps a weekly one', async () => {
    const mail = await write(w.alice, 'POST', '/reports/schedules/folder', {
      folder: ['Plant'],
      every: 'MONTHLY',
      delivery: 'EMAIL',
      email: 'plant@factory.example',
      language: 'sk',
    });
    expect(mail.statusCode, mail.body).toBe(200);
    const weekly = await write(w.alice, 'POST', '/reports/schedules/folder', {
      folder: ['plant', 'HALLS'],
      every: 'WEEKLY',
      delivery: 'KEEP',
      language: 'de',
    });
    weeklyId = weekly.json<{ data: { id: number } }>().data.id;
    const listed = await schedules(w.alice);
    expect(listed.map((s) => [s.folder, s.title, s.missing, s.token, s.kind])).toEqual([
      [['Plant'], 'Plant', false, null, 'ENERGY_COST'],
      [['plant', 'HALLS'], 'plant / HALLS', false, null, 'ENERGY_COST'],
    ]);
    expect(await schedules(w.carol)).toEqual([]);

    // 1 April 01:00 local: March and the week of 23 to 29 March are due, once.
    w.t.clock.set(at(2026, 4, 1, 1) * 1000);
    await w.renewSessions();
    expect(await w.t.services.reports.runDue()).toBe(2);
    expect(await w.t.services.reports.runDue()).toBe(0);

    expect(smtp.messages).toHaveLength(1);
    const m = smtp.messages[0]!;
    expect(m.to).toBe('plant@factory.example');
    expect(m.subject).toBe('Správa: Energia a náklady priečinka · Plant');
    expect(m.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['folder-Plant-2026-03.pdf', 'application/pdf'],
    ]);
    const text = pdfText(m.attachments[0]!.content);
    await expectPlantMarch(w, text, 'sk');

    // The weekly report is kept, in German, with the week's numbers of /energy/cost.
    const list = await kept(w.alice);
    expect(list.map((k) => [k.folder, k.mac, k.title, k.fromMs])).toEqual([
      [['plant', 'HALLS'], null, 'plant / HALLS', at(2026, 3, 23) * 1000],
    ]);
    const file = await w.read(w.alice, '/reports/kept', { id: list[0]!.id });
    expect(file.headers['content-disposition']).toContain('folder-plant-HALLS-2026-03-23.pdf');
    const week = pdfText(file.rawPayload);
    const de = reportFormats('de', TZ);
    const weekLines = week.split('\n');
    const weekLine = (s: string) => weekLines.find((l) => l.includes(s)) ?? '';
    expect(week).toContain('Energie und Kosten eines Ordners');
    const weekWh = (k: number) => [23, 24, 25, 26, 27, 28, 29].reduce((s, d) => s + marchImportWh(k, d), 0);
    const aWeek = await w.cost(HALL_A, at(2026, 3, 23), at(2026, 3, 30), 'DAY');
    expect(aWeek.importWh).toBe(weekWh(0));
    expect(weekLine(HALL_A)).toContain(plain(de.wh(weekWh(0))));
    expect(weekLine(HALL_A)).toContain(plain(de.money(aWeek.totalCents, 'EUR')));
    expect(weekLine(HALL_B)).toContain(plain(de.wh(weekWh(1))));
    expect(weekLine('Summe  ')).toContain(plain(de.wh(weekWh(0) + weekWh(1))));
    expect(week).not.toContain(OFFICE);
    // Another user's kept folder report is as absent as one that never was.
    const theirs = await w.read(w.carol, '/reports/kept', { id: list[0]!.id });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual((await w.read(w.carol, '/reports/kept', { id: 999_999 })).json());
  });

  it('makes nothing for a renamed folder, shows it missing, and reports again once edited', async () => {
    const user = { userId: w.aliceId, login: 'alice' };
    const renamed = [
      folder(
        'Plant',
        [
          folder('Workshops', [leaf('Hall A', HALL_A, 1), leaf('Hall B', HALL_B, 2)], 'f2'),
          leaf('Office', OFFICE, 3),
        ],
        'f1',
      ),
    ];
    await w.t.services.devices.saveHierarchy(user, JSON.stringify({ nodes: renamed, tags: [] }));
    // Monday 6 April: the week of 30 March to 5 April finds no folder Plant / Halls.
    w.t.clock.set(at(2026, 4, 6, 0, 30) * 1000);
    await w.renewSessions();
    expect(await w.t.services.reports.runDue()).toBe(0);
    const week = at(2026, 3, 30);
    expect((await runs()).filter((r) => r.period_sec === week)).toEqual([
      { schedule_id: weeklyId, period_sec: week, state: 'GONE', error: 'Folder not found' },
    ]);
    expect((await schedules(w.alice)).map((s) => [s.title, s.missing])).toEqual([
      ['Plant', false],
      ['plant / HALLS', true],
    ]);
    expect(await kept(w.alice)).toHaveLength(1);

    // Pointed at the renamed folder, the schedule makes the week it missed on the next pass.
    const edit = { id: weeklyId, every: 'WEEKLY', delivery: 'KEEP', language: 'en' };
    const ok = await write(w.alice, 'PUT', '/reports/schedules', { ...edit, folder: ['Plant', 'Workshops'] });
    expect(ok.json()).toEqual({ status: 'OK' });
    expect((await schedules(w.alice)).map((s) => [s.title, s.missing])).toEqual([
      ['Plant', false],
      ['Plant / Workshops', false],
    ]);
    expect(await w.t.services.reports.runDue()).toBe(1);
    const made = (await kept(w.alice))[0]!;
    expect([made.title, made.fromMs]).toEqual(['Plant / Workshops', week * 1000]);
    const text = pdfText((await w.read(w.alice, '/reports/kept', { id: made.id })).rawPayload);
    expect(text).toContain('Energy and cost of a folder');
    expect(text).toContain('Folder: Plant / Workshops');
  });

  it('answers a folder the caller lacks as absent and refuses bad input, changing nothing', async () => {
    const before = await snapshot(w.t.services);
    const create = (c: Client, body: object) => write(c, 'POST', '/reports/schedules/folder', body);
    const base = { every: 'MONTHLY', delivery: 'KEEP', language: 'en' };
    const nowhere = await create(w.alice, { ...base, folder: ['Nowhere'] });
    const device = await create(w.alice, { ...base, folder: ['Plant', 'Office'] });
    // Carol has a Plant of her own, without Alice's subfolders.
    const carols = await create(w.carol, { ...base, folder: ['Plant', 'Workshops'] });
    expect([nowhere.statusCode, device.statusCode, carols.statusCode]).toEqual([404, 404, 404]);
    expect(carols.json()).toEqual(nowhere.json());
    expect(carols.json()).toMatchObject({ status: 'ERROR', code: 605 });
    for (const body of [
      { ...base, folder: [] },
      { ...base, folder: 'Plant' },
      { ...base, folder: ['x'.repeat(25)] },
      { ...base, folder: ['Plant'], every: 'DAILY' },
      { ...base, folder: ['Plant'], delivery: 'EMAIL' },
      { ...base, folder: ['Plant'], email: 'a@b.example' },
      { ...base, folder: ['Plant'], delivery: 'EMAIL', email: 'not-an-address' },
      { ...base, folder: ['Plant'], language: 'fr' },
    ])
      expect((await create(w.alice, body)).statusCode, JSON.stringify(body)).toBe(400);

    // Changes: another user's schedule is absent like a missing one; a folder the caller lacks too.
    const edit = { id: weeklyId, every: 'MONTHLY', delivery: 'KEEP', language: 'sk' };
    const theirs = await write(w.carol, 'PUT', '/reports/schedules', edit);
    const none = await write(w.alice, 'PUT', '/reports/schedules', { ...edit, id: 999_999 });
    expect([theirs.statusCode, none.statusCode]).toEqual([404, 404]);
    expect(theirs.json()).toEqual(none.json());
    const lacking = await write(w.alice, 'PUT', '/reports/schedules', {
      ...edit,
      folder: ['Plant', 'Halls'],
    });
    expect(lacking.json()).toEqual(nowhere.json());
    for (const body of [
      { ...edit, id: 0 },
      { ...edit, every: 'DAILY' },
      { ...edit, delivery: 'EMAIL' },
      { ...edit, folder: [] },
      { id: weeklyId },
    ])
      expect((await write(w.alice, 'PUT', '/reports/schedules', body)).statusCode, JSON.stringify(body)).toBe(
        400,
      );
    expect(await snapshot(w.t.services)).toEqual(before);

    // A device's schedule keeps its device: it takes no folder.
    const mine = await write(w.alice, 'POST', '/reports/schedules', {
      token: w.tokenOf(HALL_A),
      kind: 'PEAKS',
      ...base,
    });
    const id = mine.json<{ data: { id: number } }>().data.id;
    const withFolder = await write(w.alice, 'PUT', '/reports/schedules', { ...edit, id, folder: ['Plant'] });
    expect(withFolder.statusCode).toBe(400);
    const emailed = { id, every: 'WEEKLY', delivery: 'EMAIL', email: 'hall@factory.example', language: 'de' };
    expect((await write(w.alice, 'PUT', '/reports/schedules', emailed)).json()).toEqual({ status: 'OK' });
    const changed = (await schedules(w.alice)).find((s) => s.id === id)!;
    expect(changed).toMatchObject({
      every: 'WEEKLY',
      delivery: 'EMAIL',
      email: 'hall@factory.example',
      language: 'de',
      kind: 'PEAKS',
      folder: null,
    });
  });
});
