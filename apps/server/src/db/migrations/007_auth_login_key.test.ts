import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { dropPgSchema, openDatabase, type Database } from '../database';
import { migrateToLatest } from './index';
import { DIALECTS } from '../../test/harness';
import { usersRepository } from '../../auth/users.repository';

describe.each(DIALECTS)('migration 007 (compared logins) on $name', (dialect) => {
  let database: Database;
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    database = await openDatabase(
      dialect.url ? { url: dialect.url, pgSchema: schema, poolSize: 2 } : { sqliteFile: ':memory:' },
    );
    await migrateToLatest(database, { upTo: '005_history_rollup' });
    // Rows written before logins were compared folded: two of them collide.
    const db = database.db as unknown as Kysely<{ users: Record<string, unknown> }>;
    for (const login of ['Bob', 'alice', 'bob', 'ＢＯＢ']) {
      await db
        .insertInto('users')
        .values({ login, auth_type: 1, password_hash: null, applications: '', created_at_ms: 1 })
        .execute();
    }
    await migrateToLatest(database);
  });
  afterAll(async () => {
    await database.close();
    if (dialect.url) await dropPgSchema(dialect.url, schema);
  });

  it('gives every existing user a key, the first of colliding logins the plain one', async () => {
    const rows = await database.db
      .selectFrom('users')
      .select(['id', 'login', 'login_key'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.login, r.login_key])).toEqual([
      ['Bob', 'bob'],
      ['alice', 'alice'],
      ['bob', `bob#${rows[2]!.id}`],
      ['ＢＯＢ', `bob#${rows[3]!.id}`],
    ]);
  });

  it('keeps each existing account reachable by its exact login and folds the rest', async () => {
    const users = usersRepository(database);
    expect((await users.findByLogin('bob'))?.login).toBe('bob');
    expect((await users.findByLogin('ＢＯＢ'))?.login).toBe('ＢＯＢ');
    expect((await users.findByLogin('BOB'))?.login).toBe('Bob');
    expect((await users.findByLogin('ALICE'))?.login).toBe('alice');
  });

  it('refuses a second row with the same key', async () => {
    await expect(
      sql`insert into users (login, login_key, auth_type, applications, created_at_ms) values ('Alice', 'alice', 1, '', 1)`.execute(
        database.db,
      ),
    ).rejects.toThrow(/unique|UNIQUE/);
  });
});
