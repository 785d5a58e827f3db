import type { Selectable } from 'kysely';
import type { Database } from '../db/database';
import type { SessionsTable } from '../db/schema';

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
    async purgeExpired(nowMs: number): Promise<void> {
      await db.deleteFrom('sessions').where('expires_at_ms', '<=', nowMs).execute();
    },
    async countFailures(key: string, sinceMs: number): Promise<number> {
      const r = await db
        .selectFrom('login_failures')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('key', '=', key)
        .where('at_ms', '>', sinceMs)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async addFailure(key: string, atMs: number, purgeBeforeMs: number): Promise<void> {
      await db.deleteFrom('login_failures').where('key', '=', key).where('at_ms', '<=', purgeBeforeMs).execute();
      await db.insertInto('login_failures').values({ key, at_ms: atMs }).execute();
    },
    async clearFailures(key: string): Promise<void> {
      await db.deleteFrom('login_failures').where('key', '=', key).execute();
    },
  };
}
/** SQL for sessions and sign-in failures. */
export type SessionsRepository = ReturnType<typeof sessionsRepository>;
