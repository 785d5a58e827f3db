import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HierarchyNode } from '@meterportal/protocol';
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
import { createTelemetryRepository, type QuarterRow } from '../telemetry/telemetry.repository';
import { ENERGY_COLUMNS } from '../telemetry/columns';
import { fromWall } from '../history/calendar';
import { workdayTariff } from '../tariffs/testing';
import { devicesInFolder } from './report-folder';
import { reportFormats } from './report-pdf';
import { pdfText as rawPdfText } from './pdfText';

const TZ = 'Europe/Bratislava';
const HALL_A = '02-4D-50-00-00-31';
const HALL_B = '02-4D-50-00-00-32';
const OFFICE = '02-4D-50-00-00-33';
const CAROLS = '02-4D-50-00-00-34';
const at = (y: number, m: number, d: number, h = 0) => fromWall(TZ, y, m, d, h);
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
const pdfText = (pdf: Buffer) => plain(rawPdfText(pdf));

const leaf = (title: string, mac: string, id: number): HierarchyNode => ({
  title,
  isLeaf: true,
  data: { id, mac, type: 4 },
});
const folder = (title: string, children: HierarchyNode[], id: string): HierarchyNode => ({
  title,
  children,
  data: { id },
});
/** Plant › Halls › (Hall A, Hall B), Plant › Office, and the office meter again at the top. */
const tree = (): HierarchyNode[] => [
  folder(
    'Plant',
    [
      folder('Halls', [leaf('Hall A', HALL_A, 1), leaf('Hall B', HALL_B, 2)], 'f2'),
      leaf('Office', OFFICE, 3),
    ],
    'f1',
  ),
  leaf('Office', OFFICE, 4),
];

describe('devices in a folder', () => {
  it.each([
    [['Plant'], [HALL_A, HALL_B, OFFICE]],
    [
      ['plant ', 'HALLS'],
      [HALL_A, HALL_B],
    ],
    [['Plant', 'Office'], null], // a device is not a folder
    [['Halls'], null],
    [['Plant', 'Halls', 'Hall A'], null],
  ])('finds %j', (path, macs) => {
    expect(devicesInFolder(tree(), path)).toEqual(macs);
  });
});

describe.each(DIALECTS)('folder reports on $name', (dialect) => {
  let t: TestApp;
  let alice: Client;
  let carol: Client;
  const wh = { [HALL_A]: 0, [HALL_B]: 0, [OFFICE]: 0 };

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { TZ } });
    const aliceId = await addUser(t.services, 'alice', 'alice-secret');
    const carolId = await addUser(t.services, 'carol', 'carol-secret');
    const ids: Record<string, number> = {};
    for (const [mac, title] of [
      [HALL_A, 'Hall A meter'],
      [HALL_B, 'Hall B meter'],
      [OFFICE, 'Office meter'],
      [CAROLS, 'Carol’s meter'],
    ] as const)
      ids[mac] = await addDevice(t.services, mac, 4, title);
    for (const mac of [HALL_A, HALL_B, OFFICE]) await assign(t.services, aliceId, ids[mac]!, true);
    await assign(t.services, carolId, ids[CAROLS]!, true);
    t.clock.set(Date.parse('2026-04-10T10:00:00Z'));
    alice = await quickSession(t.services, aliceId);
    carol = await quickSession(t.services, carolId);
    const q: QuarterRow[] = [];
    ([HALL_A, HALL_B, OFFICE] as const).forEach((mac, k) => {
      for (let d = 1; d <= 31; d++) {
        const importWh = 100 * (k + 1) + d;
        wh[mac] += importWh;
        const values = ENERGY_COLUMNS.map((c) => (c === 'e_i_wh' ? importWh : c === 'e_e_wh' ? k : 0));
        q.push({ deviceId: ids[mac]!, tsSec: at(2026, 3, d, 12), values });
      }
    });
    await createTelemetryRepository(t.services.database, { tz: TZ }).insertHistory(q, []);
    const user = { userId: aliceId, login: 'alice' };
    const tokenOf = (mac: string) => alice.devices.find((d) => d.mac === mac)!.token;
    // Hall A and the office have tariffs in euro; Hall B has none.
    await t.services.tariffs.save(
      user,
      tokenOf(HALL_A),
      workdayTariff('2026-01-01', 0.2, 0.1, 10, 5) as never,
    );
    await t.services.tariffs.save(
      user,
      tokenOf(OFFICE),
      workdayTariff('2026-01-01', 0.3, 0.1, 12, 6) as never,
    );
    await t.services.devices.saveHierarchy(user, JSON.stringify({ nodes: tree(), tags: [] }));
    await t.services.devices.saveHierarchy(
      { userId: carolId, login: 'carol' },
      JSON.stringify({ nodes: [folder('Plant', [leaf('Mine', CAROLS, 1)], 'f1')], tags: [] }),
    );
  }, 60_000);
  afterAll(() => t.close());

  const read = (c: Client, path: string, body: object) => call(t.app, 'POST', `/api/read${path}`, body, c);
  const tokenOf = (mac: string) => alice.devices.find((d) => d.mac === mac)!.token;
  const monthCost = async (mac: string) => {
    const r = await read(alice, '/energy/cost', {
      token: tokenOf(mac),
      from: at(2026, 3, 1),
      to: at(2026, 4, 1),
      period: 'MONTH',
    });
    return r.json<{ data: { total: { totalCents: number; importWh: number } } }>().data.total;
  };

  it('sums the folder’s devices and lists each one with the numbers of /energy/cost', async () => {
    const r = await read(alice, '/reports/folder', { folder: ['Plant'], month: '2026-03', language: 'en' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-disposition']).toContain('folder-Plant-2026-03.pdf');
    const text = pdfText(r.rawPayload);
    const f = reportFormats('en', TZ);
    const money = (c: number) => plain(f.money(c, 'EUR'));
    const lines = text.split('\n');
    const line = (s: string) => lines.find((l) => l.includes(s)) ?? '';
    expect(text).toContain('Energy and cost of a folder');
    expect(line('Folder:')).toContain('Plant');
    const a = await monthCost(HALL_A);
    const o = await monthCost(OFFICE);
    expect(a.importWh).toBe(wh[HALL_A]);
    expect(line(HALL_A)).toContain(plain(f.wh(wh[HALL_A])));
    expect(line(HALL_A)).toContain(money(a.totalCents));
    expect(line(OFFICE)).toContain(money(o.totalCents));
    expect(line(HALL_B)).toContain(plain(f.wh(wh[HALL_B])));
    // Listed once although the office meter is also at the top level.
    expect(lines.filter((l) => l.includes(OFFICE))).toHaveLength(1);
    const total = line('Total  ');
    expect(total).toContain(plain(f.wh(wh[HALL_A] + wh[HALL_B] + wh[OFFICE])));
    expect(total).toContain(plain(f.wh(31 * (0 + 1 + 2))));
    expect(total).toContain(money(a.totalCents + o.totalCents));
    expect(text).toContain('Devices without a tariff count in energy only: 1.');
    expect(text).not.toContain(CAROLS);
  });

  it('reports a subfolder alone, in Slovak and German', async () => {
    for (const language of ['sk', 'de'] as const) {
      const r = await read(alice, '/reports/folder', {
        folder: ['Plant', 'Halls'],
        month: '2026-03',
        language,
      });
      expect(r.statusCode).toBe(200);
      const text = pdfText(r.rawPayload);
      const f = reportFormats(language, TZ);
      expect(text).toContain(
        language === 'sk' ? 'Energia a náklady priečinka' : 'Energie und Kosten eines Ordners',
      );
      expect(text).toContain(plain(f.wh(wh[HALL_A] + wh[HALL_B])));
      expect(text).not.toContain(OFFICE);
    }
  });

  it('answers a folder the user does not have as absent and refuses bad input', async () => {
    const missing = await read(alice, '/reports/folder', {
      folder: ['Nowhere'],
      month: '2026-03',
      language: 'en',
    });
    const device = await read(alice, '/reports/folder', {
      folder: ['Plant', 'Office'],
      month: '2026-03',
      language: 'en',
    });
    // Carol has a folder Plant of her own: she sees her device only, never Alice's.
    const carols = await read(carol, '/reports/folder', {
      folder: ['Plant', 'Halls'],
      month: '2026-03',
      language: 'en',
    });
    expect([missing.statusCode, device.statusCode, carols.statusCode]).toEqual([404, 404, 404]);
    expect(carols.json()).toEqual(missing.json());
    const own = pdfText(
      (await read(carol, '/reports/folder', { folder: ['Plant'], month: '2026-03', language: 'en' }))
        .rawPayload,
    );
    expect(own).toContain(CAROLS);
    expect(own).not.toContain(HALL_A);
    for (const body of [
      { folder: [], month: '2026-03', language: 'en' },
      { folder: ['Plant'], month: '2026-13', language: 'en' },
      { folder: ['Plant'], month: '2027-01', language: 'en' },
      { folder: ['x'.repeat(25)], month: '2026-03', language: 'en' },
      { folder: 'Plant', month: '2026-03', language: 'en' },
      { folder: ['Plant'], month: '2026-03', language: 'fr' },
    ])
      expect((await read(alice, '/reports/folder', body)).statusCode, JSON.stringify(body)).toBe(400);
  });
});
