// Set-up shared by the benchmarks that read through a running portal: a migrated store with a
// bench user and meters, their history backfilled, the app listening on a free port, and the run
// over SQLite (and PostgreSQL with BENCH_DATABASE_URL).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Tariff } from '@meterportal/protocol';
import { loadConfig } from '../apps/server/src/config/config';
import { openDatabase, dropPgSchema, type Database } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrations/index';
import { createServices, type Services } from '../apps/server/src/services';
import { buildApp } from '../apps/server/src/http/app';
import { systemClock } from '../apps/server/src/clock';
import { addDevice, addUser, assign, type Client } from '../apps/server/src/test/harness';
import { SESSION_COOKIE } from '../apps/server/src/http/session';
import { backfillHistory } from '../apps/server/src/telemetry/backfill';
import { createTelemetryRepository } from '../apps/server/src/telemetry/telemetry.repository';
import { workdayTariff } from '../apps/server/src/tariffs/testing';
import { measureRoute } from './http-measure';
import { quiet } from './ingest-rig';

/** The installation's time zone in every portal benchmark. */
export const BENCH_TZ = 'Europe/Bratislava';

/** A bench meter's MAC: `series` keeps the benchmarks' fleets apart, `i` numbers the meter. */
export function benchMac(series: number, i: number): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `02-BE-00-${two(series)}-${two(Math.floor(i / 100))}-${two(i % 100)}`;
}

/** The MACs of a fleet of `count` bench meters in `series`. */
export function benchFleet(series: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => benchMac(series, i));
}

export interface BenchStore {
  services: Services;
  userId: number;
  devices: { id: number; mac: string }[];
}

/** Migrates `database`, builds the services and adds the user `bench` owning meters (type 4) `macs`. */
export async function benchStore(
  database: Database,
  macs: string[],
  env: Record<string, string> = {},
): Promise<BenchStore> {
  await migrateToLatest(database);
  const config = loadConfig({ LOG_LEVEL: 'silent', TZ: BENCH_TZ, WEB_DIST: '/nonexistent', ...env });
  const services = await createServices({ config, database, clock: systemClock });
  const userId = await addUser(services, 'bench', 'bench-secret');
  const devices: { id: number; mac: string }[] = [];
  for (const [i, mac] of macs.entries()) {
    const id = await addDevice(services, mac, 4, macs.length === 1 ? 'Bench' : `Bench ${i}`);
    await assign(services, userId, id, true);
    devices.push({ id, mac });
  }
  return { services, userId, devices };
}

/** Backfills the store's meters and prints how many rows that took how long. */
export async function backfillStore(
  database: Database,
  store: BenchStore,
  days: { quarterDays: number; minuteDays: number },
  label?: string,
) {
  const t0 = performance.now();
  const fill = await backfillHistory(
    { repository: createTelemetryRepository(database, { tz: BENCH_TZ }), clock: systemClock, logger: quiet },
    store.devices.map((d) => ({ id: d.id, mac: d.mac, type: 4 as const })),
    days,
  );
  const seconds = (performance.now() - t0) / 1000;
  const minutes = days.minuteDays > 0 ? ` and ${fill.minuteRows} minute rows` : '';
  console.log(
    `${label ? `${label}: ` : ''}backfilled ${fill.quarterRows} quarter rows${minutes} in ${seconds.toFixed(1)} s`,
  );
  return { ...fill, seconds };
}

/** The portal listening on a free local port, and its address. */
export async function startPortal(services: Services) {
  const app = await buildApp(services, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { app, base };
}

/** Times `requests` POSTs of `route` with the client's session, cycling over its devices. */
export function measureDevices(
  base: string,
  client: Client,
  route: string,
  requests: number,
  body: (token: string, i: number) => object,
) {
  const bodies = Array.from({ length: requests }, (_, i) =>
    JSON.stringify(body(client.devices[i % client.devices.length]!.token, i)),
  );
  return measureRoute({ base, route, cookie: `${SESSION_COOKIE}=${client.cookie}`, bodies });
}

/** Gives every device of the client a workday tariff from `fromDate` and dearer prices from `changeDate`. */
export async function saveTariffChange(
  services: Services,
  userId: number,
  client: Client,
  fromDate: string,
  changeDate: string,
) {
  const user = { userId, login: 'bench' };
  for (const d of client.devices) {
    await services.tariffs.save(user, d.token, Tariff.parse(workdayTariff(fromDate, 0.2, 0.1, 10, 5)));
    await services.tariffs.save(user, d.token, Tariff.parse(workdayTariff(changeDate, 0.25, 0.12, 12, 6)));
  }
}

/** A temporary folder for a benchmark's SQLite file, removed by `remove`. */
export function benchFolder(name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`));
  return {
    sqliteFile: path.join(dir, 'bench.db'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs `scenario` over a fresh SQLite store and, given `pgUrl`, a fresh PostgreSQL schema there. */
export async function overEachDatabase<T>(
  name: string,
  scenario: (database: Database, label: string) => Promise<T>,
  pgUrl = process.env.BENCH_DATABASE_URL,
): Promise<{ sqlite: T; postgres?: T }> {
  const folder = benchFolder(name);
  const sqliteDb = await openDatabase({ sqliteFile: folder.sqliteFile });
  const sqlite = await scenario(sqliteDb, 'sqlite');
  await sqliteDb.close();
  let postgres: T | undefined;
  if (pgUrl) {
    const schema = `bench_${crypto.randomBytes(4).toString('hex')}`;
    const database = await openDatabase({ url: pgUrl, pgSchema: schema });
    postgres = await scenario(database, 'postgres');
    await database.close();
    await dropPgSchema(pgUrl, schema);
  }
  folder.remove();
  return postgres === undefined ? { sqlite } : { sqlite, postgres };
}

/**
 * One meter with a year of minutes and quarter hours (none when `backfill` is false) in a fresh
 * SQLite store; `close` closes the store and removes its folder.
 */
export async function oneMeterYear(name: string, env: Record<string, string> = {}, backfill = true) {
  const folder = benchFolder(name);
  const database = await openDatabase({ sqliteFile: folder.sqliteFile });
  const store = await benchStore(database, [benchMac(0, 1)], { LIVE_RECHECK_MS: '5000', ...env });
  const fill = backfill
    ? await backfillStore(database, store, { quarterDays: 366, minuteDays: 366 })
    : { quarterRows: 0, minuteRows: 0, seconds: 0 };
  const close = async () => {
    await database.close();
    folder.remove();
  };
  return { ...store, database, deviceId: store.devices[0]!.id, fill, close };
}
