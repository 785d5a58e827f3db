import type { Insertable, Selectable } from 'kysely';
import type { Database } from '../db/database';
import type { UsersTable } from '../db/schema';

/** A stored user. */
export type UserRow = Selectable<UsersTable>;

/** SQL for users. */
export function usersRepository({ db }: Database) {
  return {
    findByLogin(login: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('login', '=', login).executeTakeFirst();
    },
    findById(id: number): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findByIssuerSubject(issuer: string, subject: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('issuer', '=', issuer)
        .where('subject', '=', subject)
        .executeTakeFirst();
    },
    async create(row: Insertable<UsersTable>): Promise<UserRow> {
      return db.insertInto('users').values(row).returningAll().executeTakeFirstOrThrow();
    },
    async updatePassword(id: number, passwordHash: string): Promise<void> {
      await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
    },
    async updateProfile(id: number, p: { user_name: string | null; avatar: string | null }): Promise<void> {
      await db.updateTable('users').set(p).where('id', '=', id).execute();
    },
    async count(): Promise<number> {
      const r = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}
/** SQL for users. */
export type UsersRepository = ReturnType<typeof usersRepository>;
