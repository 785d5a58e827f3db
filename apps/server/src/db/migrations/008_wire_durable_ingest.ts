import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index';

/**
 * Durable ingest and device clocks. Each ingest position (telemetry_cursors) also holds the
 * partial sums of its device's open minute, committed together, so a frame is acknowledged only
 * once all it contributes is stored. device_states gains the clock error of a meter whose frames
 * were refused for their time (null while its clock is right).
 *
 * Positions stored in the future before frames were checked against the server clock froze
 * their meters (every later, correct frame looked like a repeat): they are put back to the time
 * of this upgrade, and the meter is shown with its clock ahead until a correct frame comes.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('telemetry_cursors')
    .addColumn('open_minute', dialect === 'sqlite' ? 'blob' : 'bytea')
    .execute();
  await db.schema.alterTable('device_states').addColumn('clock_skew_sec', 'integer').execute();

  // The tolerance for a clock ahead at the time of this upgrade: 60 s.
  const nowSec = Math.floor(Date.now() / 1000);
  const future = await sql<{ device_id: number; ts_sec: number | string }>`
    SELECT device_id, ts_sec FROM telemetry_cursors WHERE ts_sec > ${nowSec + 60}`.execute(db);
  for (const row of future.rows) {
    const skew = Math.min(2_000_000_000, Number(row.ts_sec) - nowSec);
    await sql`UPDATE telemetry_cursors SET ts_sec = ${nowSec} WHERE device_id = ${row.device_id}`.execute(db);
    await sql`UPDATE device_states SET clock_skew_sec = ${skew} WHERE device_id = ${row.device_id}`.execute(
      db,
    );
  }
}
