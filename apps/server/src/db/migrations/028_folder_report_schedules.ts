import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index';

/**
 * A report schedule and a kept report are of a device or of a folder of the user's hierarchy:
 * `device_id` takes null and `folder` holds the folder's path of names as a JSON array; exactly
 * one of the two is set. PostgreSQL changes the tables in place. SQLite cannot drop a NOT NULL,
 * so it rebuilds both tables with the same columns, keys and foreign keys and copies their rows,
 * with foreign keys off meanwhile so that dropping the old schedules does not cascade into their
 * runs.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'sqlite') {
    for (const table of ['report_schedules', 'report_files'])
      await sql
        .raw(
          `ALTER TABLE ${table} ALTER COLUMN device_id DROP NOT NULL, ADD COLUMN folder text,
           ADD CONSTRAINT ${table}_target CHECK ((device_id IS NULL) <> (folder IS NULL))`,
        )
        .execute(db);
    return;
  }
  const fk = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db);
  const enforced = fk.rows[0]?.foreign_keys === 1;
  if (enforced) await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await rebuild(db, 'report_schedules', [
      ['kind', 'varchar(16) NOT NULL'],
      ['every', 'varchar(8) NOT NULL'],
      ['delivery', 'varchar(8) NOT NULL'],
      ['email', 'varchar(254)'],
      ['language', 'varchar(2) NOT NULL'],
      ['created_at_ms', 'bigint NOT NULL'],
    ]);
    await rebuild(db, 'report_files', [
      ['kind', 'varchar(16) NOT NULL'],
      ['language', 'varchar(2) NOT NULL'],
      ['from_sec', 'bigint NOT NULL'],
      ['to_sec', 'bigint NOT NULL'],
      ['created_at_ms', 'bigint NOT NULL'],
      ['pdf', 'blob NOT NULL'],
    ]);
    const broken = await sql`PRAGMA foreign_key_check`.execute(db);
    if (broken.rows.length > 0) throw new Error('migration 028 left rows without their parent');
  } finally {
    if (enforced) await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}

/** Rebuilds a report table of SQLite with `device_id` nullable and the `folder` column. */
async function rebuild(db: Kysely<unknown>, table: string, columns: [string, string][]): Promise<void> {
  const next = `${table}_028`;
  await sql
    .raw(
      `CREATE TABLE ${next} (
         id integer PRIMARY KEY AUTOINCREMENT,
         user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
         device_id integer REFERENCES devices (id) ON DELETE CASCADE,
         ${columns.map(([name, type]) => `${name} ${type}`).join(', ')},
         folder text,
         CONSTRAINT ${table}_target CHECK ((device_id IS NULL) <> (folder IS NULL))
       )`,
    )
    .execute(db);
  const copied = ['id', 'user_id', 'device_id', ...columns.map(([name]) => name)].join(', ');
  await sql.raw(`INSERT INTO ${next} (${copied}) SELECT ${copied} FROM ${table}`).execute(db);
  await sql.raw(`DROP TABLE ${table}`).execute(db);
  await sql.raw(`ALTER TABLE ${next} RENAME TO ${table}`).execute(db);
  await sql.raw(`CREATE INDEX ${table}_user ON ${table} (user_id)`).execute(db);
}
