import type { Kysely } from 'kysely';

/**
 * Hours of the hourly rollup waiting to be recomputed from their minutes: a minute write marks
 * its (device, hour) here in the same transaction, and the hour is recomputed once after it has
 * ended, instead of at every minute. Keyed by hour first, so the ended hours are a range.
 * The rollup is complete when this table is created (every earlier write recomputed its hours).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('telemetry_hours_dirty')
    .addColumn('hour_sec', 'bigint', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('telemetry_hours_dirty_pk', ['hour_sec', 'device_id'])
    .execute();
}
