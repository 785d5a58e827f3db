import { Application } from '@meterportal/protocol';
import type { Database } from '../db/database';
import { toUserRow } from '../auth/users.repository';

/** SQL the user manager needs beyond the users and devices repositories. */
export function userManagerRepository({ db }: Database) {
  return {
    async listUsers() {
      const rows = await db
        .selectFrom('users')
        .select(['id', 'login', 'auth_type', 'applications'])
        .orderBy('login')
        .execute();
      return rows.map(toUserRow);
    },
    listAssignments(nowSec: number) {
      return db
        .selectFrom('assignments as a')
        .innerJoin('devices as d', 'd.id', 'a.device_id')
        .select(['a.user_id', 'd.mac', 'd.title', 'a.life_time_sec', 'a.owner'])
        .where('a.life_time_sec', '>', nowSec)
        .orderBy('d.mac')
        .execute();
    },
    async countActiveAssignments(userId: number, nowSec: number): Promise<number> {
      const r = await db
        .selectFrom('assignments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('life_time_sec', '>', nowSec)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async countManagersOtherThan(userId: number): Promise<number> {
      const rows = await db
        .selectFrom('users')
        .select(['id', 'applications'])
        .where('id', '!=', userId)
        .execute();
      return rows.map(toUserRow).filter((r) => r.applications.includes(Application.UserManager)).length;
    },
    async deleteUser(userId: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
        await trx.deleteFrom('assignments').where('user_id', '=', userId).execute();
        await trx.deleteFrom('hierarchies').where('user_id', '=', userId).execute();
        await trx.deleteFrom('users').where('id', '=', userId).execute();
      });
    },
  };
}
/** SQL the user manager needs. */
export type UserManagerRepository = ReturnType<typeof userManagerRepository>;
