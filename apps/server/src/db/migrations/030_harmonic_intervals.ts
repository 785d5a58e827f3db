import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

/** The orders EN 50160's table of harmonic voltages gives limits for, one column each. */
const ORDERS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25];

/**
 * Analyzers' polled voltage spectra: per device, UTC 10-minute interval and phase (1 to 3), the
 * number of spectra polled in the interval and each order's rms over them, % of the fundamental.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  const real = ctx.dialect === 'sqlite' ? 'real' : 'double precision';
  let table = db.schema
    .createTable('harmonic_intervals')
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('interval_sec', 'bigint', (c) => c.notNull())
    .addColumn('phase', 'integer', (c) => c.notNull())
    .addColumn('samples', 'integer', (c) => c.notNull());
  for (const h of ORDERS) table = table.addColumn(`h${h}`, real);
  await table
    .addPrimaryKeyConstraint('harmonic_intervals_pk', ['device_id', 'interval_sec', 'phase'])
    .execute();
}
