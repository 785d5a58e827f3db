import type { Insertable, Selectable } from 'kysely';
import { loginKey } from '@meterportal/protocol';
import type { Database } from '../db/database';
import type { UsersTable } from '../db/schema';

/** A stored user. */
export type UserRow = Selectable<UsersTable>;

/** SQL for users. */
export function usersRepository({ db }: Database) {
  const findByLoginKey = (key: string): Promise<UserRow | undefined> =>
    db.selectFrom('users').selectAll().where('login_key', '=', key).executeTakeFirst();
  return {
    /**
     * The user a typed login names: the exact login first (older logins that differ only in case
     * keep working), else the one whose login compares equal (case and Unicode form folded).
     */
    async findByLogin(login: string): Promise<UserRow | undefined> {
      return (
        (await db.selectFrom('users').selectAll().where('login', '=', login).executeTakeFirst()) ??
        (await findByLoginKey(loginKey(login)))
      );
    },
    /** The user whose login folds to this key. */
    findByLoginKey,
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
    /** Creates a user; its login key is derived here, so the unique index refuses a colliding login. */
    async create(row: Omit<Insertable<UsersTable>, 'login_key'>): Promise<UserRow> {
      return db
        .insertInto('users')
        .values({ ...row, login_key: loginKey(row.login) })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    async updatePassword(id: number, passwordHash: string): Promise<void> {
      await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
    },
    async updateProfile(id: number, p: { user_name: string | null; avatar: string | null }): Promise<void> {
      await db.updateTable('users').set(p).where('id', '=', id).execute();
    },
    async count(): Promise<number> {
      const r = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}
/** SQL for users. */
export type UsersRepository = ReturnType<typeof usersRepository>;
