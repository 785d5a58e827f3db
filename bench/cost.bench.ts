// Latency of cost through HTTP: a year of hourly cost (8,760 rows, two tariff versions with a
// change mid-year, two bands) for 100 devices over a store holding a year of their quarter-hour
// energy, on SQLite (and PostgreSQL with BENCH_DATABASE_URL). Beside it, in the same run, the
// energy route's year of hourly energy, so the price of pricing reads as a ratio.
import type { Database } from '../apps/server/src/db/database';
import { quickSession } from '../apps/server/src/test/harness';
import { startOfDay, wallTime } from '../apps/server/src/history/calendar';
import * as portal from './portal-store';
import { r2, report } from './stats';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 100);
const TZ = portal.BENCH_TZ;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);

async function scenario(database: Database, label: string) {
  const store = await portal.benchStore(database, portal.benchFleet(1, DEVICES));
  const { services, userId } = store;
  const nowSec = Math.floor(Date.now() / 1000);
  const yearFrom = startOfDay(nowSec - 365 * 86400, TZ);
  const mid = wallTime(yearFrom + 182 * 86400, TZ);
  const midDate = `${mid.year}-${String(mid.month).padStart(2, '0')}-${String(mid.day).padStart(2, '0')}`;
  const first = wallTime(yearFrom, TZ);
  const firstDate = `${first.year}-${String(first.month).padStart(2, '0')}-01`;
  const fill = await portal.backfillStore(database, store, { quarterDays: 365, minuteDays: 0 }, label);

  const { app, base } = await portal.startPortal(services);
  const client = await quickSession(services, userId);
  await portal.saveTariffChange(services, userId, client, firstDate, midDate);

  const measure = (route: string, body: (token: string) => object) =>
    portal.measureDevices(base, client, route, REQUESTS, body);

  const range = { from: yearFrom, to: nowSec };
  const yearOfHourlyCost = await measure('energy/cost', (token) => ({ token, ...range, period: 'HOUR' }));
  const yearOfMonthlyCost = await measure('energy/cost', (token) => ({ token, ...range, period: 'MONTH' }));
  const yearOfHourlyEnergy = await measure('energy', (token) => ({
    token,
    data: 'E_I,E_E',
    phase: 'CUM',
    ...range,
    period: 'HOUR',
    format: 'H',
  }));
  await app.close();
  return {
    quarterRows: fill.quarterRows,
    yearOfHourlyCost,
    yearOfMonthlyCost,
    yearOfHourlyEnergy,
    hourlyCostOverEnergyP50: r2(yearOfHourlyCost.p50Ms / yearOfHourlyEnergy.p50Ms),
  };
}

const out: Record<string, unknown> = {
  devices: DEVICES,
  ...(await portal.overEachDatabase('cost', scenario)),
};
out.targets = { yearOfHourlyCostP99Ms: 100 };
report('cost', out);
process.exit(0);
