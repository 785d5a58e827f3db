import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from '../database';
import * as m001 from './001_foundation';
import * as m002 from './002_telemetry';
import * as m003 from './003_notifications';
import * as m004 from './004_precision';
import * as m005 from './005_history_rollup';
import * as m006 from './006_notification_times_ms';
import * as m007 from './007_auth_login_key';
import * as m008 from './008_wire_durable_ingest';
import * as m009 from './009_hour_rollup';
import * as m010 from './010_device_families';
import * as m011 from './011_alarms';
import * as m012 from './012_notification_email';
import * as m013 from './013_tariffs';
import * as m014 from './014_integration_tokens';
import * as m015 from './015_firmware';
import * as m019 from './019_appliances';
import * as m021 from './021_anomaly_models';
import * as m022 from './022_json_mapping';
import * as m024 from './024_site_maps';
import * as m023 from './023_reports';
import * as m025 from './025_frequency_quarters';
import * as m026 from './026_hour_refresh_queue';
import * as m027 from './027_absent_quantities';
import * as m028 from './028_folder_report_schedules';
import * as m029 from './029_meter_capacity';
import * as m030 from './030_harmonic_intervals';
import * as m031 from './031_hot_updates';

/** What a migration needs to know about the engine it runs on. */
export interface MigrationContext {
  /** Column type of auto-increment keys: SQLite 'integer' (with AUTOINCREMENT), PostgreSQL 'serial'. */
  idType: 'integer' | 'serial';
  dialect: Database['dialect'];
  /**
   * The columns of a table of the schema being migrated, in their order, as they stand in the
   * database (empty when there is no such table). Only this schema's catalog is read: on
   * PostgreSQL a table of the same name in another schema of the database (another
   * installation's, a copy kept aside) never lends its columns.
   */
  columnsOf(db: Kysely<unknown>, table: string): Promise<string[]>;
}

async function columnsOf(
  dialect: Database['dialect'],
  db: Kysely<unknown>,
  table: string,
): Promise<string[]> {
  const { rows } =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table}) ORDER BY cid`.execute(db)
      : await sql<{ name: string }>`
          SELECT column_name AS name FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = ${table}
          ORDER BY ordinal_position`.execute(db);
  return rows.map((r) => r.name);
}

type Step = { up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> };

/** Every migration, in order; one set for both engines. */
const STEPS: Record<string, Step> = {
  '001_foundation': m001,
  '002_telemetry': m002,
  '003_notifications': m003,
  '004_precision': m004,
  '005_history_rollup': m005,
  '006_notification_times_ms': m006,
  '007_auth_login_key': m007,
  '008_wire_durable_ingest': m008,
  '009_hour_rollup': m009,
  '010_device_families': m010,
  '011_alarms': m011,
  '012_notification_email': m012,
  '013_tariffs': m013,
  '014_integration_tokens': m014,
  '015_firmware': m015,
  '019_appliances': m019,
  '021_anomaly_models': m021,
  '022_json_mapping': m022,
  '024_site_maps': m024,
  '023_reports': m023,
  '025_frequency_quarters': m025,
  '026_hour_refresh_queue': m026,
  '027_absent_quantities': m027,
  '028_folder_report_schedules': m028,
  '029_meter_capacity': m029,
  '030_harmonic_intervals': m030,
  '031_hot_updates': m031,
};

/** Brings the schema up to the named migration (upgrade tests start from an older schema). */
export async function migrateUpTo(database: Database, name: string): Promise<void> {
  await migrateToLatest(database, { upTo: name });
}

/** Brings the schema up to date; safe to call from several instances at once. */
export async function migrateToLatest(
  database: Database,
  opts: {
    /** Stop after this migration (tests of a later migration over older rows). */ upTo?: string;
  } = {},
): Promise<void> {
  const ctx: MigrationContext = {
    idType: database.dialect === 'sqlite' ? 'integer' : 'serial',
    dialect: database.dialect,
    columnsOf: (db, table) => columnsOf(database.dialect, db, table),
  };
  const provider: MigrationProvider = {
    getMigrations: () =>
      Promise.resolve(
        Object.fromEntries(
          Object.entries(STEPS).map(([name, step]): [string, Migration] => [
            name,
            { up: (db) => step.up(db, ctx) },
          ]),
        ),
      ),
  };
  // Naming the schema keeps Kysely's table look-up from seeing another schema's migration tables.
  const migrator = new Migrator({
    db: database.db,
    provider,
    ...(database.schema ? { migrationTableSchema: database.schema } : {}),
  });
  await retryCatalogRace(async () => {
    const { error } = opts.upTo ? await migrator.migrateTo(opts.upTo) : await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(JSON.stringify(error));
  });
}

/**
 * Runs a catalog look-up (or a migration, which starts with one) and runs it again, up to five
 * times, when another client's schema change raced it. Kysely's table look-up on PostgreSQL reads
 * the catalog of every schema and names each column back to the server (pg_get_serial_sequence);
 * a schema that another client drops, or a column it renames or drops in its own migration, while
 * the look-up runs fails it with 3F000 (invalid schema name), 42P01 (undefined table) or 42703
 * (undefined column). A migration step runs in its own transaction, so nothing of a failed one
 * stays.
 */
export async function retryCatalogRace<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (attempt >= 5 || !isCatalogRace(e)) throw e;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/** Errors that another client's schema change can cause in the table look-up. */
const CATALOG_RACE = new Set(['3F000', '42P01', '42703']);

function isCatalogRace(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && CATALOG_RACE.has(code);
}
