import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendAvailable } from '../../test/backends';
import { openTestDatabase } from '../../telemetry/testing';
import { dropPgSchema, openDatabase, type Database } from '../database';

const url = process.env.TEST_DATABASE_URL;

// Another schema of the same database holding tables of the same names, with other columns, as a
// second installation or a copy kept aside would; its name sorts before every schema the tests make.
describe.runIf(backendAvailable('migrations beside another schema', 'TEST_DATABASE_URL'))(
  'migrations on PostgreSQL beside another schema',
  () => {
    const decoy = `a_decoy_${randomBytes(4).toString('hex')}`;
    let other: Database;
    beforeAll(async () => {
      other = await openDatabase({ url: url!, pgSchema: decoy, poolSize: 1 });
      await sql`CREATE TABLE telemetry_minutes (device_id integer, ts_sec bigint, samples integer, decoy_avg real NOT NULL)`.execute(
        other.db,
      );
      await sql`CREATE TABLE telemetry_hours (device_id integer, hour_sec bigint, minutes integer, samples integer, decoy_avg real NOT NULL)`.execute(
        other.db,
      );
    });
    afterAll(async () => {
      await other.close();
      await dropPgSchema(url!, decoy);
    });

    it('read the columns of their own schema only', async () => {
      const database = await openTestDatabase('postgres');
      try {
        const columns = async (table: string) =>
          (
            await sql<{ column_name: string; is_nullable: string }>`
              SELECT column_name, is_nullable FROM information_schema.columns
              WHERE table_schema = ${database.schema!} AND table_name = ${table}`.execute(database.db)
          ).rows;
        const hours = await columns('telemetry_hours');
        // The hourly rollup has the minute table's columns, not the other schema's.
        expect(hours.map((c) => c.column_name)).not.toContain('decoy_avg');
        expect(hours.map((c) => c.column_name)).toContain('u_l1_avg');
        // Every value column of the minutes takes null (migration 027 found its own table).
        expect(hours.find((c) => c.column_name === 'u_l1_avg')?.is_nullable).toBe('YES');
        const minutes = await columns('telemetry_minutes');
        expect(minutes.find((c) => c.column_name === 'u_l1_avg')?.is_nullable).toBe('YES');
      } finally {
        await database.dispose();
      }
    });
  },
);
