// Latency of a monthly PDF report through HTTP: energy and cost (two tariff versions, a change
// mid-month), max demand, and availability of last month, for devices whose store holds two months
// of quarter-hour energy, on SQLite (and PostgreSQL with BENCH_DATABASE_URL). Target: p99 under 2 s.
import type { Database } from '../apps/server/src/db/database';
import { quickSession } from '../apps/server/src/test/harness';
import { startOfMonth, wallTime } from '../apps/server/src/history/calendar';
import * as portal from './portal-store';
import { report } from './stats';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 10);
const TZ = portal.BENCH_TZ;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 60);

async function scenario(database: Database, label: string) {
  const store = await portal.benchStore(database, portal.benchFleet(2, DEVICES));
  const { services, userId } = store;
  const nowSec = Math.floor(Date.now() / 1000);
  const lastMonth = wallTime(startOfMonth(startOfMonth(nowSec, TZ) - 1, TZ), TZ);
  const ym = `${lastMonth.year}-${String(lastMonth.month).padStart(2, '0')}`;
  const fill = await portal.backfillStore(database, store, { quarterDays: 62, minuteDays: 0 }, label);
  const { app, base } = await portal.startPortal(services);
  const client = await quickSession(services, userId);
  await portal.saveTariffChange(services, userId, client, `${ym}-01`, `${ym}-16`);
  const measure = (kind: string) =>
    portal.measureDevices(base, client, 'reports', REQUESTS, (token, i) => ({
      token,
      kind,
      month: ym,
      language: (['en', 'sk', 'de'] as const)[i % 3],
    }));
  const energyCost = await measure('ENERGY_COST');
  const peaks = await measure('PEAKS');
  const availability = await measure('AVAILABILITY');
  await app.close();
  return { quarterRows: fill.quarterRows, month: ym, energyCost, peaks, availability };
}

const out: Record<string, unknown> = {
  devices: DEVICES,
  ...(await portal.overEachDatabase('report', scenario)),
};
out.targets = { monthlyReportP99Ms: 2000 };
report('report', out);
process.exit(0);
