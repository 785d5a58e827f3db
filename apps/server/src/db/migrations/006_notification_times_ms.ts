import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

/** Any time below this is unix seconds: 10^11 ms is March 1973, 10^11 s is the year 5138. */
const SECONDS_BELOW = 1e11;
const PAGE = 500;

/**
 * A notification's data.timestamp is unix milliseconds. Device events were once stored with the
 * device's seconds; they are converted here, once, so every stored notification has one unit.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  const table = db.withTables<{ notifications: { id: number; data: string } }>();
  let after = 0;
  for (;;) {
    const rows = await table
      .selectFrom('notifications')
      .select(['id', 'data'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    if (rows.length === 0) return;
    for (const row of rows) {
      let data: unknown;
      try {
        data = JSON.parse(row.data);
      } catch {
        continue;
      }
      if (typeof data !== 'object' || data === null) continue;
      const ts = (data as { timestamp?: unknown }).timestamp;
      if (typeof ts !== 'number' || ts >= SECONDS_BELOW) continue;
      await table
        .updateTable('notifications')
        .set({ data: JSON.stringify({ ...data, timestamp: ts * 1000 }) })
        .where('id', '=', row.id)
        .execute();
    }
    after = rows[rows.length - 1]!.id;
  }
}
