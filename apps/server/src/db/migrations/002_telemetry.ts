import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';
import { ENERGY_COLUMNS, MINUTE_COLUMNS } from '../../telemetry/columns';

/**
 * Telemetry: one-minute aggregates, quarter-hour energy, ingest cursors, device state and its
 * transitions, broker credentials. Time series are keyed (device_id, ts_sec) so each device's
 * rows sit together in the primary key; on PostgreSQL the same key suits a TimescaleDB
 * hypertable on ts_sec (docs/architecture.md).
 */
export async function up(db: Kysely<unknown>, { idType, dialect }: MigrationContext): Promise<void> {
  const real = dialect === 'sqlite' ? 'real' : 'double precision';
  let minutes = db.schema
    .createTable('telemetry_minutes')
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('ts_sec', 'bigint', (c) => c.notNull())
    .addColumn('samples', 'integer', (c) => c.notNull());
  for (const col of MINUTE_COLUMNS) minutes = minutes.addColumn(col, real, (c) => c.notNull());
  await minutes.addPrimaryKeyConstraint('telemetry_minutes_pk', ['device_id', 'ts_sec']).execute();

  let quarters = db.schema
    .createTable('energy_quarters')
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('ts_sec', 'bigint', (c) => c.notNull());
  for (const col of ENERGY_COLUMNS) quarters = quarters.addColumn(col, 'bigint', (c) => c.notNull().defaultTo(0));
  await quarters.addPrimaryKeyConstraint('energy_quarters_pk', ['device_id', 'ts_sec']).execute();

  await db.schema
    .createTable('telemetry_cursors')
    .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('ts_sec', 'bigint', (c) => c.notNull())
    .addColumn('registers', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('device_states')
    .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('connection', 'varchar(40)')
    .addColumn('fw', 'varchar(40)')
    .addColumn('model', 'varchar(64)')
    .addColumn('changed_at_ms', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('device_status_changes')
    .addColumn('id', idType, (c) => c.primaryKey().$call((b) => (idType === 'integer' ? b.autoIncrement() : b)))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('at_ms', 'bigint', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('connection', 'varchar(40)')
    .execute();
  await db.schema
    .createIndex('device_status_changes_device_at')
    .on('device_status_changes')
    .columns(['device_id', 'at_ms'])
    .execute();

  await db.schema
    .createTable('device_credentials')
    .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .execute();
}
