import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { MigrationContext } from './index';

/**
 * Report schedules of users, the periods each has run for (so a report is made once), and the
 * PDF files of schedules that keep their reports for download.
 */
export async function up(db: Kysely<unknown>, { idType, dialect }: MigrationContext): Promise<void> {
  const id = (c: ColumnDefinitionBuilder) =>
    c.primaryKey().$call((b) => (idType === 'integer' ? b.autoIncrement() : b));

  await db.schema
    .createTable('report_schedules')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('every', 'varchar(8)', (c) => c.notNull())
    .addColumn('delivery', 'varchar(8)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)')
    .addColumn('language', 'varchar(2)', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('report_schedules_user').on('report_schedules').column('user_id').execute();

  await db.schema
    .createTable('report_runs')
    .addColumn('schedule_id', 'integer', (c) =>
      c.notNull().references('report_schedules.id').onDelete('cascade'),
    )
    .addColumn('period_sec', 'bigint', (c) => c.notNull())
    .addColumn('state', 'varchar(8)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_runs_pk', ['schedule_id', 'period_sec'])
    .execute();

  await db.schema
    .createTable('report_files')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('language', 'varchar(2)', (c) => c.notNull())
    .addColumn('from_sec', 'bigint', (c) => c.notNull())
    .addColumn('to_sec', 'bigint', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('pdf', dialect === 'sqlite' ? 'blob' : 'bytea', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('report_files_user').on('report_files').column('user_id').execute();
}
