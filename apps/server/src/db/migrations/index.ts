import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
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

/** What a migration needs to know about the engine it runs on. */
export interface MigrationContext {
  /** Column type of auto-increment keys: SQLite 'integer' (with AUTOINCREMENT), PostgreSQL 'serial'. */
  idType: 'integer' | 'serial';
  dialect: Database['dialect'];
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
  const { error } = opts.upTo ? await migrator.migrateTo(opts.upTo) : await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(JSON.stringify(error));
}
