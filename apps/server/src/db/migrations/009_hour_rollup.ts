import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index';

/**
 * Hourly rollup of the minute table, so a profile over months reads one row an hour instead of
 * sixty: per device and UTC hour the number of minutes and samples, the average of each minute
 * average, the minimum of the minima and the maximum of the maxima. Built here from the minutes
 * already stored; ingest and backfill keep it up to date in the transactions that write minutes.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  const { dialect } = ctx;
  // The value columns are those of the minute table as it stands at this migration, read from
  // the database itself, so this migration never follows a later change of the code's list.
  const minuteColumns = await ctx.columnsOf(db, 'telemetry_minutes');
  if (minuteColumns.length === 0) throw new Error('migration 009 needs the telemetry_minutes table');
  const MINUTE_COLUMNS = minuteColumns.filter((c) => !['device_id', 'ts_sec', 'samples'].includes(c));
  const real = dialect === 'sqlite' ? 'real' : 'double precision';
  let hours = db.schema
    .createTable('telemetry_hours')
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('hour_sec', 'bigint', (c) => c.notNull())
    .addColumn('minutes', 'integer', (c) => c.notNull())
    .addColumn('samples', 'integer', (c) => c.notNull());
  for (const col of MINUTE_COLUMNS) hours = hours.addColumn(col, real, (c) => c.notNull());
  await hours.addPrimaryKeyConstraint('telemetry_hours_pk', ['device_id', 'hour_sec']).execute();

  const aggregate = (col: string) =>
    `${col.endsWith('_min') ? 'min' : col.endsWith('_max') ? 'max' : 'avg'}(${col})`;
  await sql
    .raw(
      `INSERT INTO telemetry_hours (device_id, hour_sec, minutes, samples, ${MINUTE_COLUMNS.join(', ')})
       SELECT device_id, ts_sec - ts_sec % 3600, count(*), sum(samples), ${MINUTE_COLUMNS.map(aggregate).join(', ')}
       FROM telemetry_minutes GROUP BY device_id, ts_sec - ts_sec % 3600`,
    )
    .execute(db);
}
