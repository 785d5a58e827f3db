import { sql, type Kysely } from 'kysely';

/**
 * Frequency counts kept beyond the minutes' retention, so EN 50160's yearly frequency rule can be
 * judged over the year to date: per device and UTC quarter-hour the stored minutes, those whose
 * mean lies within 50 Hz ± 1 % (49.5 to 50.5 Hz) and those whose lowest and highest second lie
 * within 50 Hz + 4 % / − 6 % (47 to 52 Hz). Built here from the minutes already stored; ingest and
 * backfill keep it up to date in the transactions that write minutes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('frequency_quarters')
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('quarter_sec', 'bigint', (c) => c.notNull())
    .addColumn('minutes', 'integer', (c) => c.notNull())
    .addColumn('within_band', 'integer', (c) => c.notNull())
    .addColumn('within_always', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('frequency_quarters_pk', ['device_id', 'quarter_sec'])
    .execute();
  await sql
    .raw(
      `INSERT INTO frequency_quarters (device_id, quarter_sec, minutes, within_band, within_always)
       SELECT device_id, ts_sec - ts_sec % 900, count(*),
         sum(CASE WHEN f_avg >= 49.5 AND f_avg <= 50.5 THEN 1 ELSE 0 END),
         sum(CASE WHEN f_min >= 47 AND f_max <= 52 THEN 1 ELSE 0 END)
       FROM telemetry_minutes GROUP BY device_id, ts_sec - ts_sec % 900`,
    )
    .execute(db);
}
