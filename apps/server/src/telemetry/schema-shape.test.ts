// The time-series tables stay ready for TimescaleDB: create_hypertable needs the time column in
// every unique index (primary keys included) and a NOT NULL integer time column. This reads the
// PostgreSQL catalog of a freshly migrated store, so a later key without time fails here.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from './testing';
import { backendAvailable } from '../test/backends';

const TIME_SERIES = {
  telemetry_minutes: 'ts_sec',
  energy_quarters: 'ts_sec',
  energy_days: 'day_sec',
} as const;

describe.runIf(backendAvailable('time-series tables on PostgreSQL', 'TEST_DATABASE_URL'))(
  'time-series tables on PostgreSQL',
  () => {
    let database: Awaited<ReturnType<typeof openTestDatabase>>;
    beforeAll(async () => {
      database = await openTestDatabase('postgres');
    });
    afterAll(async () => {
      await database.dispose();
    });

    it.each(Object.entries(TIME_SERIES))(
      '%s has %s in every unique index, as a NOT NULL integer',
      async (table, time) => {
        const indexes = await sql<{ name: string; columns: string[] }>`
      SELECT i.relname AS name, array_agg(a.attname::text ORDER BY a.attnum) AS columns
      FROM pg_index x
      JOIN pg_class t ON t.oid = x.indrelid
      JOIN pg_class i ON i.oid = x.indexrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = ANY (x.indkey)
      WHERE t.relname = ${table} AND n.nspname = current_schema() AND x.indisunique
      GROUP BY i.relname`.execute(database.db);
        expect(indexes.rows.length).toBeGreaterThan(0);
        for (const ix of indexes.rows) expect(ix.columns, ix.name).toContain(time);
        const column = await sql<{ data_type: string; is_nullable: string }>`
      SELECT data_type, is_nullable FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = ${table} AND column_name = ${time}`.execute(
          database.db,
        );
        expect(column.rows).toEqual([{ data_type: 'bigint', is_nullable: 'NO' }]);
      },
    );
  },
);
