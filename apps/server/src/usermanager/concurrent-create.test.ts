import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../auth/crypto';
import type { OidcIdentity, OidcVerifier } from '../auth/oidc';
import {
  DIALECTS,
  addUser,
  call,
  createTestApp,
  quickSession,
  type Client,
  type TestApp,
} from '../test/harness';

/** The provider's answer, chosen per access token: two tokens, two people, one e-mail each. */
const people: Record<string, OidcIdentity> = {
  'token-ann': {
    issuer: 'https://id.example.test',
    subject: 'ann-1',
    name: 'Ann',
    email: 'ann@example.test',
    emailVerified: true,
    picture: null,
  },
  'token-eve': {
    issuer: 'https://id.example.test',
    subject: 'eve-1',
    name: 'Eve',
    email: 'eve@example.test',
    emailVerified: true,
    picture: null,
  },
  'token-other-eve': {
    issuer: 'https://id.example.test',
    subject: 'eve-2',
    name: 'Another Eve',
    email: 'EVE@example.test',
    emailVerified: true,
    picture: null,
  },
};
const verifier: OidcVerifier = {
  verify: (tokens) => Promise.resolve(people[tokens.accessToken] ?? null),
};

describe.each(DIALECTS)('logins created at the same moment on $name', (dialect) => {
  let t: TestApp;
  let boss: Client;

  beforeAll(async () => {
    t = await createTestApp(dialect, { oidc: verifier, env: { OIDC_CLIENT_ID: 'portal' } });
    boss = await quickSession(t.services, await addUser(t.services, 'boss', 'boss-secret', 'USER_MANAGER'));
  });
  afterAll(() => t.close());

  const add = (login: string) =>
    call(
      t.app,
      'POST',
      '/api/write/applications/usermanager/user/add',
      { user_token: boss.token, login, password: sha256Hex(`${login}-pw`) },
      boss,
    );
  const usersFolding = async (key: string) =>
    (
      await t.services.database.db.selectFrom('users').select('login').where('login_key', '=', key).execute()
    ).map((r) => r.login);

  it.each([
    ['the same login', 'bob', 'bob'],
    ['logins equal after case folding', 'Carol', 'carol'],
    ['logins equal after NFKC', 'dave', 'ｄａｖｅ'],
  ])('two adds of %s at once: one is created, the other gets 608 "Object already exist"', async (_, a, b) => {
    const answers = await Promise.all([add(a), add(b), add(a), add(b)]);
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409]);
    for (const r of answers.filter((x) => x.statusCode === 409)) {
      expect(r.json()).toEqual({ status: 'ERROR', code: 608, message: 'Object already exist' });
    }
    expect(await usersFolding(a.toLowerCase())).toHaveLength(1);
  });

  it('a first identity-provider sign-in made twice at once signs both in to one account', async () => {
    const answers = await Promise.all(
      [1, 2, 3].map(() => call(t.app, 'POST', '/api/read/auth/google', { token: 'token-ann' })),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const accounts = await t.services.database.db
      .selectFrom('users')
      .select(['id', 'login'])
      .where('subject', '=', 'ann-1')
      .execute();
    expect(accounts).toEqual([{ id: expect.any(Number) as number, login: 'ann@example.test' }]);
  });

  it('two people whose e-mails fold to one login, first signing in at once, get two accounts', async () => {
    const answers = await Promise.all([
      call(t.app, 'POST', '/api/read/auth/google', { token: 'token-eve' }),
      call(t.app, 'POST', '/api/read/auth/google', { token: 'token-other-eve' }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    const rows = await t.services.database.db
      .selectFrom('users')
      .select(['subject', 'login_key'])
      .where('subject', 'in', ['eve-1', 'eve-2'])
      .orderBy('login_key')
      .execute();
    expect(rows.map((r) => r.login_key)).toEqual(['eve@example.test', 'eve@example.test-2']);
    expect(new Set(rows.map((r) => r.subject))).toEqual(new Set(['eve-1', 'eve-2']));
  });
});
