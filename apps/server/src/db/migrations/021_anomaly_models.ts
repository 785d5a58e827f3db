import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { MigrationContext } from './index';

/**
 * Anomaly models of household meters: one per device with its 168 hour-of-week bands and what it
 * was trained on, how far detection has checked and the run of hours outside the band it is in;
 * and every anomaly found, open while it lasts.
 */
export async function up(db: Kysely<unknown>, { idType, dialect }: MigrationContext): Promise<void> {
  const id = (c: ColumnDefinitionBuilder) =>
    c.primaryKey().$call((b) => (idType === 'integer' ? b.autoIncrement() : b));
  const real = dialect === 'sqlite' ? 'real' : 'double precision';

  await db.schema
    .createTable('anomaly_models')
    .addColumn('device_id', 'integer', (c) =>
      c.primaryKey().notNull().references('devices.id').onDelete('cascade'),
    )
    .addColumn('weeks', 'integer', (c) => c.notNull())
    .addColumn('hours_in_row', 'integer', (c) => c.notNull())
    .addColumn('from_sec', 'bigint', (c) => c.notNull())
    .addColumn('to_sec', 'bigint', (c) => c.notNull())
    .addColumn('hours_used', 'integer', (c) => c.notNull())
    .addColumn('trained_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('scheduled', 'integer', (c) => c.notNull())
    .addColumn('slots', 'text', (c) => c.notNull())
    .addColumn('checked_to_sec', 'bigint', (c) => c.notNull())
    .addColumn('run_state', 'text', (c) => c.notNull())
    .addColumn('open_anomaly_id', 'integer')
    .execute();

  await db.schema
    .createTable('anomalies')
    .addColumn('id', idType, id)
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('start_sec', 'bigint', (c) => c.notNull())
    .addColumn('end_sec', 'bigint')
    .addColumn('hours', 'integer', (c) => c.notNull())
    .addColumn('direction', 'varchar(4)', (c) => c.notNull())
    .addColumn('expected_low_wh', real, (c) => c.notNull())
    .addColumn('expected_high_wh', real, (c) => c.notNull())
    .addColumn('seen_wh', real, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('anomalies_device_start')
    .on('anomalies')
    .columns(['device_id', 'start_sec'])
    .execute();
}
