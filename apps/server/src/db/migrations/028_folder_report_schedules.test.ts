import { describe, expect, it } from 'vitest';
import { migrateToLatest } from './index';
import type { ReportsDB } from '../../reports/reports.schema';
import { insertDevice, openTestDatabase } from '../../telemetry/testing';
import { DIALECTS } from '../../test/dialects';

describe.each(DIALECTS)('folder targets of report schedules on $name', ({ name }) => {
  it('keeps the schedules, runs and kept reports made before, and takes a folder or a device only', async () => {
    const database = await openTestDatabase(name, { upTo: '027_absent_quantities' });
    try {
      const user = await database.db
        .insertInto('users')
        .values({ login: 'alice', auth_type: 0, applications: '', created_at_ms: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      const device = await insertDevice(database, '02-4D-50-00-00-41', 4);
      // The old tables have no folder column: the rows are written as migration 023 made them.
      const old = database.db.withTables<{
        report_schedules: Omit<ReportsDB['report_schedules'], 'folder' | 'device_id'> & { device_id: number };
        report_runs: ReportsDB['report_runs'];
        report_files: Omit<ReportsDB['report_files'], 'folder' | 'device_id'> & { device_id: number };
      }>();
      const schedule = await old
        .insertInto('report_schedules')
        .values({
          user_id: user.id,
          device_id: device,
          kind: 'PEAKS',
          every: 'MONTHLY',
          delivery: 'KEEP',
          email: null,
          language: 'sk',
          created_at_ms: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await old
        .insertInto('report_runs')
        .values({
          schedule_id: schedule.id,
          period_sec: 100,
          state: 'DONE',
          attempts: 1,
          error: null,
          updated_at_ms: 2,
        })
        .execute();
      const pdf = Buffer.from('%PDF-1.7 kept');
      await old
        .insertInto('report_files')
        .values({
          user_id: user.id,
          device_id: device,
          kind: 'PEAKS',
          language: 'sk',
          from_sec: 100,
          to_sec: 200,
          created_at_ms: 3,
          pdf,
        })
        .execute();

      await migrateToLatest(database);
      const db = database.db.withTables<ReportsDB>();
      expect(
        await db.selectFrom('report_schedules').select(['id', 'device_id', 'folder', 'kind']).execute(),
      ).toEqual([{ id: schedule.id, device_id: device, folder: null, kind: 'PEAKS' }]);
      expect(await db.selectFrom('report_runs').select(['schedule_id', 'state']).execute()).toEqual([
        { schedule_id: schedule.id, state: 'DONE' },
      ]);
      const files = await db.selectFrom('report_files').select(['device_id', 'folder', 'pdf']).execute();
      expect(files.map((f) => [f.device_id, f.folder, Buffer.from(f.pdf).toString()])).toEqual([
        [device, null, '%PDF-1.7 kept'],
      ]);

      const row = (device_id: number | null, folder: string | null) => ({
        user_id: user.id,
        device_id,
        folder,
        kind: 'ENERGY_COST',
        every: 'WEEKLY',
        delivery: 'KEEP',
        email: null,
        language: 'en',
        created_at_ms: 4,
      });
      await db.insertInto('report_schedules').values(row(null, '["Plant"]')).execute();
      await expect(db.insertInto('report_schedules').values(row(null, null)).execute()).rejects.toThrow();
      await expect(
        db.insertInto('report_schedules').values(row(device, '["Plant"]')).execute(),
      ).rejects.toThrow();
      // Removing a schedule still removes its runs.
      await db.deleteFrom('report_schedules').where('id', '=', schedule.id).execute();
      expect(await db.selectFrom('report_runs').selectAll().execute()).toEqual([]);
    } finally {
      await database.dispose();
    }
  });
});
