import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { backendAvailable } from '../../test/backends';
import { openTestDatabase } from '../../telemetry/testing';

describe.runIf(backendAvailable('page room for ingest updates', 'TEST_DATABASE_URL'))(
  'tables ingest rewrites every second on PostgreSQL',
  () => {
    it('keep room on each page for heap-only updates, in the migrated schema only', async () => {
      const database = await openTestDatabase('postgres');
      try {
        const options = await sql<{ relname: string; reloptions: string[] | null }>`
          SELECT c.relname, c.reloptions FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = ${database.schema!} AND c.relkind = 'r'
            AND c.relname IN ('telemetry_cursors', 'energy_days', 'energy_quarters', 'telemetry_minutes')
          ORDER BY c.relname`.execute(database.db);
        expect(options.rows).toEqual([
          { relname: 'energy_days', reloptions: ['fillfactor=50'] },
          { relname: 'energy_quarters', reloptions: ['fillfactor=90'] },
          { relname: 'telemetry_cursors', reloptions: ['fillfactor=50'] },
          { relname: 'telemetry_minutes', reloptions: null },
        ]);
      } finally {
        await database.close();
      }
    });
  },
);
