import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index';

const TABLES = [
  { name: 'telemetry_minutes', time: 'ts_sec', counts: ['samples'] },
  { name: 'telemetry_hours', time: 'hour_sec', counts: ['minutes', 'samples'] },
] as const;

/**
 * The value columns of the minute and hour tables take null: a quantity or phase the device does
 * not measure (a P1 meter's frequency, the L2 and L3 of a single-phase Shelly) is stored as
 * absent, never as a zero that looks measured. Rows already stored keep their values.
 * PostgreSQL drops the NOT NULL in place; SQLite cannot, so each table is rebuilt with the same
 * columns, key and foreign key, and its rows copied.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  const { dialect } = ctx;
  for (const t of TABLES) {
    const columns = await ctx.columnsOf(db, t.name);
    if (columns.length === 0) throw new Error(`migration 027 needs the ${t.name} table`);
    // The value columns as they stand in the database, so a later change of the code's list
    // never changes what this migration does.
    const fixed: readonly string[] = ['device_id', t.time, ...t.counts];
    const values = columns.filter((c) => !fixed.includes(c));
    if (dialect !== 'sqlite') {
      await sql
        .raw(`ALTER TABLE ${t.name} ${values.map((c) => `ALTER COLUMN ${c} DROP NOT NULL`).join(', ')}`)
        .execute(db);
      continue;
    }
    const next = `${t.name}_027`;
    await sql
      .raw(
        `CREATE TABLE ${next} (
           device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
           ${t.time} bigint NOT NULL,
           ${t.counts.map((c) => `${c} integer NOT NULL`).join(', ')},
           ${values.map((c) => `${c} real`).join(', ')},
           CONSTRAINT ${t.name}_pk PRIMARY KEY (device_id, ${t.time})
         )`,
      )
      .execute(db);
    const all = [...fixed, ...values].join(', ');
    await sql.raw(`INSERT INTO ${next} (${all}) SELECT ${all} FROM ${t.name}`).execute(db);
    await sql.raw(`DROP TABLE ${t.name}`).execute(db);
    await sql.raw(`ALTER TABLE ${next} RENAME TO ${t.name}`).execute(db);
  }
}
