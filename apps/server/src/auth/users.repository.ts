import type { Insertable, Selectable } from 'kysely';
import { APPLICATIONS, loginKey, type ApplicationName } from '@meterportal/protocol';
import type { Database } from '../db/database';
import type { UsersTable } from '../db/schema';

/** A stored user, its application rights read from their column. */
export type UserRow = Omit<Selectable<UsersTable>, 'applications'> & { applications: ApplicationName[] };

/** A user to create; the login key is derived from the login. */
export type NewUser = Omit<Insertable<UsersTable>, 'login_key' | 'applications'> & {
  applications: readonly ApplicationName[];
};

const KNOWN_APPLICATIONS = new Set<string>(APPLICATIONS);

/**
 * The one reader of the `applications` column: a comma-separated list of rights, of which only
 * known ones count (an unknown name grants nothing).
 */
export function toUserRow<T extends { applications: string }>(
  raw: T,
): Omit<T, 'applications'> & { applications: ApplicationName[] } {
  return {
    ...raw,
    applications: raw.applications
      .split(',')
      .map((a) => a.trim())
      .filter((a): a is ApplicationName => KNOWN_APPLICATIONS.has(a)),
  };
}

/** The `applications` column of a list of rights. */
export const applicationsColumn = (applications: readonly ApplicationName[]): string =>
  applications.join(',');

/** SQL for users. */
export function usersRepository({ db }: Database) {
  const one = (raw: Selectable<UsersTable> | undefined): UserRow | undefined =>
    raw ? toUserRow(raw) : undefined;
  const findByLoginKey = async (key: string): Promise<UserRow | undefined> =>
    one(await db.selectFrom('users').selectAll().where('login_key', '=', key).executeTakeFirst());
  return {
    /**
     * The user a typed login names: the exact login first (older logins that differ only in case
     * keep working), else the one whose login compares equal (case and Unicode form folded).
     */
    async findByLogin(login: string): Promise<UserRow | undefined> {
      return (
        one(await db.selectFrom('users').selectAll().where('login', '=', login).executeTakeFirst()) ??
        (await findByLoginKey(loginKey(login)))
      );
    },
    /** The user whose login folds to this key. */
    findByLoginKey,
    async findById(id: number): Promise<UserRow | undefined> {
      return one(await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst());
    },
    async findByIssuerSubject(issuer: string, subject: string): Promise<UserRow | undefined> {
      return one(
        await db
          .selectFrom('users')
          .selectAll()
          .where('issuer', '=', issuer)
          .where('subject', '=', subject)
          .executeTakeFirst(),
      );
    },
    /** Creates a user; its login key is derived here, so the unique index refuses a colliding login. */
    async create(row: NewUser): Promise<UserRow> {
      return toUserRow(
        await db
          .insertInto('users')
          .values({
            ...row,
            applications: applicationsColumn(row.applications),
            login_key: loginKey(row.login),
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
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
