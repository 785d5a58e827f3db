// Command: writes simulated history for every device of the installation that has none yet.
//   npx tsx apps/server/src/telemetry/backfill.main.ts [--force] [--quarter-days 365] [--minute-days 14]
// Uses the server's configuration (DATA_DIR / DATABASE_URL), so it fills the same store.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEVICE_TYPES, type DeviceTypeId } from '@meterportal/protocol';
import { systemClock } from '../clock';
import { loadConfig } from '../config/config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrations/index';
import { devicesRepository } from '../devices/devices.repository';
import { backfillHistory } from './backfill';
import { createTelemetryRepository } from './telemetry.repository';

const { values } = parseArgs({
  options: {
    force: { type: 'boolean', default: false },
    'quarter-days': { type: 'string', default: '365' },
    'minute-days': { type: 'string', default: '14' },
  },
});

const config = loadConfig();
const database = await openDatabase({
  url: config.DATABASE_URL,
  sqliteFile: path.join(config.dataDir, 'portal.db'),
});
await migrateToLatest(database);
const devices = (await devicesRepository(database).listAll())
  .filter((d) => DEVICE_TYPES.includes(d.type as DeviceTypeId))
  .map((d) => ({
    id: d.id,
    mac: d.mac,
    type: d.type as DeviceTypeId,
    phases: Math.min(3, Math.max(1, d.phase_use)) as 1 | 2 | 3,
  }));
const logger = { debug: () => undefined, info: () => undefined, warn: console.warn, error: console.error };
const report = await backfillHistory(
  { repository: createTelemetryRepository(database, { tz: config.TZ }), clock: systemClock, logger },
  devices,
  {
    force: values.force,
    quarterDays: Number(values['quarter-days']),
    minuteDays: Number(values['minute-days']),
  },
);
console.log(
  `backfilled ${report.devices} devices (${report.skipped} already had history): ` +
    `${report.quarterRows} quarter-hours, ${report.minuteRows} minutes in ${(report.elapsedMs / 1000).toFixed(1)} s`,
);
await database.close();
