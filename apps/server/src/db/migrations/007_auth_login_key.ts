import type { Kysely } from 'kysely';

/** NFKC and case folded, as the portal compares logins (spelled out here: a migration is frozen). */
function loginKey(login: string): string {
  return login.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

/**
 * users.login_key: the login as it is compared, unique, so `Bob` and `bob` cannot both be
 * created. Existing rows get their key; where older logins already collide, the first (lowest id)
 * keeps the plain key and each later one gets `<key>#<id>` (no login can hold #), so every
 * existing account still signs in with its exact login.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('login_key', 'text').execute();
  const d = db as unknown as Kysely<{ users: { id: number; login: string; login_key: string | null } }>;
  const rows = await d.selectFrom('users').select(['id', 'login']).orderBy('id').execute();
  const taken = new Set<string>();
  for (const r of rows) {
    const plain = loginKey(r.login);
    const key = taken.has(plain) ? `${plain}#${r.id}` : plain;
    taken.add(key);
    await d.updateTable('users').set({ login_key: key }).where('id', '=', r.id).execute();
  }
  await db.schema.createIndex('users_login_key_unique').on('users').column('login_key').unique().execute();
}
