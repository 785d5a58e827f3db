import type { Selectable } from 'kysely';
import type { Database } from '../db/database';
import type { SessionsTable } from '../db/schema';

/** Failures of one throttle key within a window. */
export interface FailureStats {
  count: number;
  oldestMs: number;
  newestMs: number;
}

/** A stored session. */
export type SessionRow = Selectable<SessionsTable>;

/** SQL for sessions and sign-in failures. */
export function sessionsRepository({ db }: Database) {
  return {
    async create(row: SessionRow): Promise<void> {
      await db.insertInto('sessions').values(row).execute();
    },
    findLive(tokenHash: string, nowMs: number): Promise<SessionRow | undefined> {
      return db
        .selectFrom('sessions')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .where('expires_at_ms', '>', nowMs)
        .executeTakeFirst();
    },
    async delete(tokenHash: string): Promise<void> {
      await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
    },
    async deleteForUser(userId: number): Promise<void> {
      await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
    },
    /** Deletes sessions that ended at or before the moment; answers how many. */
    async purgeExpired(nowMs: number): Promise<number> {
      const r = await db.deleteFrom('sessions').where('expires_at_ms', '<=', nowMs).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    /** Failures of a throttle key after a moment: how many, the oldest and the newest. */
    async failures(key: string, sinceMs: number): Promise<FailureStats> {
      const r = await db
        .selectFrom('login_failures')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('n'),
          eb.fn.min<number | string | null>('at_ms').as('oldest'),
          eb.fn.max<number | string | null>('at_ms').as('newest'),
        ])
        .where('key', '=', key)
        .where('at_ms', '>', sinceMs)
        .executeTakeFirstOrThrow();
      return { count: Number(r.n), oldestMs: Number(r.oldest ?? 0), newestMs: Number(r.newest ?? 0) };
    },
    async addFailures(keys: readonly string[], atMs: number): Promise<void> {
      await db
        .insertInto('login_failures')
        .values(keys.map((key) => ({ key, at_ms: atMs })))
        .execute();
    },
    async clearFailures(key: string): Promise<void> {
      await db.deleteFrom('login_failures').where('key', '=', key).execute();
    },
    /** Deletes failures recorded at or before the moment; answers how many. */
    async purgeFailures(beforeMs: number): Promise<number> {
      const r = await db.deleteFrom('login_failures').where('at_ms', '<=', beforeMs).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
/** SQL for sessions and sign-in failures. */
export type SessionsRepository = ReturnType<typeof sessionsRepository>;
