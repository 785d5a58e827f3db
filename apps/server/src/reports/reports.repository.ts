import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Database } from '../db/database';
import { isUniqueViolation } from '../db/unique-violation';
import type { ReportFilesTable, ReportSchedulesTable, ReportsDB } from './reports.schema';
import { deleteMatching } from '../db/keyed';

/** A schedule row with the newest period it ran for. */
export type ScheduleRow = Selectable<ReportSchedulesTable> & { last_period_sec: number | null };

/** SQL of report schedules, their runs and kept files. */
export function reportsRepository(database: Database) {
  const db = database.db.withTables<ReportsDB>();
  const schedules = () =>
    db
      .selectFrom('report_schedules as s')
      .selectAll('s')
      .select((eb) =>
        eb
          .selectFrom('report_runs as r')
          .whereRef('r.schedule_id', '=', 's.id')
          .where('r.state', '=', 'DONE')
          .select((r) => r.fn.max('r.period_sec').as('p'))
          .as('last_period_sec'),
      );

  return {
    listSchedules(userId: number): Promise<ScheduleRow[]> {
      return schedules().where('s.user_id', '=', userId).orderBy('s.id').execute();
    },
    allSchedules(): Promise<ScheduleRow[]> {
      return schedules().orderBy('s.id').execute();
    },
    async countSchedules(userId: number): Promise<number> {
      const r = await db
        .selectFrom('report_schedules')
        .where('user_id', '=', userId)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async insertSchedule(row: Insertable<ReportSchedulesTable>): Promise<number> {
      const r = await db.insertInto('report_schedules').values(row).returning('id').executeTakeFirstOrThrow();
      return Number(r.id);
    },
    findSchedule(userId: number, id: number): Promise<ScheduleRow | undefined> {
      return schedules().where('s.id', '=', id).where('s.user_id', '=', userId).executeTakeFirst();
    },
    /** Changes one of the user's schedules; false when it is not theirs or not there. */
    async updateSchedule(
      userId: number,
      id: number,
      set: Pick<Updateable<ReportSchedulesTable>, 'every' | 'delivery' | 'email' | 'language' | 'folder'>,
    ): Promise<boolean> {
      const r = await db
        .updateTable('report_schedules')
        .set(set)
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    /** Forgets a schedule's periods that found nothing to report, so the next pass makes them. */
    async reopenGoneRuns(scheduleId: number): Promise<void> {
      await db
        .deleteFrom('report_runs')
        .where('schedule_id', '=', scheduleId)
        .where('state', '=', 'GONE')
        .execute();
    },
    async deleteSchedule(userId: number, id: number): Promise<boolean> {
      return deleteMatching(db, 'report_schedules', { id, user_id: userId });
    },

    /**
     * Claims a schedule's period: true when this caller is to make the report. A period is made
     * once; a failed attempt is taken again after `retryAfterMs`, at most `maxAttempts` times.
     */
    async claimRun(
      scheduleId: number,
      periodSec: number,
      nowMs: number,
      retryAfterMs: number,
      maxAttempts: number,
    ): Promise<boolean> {
      try {
        await db
          .insertInto('report_runs')
          .values({
            schedule_id: scheduleId,
            period_sec: periodSec,
            state: 'RUNNING',
            attempts: 1,
            error: null,
            updated_at_ms: nowMs,
          })
          .execute();
        return true;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
      const r = await db
        .updateTable('report_runs')
        .set({ state: 'RUNNING', attempts: sql`attempts + 1`, updated_at_ms: nowMs })
        .where('schedule_id', '=', scheduleId)
        .where('period_sec', '=', periodSec)
        .where('state', '=', 'FAILED')
        .where('attempts', '<', maxAttempts)
        .where('updated_at_ms', '<=', nowMs - retryAfterMs)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async finishRun(
      scheduleId: number,
      periodSec: number,
      state: string,
      error: string | null,
      nowMs: number,
    ) {
      await db
        .updateTable('report_runs')
        .set({ state, error, updated_at_ms: nowMs })
        .where('schedule_id', '=', scheduleId)
        .where('period_sec', '=', periodSec)
        .execute();
    },
    runs(scheduleId: number) {
      return db
        .selectFrom('report_runs')
        .selectAll()
        .where('schedule_id', '=', scheduleId)
        .orderBy('period_sec')
        .execute();
    },

    async insertFile(row: Insertable<ReportFilesTable>): Promise<number> {
      const r = await db.insertInto('report_files').values(row).returning('id').executeTakeFirstOrThrow();
      return Number(r.id);
    },
    listFiles(userId: number) {
      return db
        .selectFrom('report_files')
        .select([
          'id',
          'device_id',
          'folder',
          'kind',
          'language',
          'from_sec',
          'to_sec',
          'created_at_ms',
          sql<number>`length(pdf)`.as('size_bytes'),
        ])
        .where('user_id', '=', userId)
        .orderBy('created_at_ms', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },
    findFile(userId: number, id: number) {
      return db
        .selectFrom('report_files')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },
    async purgeFiles(beforeMs: number) {
      await db.deleteFrom('report_files').where('created_at_ms', '<', beforeMs).execute();
    },
  };
}
/** SQL of reports. */
export type ReportsRepository = ReturnType<typeof reportsRepository>;
