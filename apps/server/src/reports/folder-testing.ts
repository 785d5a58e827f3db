// A shared world of the folder report tests: a tree of folders over three metered devices.
import { expect } from 'vitest';
import type { HierarchyNode, MessageLanguage } from '@meterportal/protocol';
import {
  addDevice,
  addUser,
  assign,
  call,
  createTestApp,
  quickSession,
  type Client,
  type DialectCase,
  type TestApp,
} from '../test/harness';
import { createTelemetryRepository, type QuarterRow } from '../telemetry/telemetry.repository';
import { ENERGY_COLUMNS } from '../telemetry/columns';
import { fromWall } from '../history/calendar';
import { workdayTariff } from '../tariffs/testing';
import { pdfText as rawPdfText } from './pdfText';
import { reportFormats } from './report-pdf';
import { reportModels, type ReportModels } from './report-model';
import { REPORT_WORDS } from './report-texts';

export const TZ = 'Europe/Bratislava';
export const HALL_A = '02-4D-50-00-00-31';
export const HALL_B = '02-4D-50-00-00-32';
export const OFFICE = '02-4D-50-00-00-33';
export const CAROLS = '02-4D-50-00-00-34';
/** Unix seconds of a local wall time of the installation. */
export const at = (y: number, m: number, d: number, h = 0, min = 0) => fromWall(TZ, y, m, d, h, min);
/** Text with the narrow and non-breaking spaces of number formats as plain spaces. */
export const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
/** A PDF's text, spaces made plain. */
export const pdfText = (pdf: Buffer) => plain(rawPdfText(pdf));

export const leaf = (title: string, mac: string, id: number): HierarchyNode => ({
  title,
  isLeaf: true,
  data: { id, mac, type: 4 },
});
export const folder = (title: string, children: HierarchyNode[], id: string): HierarchyNode => ({
  title,
  children,
  data: { id },
});
/** Plant › Halls › (Hall A, Hall B), Plant › Office, and the office meter again at the top. */
export const tree = (): HierarchyNode[] => [
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

/** Report models over a test app's services and clock, as the reports service builds them. */
export function testReportModels(t: TestApp, tz: string): ReportModels {
  return reportModels({
    devices: t.services.devices,
    history: t.services.history,
    tariffs: t.services.tariffs,
    monitoring: t.services.monitoring,
    powerQuality: t.services.powerQuality,
    tz,
    nowMs: () => t.clock.nowMs(),
  });
}

/** Import of a device (0, 1, 2 for Hall A, Hall B, Office) on a day of March 2026, Wh. */
export const marchImportWh = (k: number, day: number) => 100 * (k + 1) + day;

/** Alice's devices. */
export type AliceMac = typeof HALL_A | typeof HALL_B | typeof OFFICE;

/** The folder world: Alice's three devices in her tree, Carol's own device in a folder Plant. */
export interface FolderWorld {
  t: TestApp;
  alice: Client;
  carol: Client;
  aliceId: number;
  /** March's import of each of Alice's devices, Wh. */
  wh: Record<AliceMac, number>;
  /** New sessions of Alice and Carol (after the clock has moved past the old ones). */
  renewSessions(): Promise<void>;
  tokenOf(mac: string): string;
  /** Report models over the app's services, as the reports service builds them. */
  models(): ReportModels;
  read(c: Client, path: string, body: object): ReturnType<typeof call>;
  /** The total of /energy/cost for a device over [from, to) by the given period. */
  cost(mac: string, from: number, to: number, period: 'DAY' | 'MONTH'): Promise<FolderCostTotal>;
}
/** The total row of /energy/cost. */
export interface FolderCostTotal {
  totalCents: number;
  importWh: number;
}

/**
 * Builds the world at `nowMs`: a day's quarter of import every day of March 2026 on each of
 * Alice's devices (Hall A and the office with euro tariffs, Hall B without), and the two trees.
 */
export async function folderWorld(
  dialect: DialectCase,
  nowMs: number,
  env: NodeJS.ProcessEnv = {},
): Promise<FolderWorld> {
  const t = await createTestApp(dialect, { env: { TZ, ...env } });
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
  t.clock.set(nowMs);
  let alice = await quickSession(t.services, aliceId);
  let carol = await quickSession(t.services, carolId);
  const wh: Record<AliceMac, number> = { [HALL_A]: 0, [HALL_B]: 0, [OFFICE]: 0 };
  const q: QuarterRow[] = [];
  ([HALL_A, HALL_B, OFFICE] as const).forEach((mac, k) => {
    for (let d = 1; d <= 31; d++) {
      const importWh = marchImportWh(k, d);
      wh[mac] += importWh;
      const values = ENERGY_COLUMNS.map((c) => (c === 'e_i_wh' ? importWh : c === 'e_e_wh' ? k : 0));
      q.push({ deviceId: ids[mac]!, tsSec: at(2026, 3, d, 12), values });
    }
  });
  await createTelemetryRepository(t.services.database, { tz: TZ }).insertHistory(q, []);
  const user = { userId: aliceId, login: 'alice' };
  const tokenOf = (mac: string) => alice.devices.find((d) => d.mac === mac)!.token;
  // Hall A and the office have tariffs in euro; Hall B has none.
  await t.services.tariffs.save(user, tokenOf(HALL_A), workdayTariff('2026-01-01', 0.2, 0.1, 10, 5) as never);
  await t.services.tariffs.save(user, tokenOf(OFFICE), workdayTariff('2026-01-01', 0.3, 0.1, 12, 6) as never);
  await t.services.devices.saveHierarchy(user, JSON.stringify({ nodes: tree(), tags: [] }));
  await t.services.devices.saveHierarchy(
    { userId: carolId, login: 'carol' },
    JSON.stringify({ nodes: [folder('Plant', [leaf('Mine', CAROLS, 1)], 'f1')], tags: [] }),
  );
  const read = (c: Client, path: string, body: object) => call(t.app, 'POST', `/api/read${path}`, body, c);
  return {
    t,
    get alice() {
      return alice;
    },
    get carol() {
      return carol;
    },
    aliceId,
    wh,
    async renewSessions() {
      alice = await quickSession(t.services, aliceId);
      carol = await quickSession(t.services, carolId);
    },
    tokenOf,
    models: () => testReportModels(t, TZ),
    read,
    async cost(mac, from, to, period) {
      const r = await read(alice, '/energy/cost', { token: tokenOf(mac), from, to, period });
      return r.json<{ data: { total: FolderCostTotal } }>().data.total;
    },
  };
}

/**
 * Checks the folder Plant's March report text: each device's import and cost, and the folder's
 * totals, are those /energy/cost answers for the month.
 */
export async function expectPlantMarch(w: FolderWorld, text: string, language: MessageLanguage) {
  const f = reportFormats(language, TZ);
  const money = (c: number) => plain(f.money(c, 'EUR'));
  const lines = text.split('\n');
  const line = (s: string) => lines.find((l) => l.includes(s)) ?? '';
  const march = (mac: string) => w.cost(mac, at(2026, 3, 1), at(2026, 4, 1), 'MONTH');
  const a = await march(HALL_A);
  const o = await march(OFFICE);
  expect(a.importWh).toBe(w.wh[HALL_A]);
  expect(line(HALL_A)).toContain(plain(f.wh(w.wh[HALL_A])));
  expect(line(HALL_A)).toContain(money(a.totalCents));
  expect(line(OFFICE)).toContain(money(o.totalCents));
  expect(line(HALL_B)).toContain(plain(f.wh(w.wh[HALL_B])));
  // Listed once although the office meter is also at the top level.
  expect(lines.filter((l) => l.includes(OFFICE))).toHaveLength(1);
  const total = line(`${REPORT_WORDS[language].total}  `);
  expect(total).toContain(plain(f.wh(w.wh[HALL_A] + w.wh[HALL_B] + w.wh[OFFICE])));
  expect(total).toContain(plain(f.wh(31 * (0 + 1 + 2))));
  expect(total).toContain(money(a.totalCents + o.totalCents));
  expect(text).not.toContain(CAROLS);
}
