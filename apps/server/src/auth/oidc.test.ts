import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { sha256Hex } from './crypto';
import { DIALECTS, call, createTestApp, type TestApp } from '../test/harness';
import { startOidcProvider, type TestOidcProvider } from '../test/oidcProvider';
import { SESSION_COOKIE } from '../http/session';

describe.each(DIALECTS)('identity-provider sign-in on $name', (dialect) => {
  let t: TestApp;
  let idp: TestOidcProvider;

  const google = (body: object) => call(t.app, 'POST', '/api/read/auth/google', body);
  const refused = { status: 'ERROR', code: 616, message: 'Login credentials incorrect' };

  beforeAll(async () => {
    idp = await startOidcProvider({
      'sub-ann': { email: 'ann@example.org', name: 'Ann Example', picture: 'http://127.0.0.1/ann.png' },
      'sub-eve': { email: 'boss@example.org', name: 'Not Verified', email_verified: false },
      'sub-dan': { email: 'Ann@Example.org', name: 'Dan Same Mail' },
    });
    t = await createTestApp(dialect, { env: { OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId } });
    // The provider's tokens carry real time; the portal checks expiry by its own clock.
    t.clock.set(Date.now());
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  it('signs in with the tokens of a real OpenID provider, creating the user once', async () => {
    const tokens = await idp.issueTokens('sub-ann');
    const res = await google({ token: tokens.accessToken, id_token: tokens.idToken });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toEqual([]);
    expect(body.user).toMatchObject({
      id: 2,
      type: 'oidc',
      user: 'ann@example.org',
      user_name: 'Ann Example',
      avatar: 'http://127.0.0.1/ann.png',
      applications: [],
    });
    const again = await idp.issueTokens('sub-ann');
    expect((await google({ token: again.accessToken, id_token: again.idToken })).json().user.user).toBe(
      'ann@example.org',
    );
    const row = await t.services.repos.users.findByIssuerSubject(idp.issuer, 'sub-ann');
    expect(row).toMatchObject({ login: 'ann@example.org', auth_type: 2, password_hash: null });
  });

  it('refuses tokens the same provider issued to another application', async () => {
    const other = await idp.issueTokens('sub-ann', { clientId: idp.otherClientId });
    expect(decodeJwt(other.idToken).aud).toBe(idp.otherClientId);
    const res = await google({ token: other.accessToken, id_token: other.idToken });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(refused);
    expect(res.cookies).toHaveLength(0);
    // Nor does another application's access token pass beside this portal's ID token.
    const mine = await idp.issueTokens('sub-ann');
    expect((await google({ token: other.accessToken, id_token: mine.idToken })).json()).toEqual(refused);
  });

  it('checks an access token sent alone at the issuer: only one issued to this portal signs in', async () => {
    const mine = await idp.issueTokens('sub-ann');
    const res = await google({ token: mine.accessToken });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.user).toBe('ann@example.org');
    const other = await idp.issueTokens('sub-ann', { clientId: idp.otherClientId });
    const refusedOther = await google({ token: other.accessToken });
    expect(refusedOther.statusCode).toBe(401);
    expect(refusedOther.json()).toEqual(refused);
    expect(refusedOther.cookies).toHaveLength(0);
  });

  it('refuses a forged ID token, an expired one and an unknown access token', async () => {
    const tokens = await idp.issueTokens('sub-ann');
    const [head, payload] = tokens.idToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims, sub: 'sub-eve' })).toString('base64url')}.${tokens.idToken.split('.')[2]}`;
    expect((await google({ token: tokens.accessToken, id_token: forged })).json()).toEqual(refused);
    const exp = decodeJwt(tokens.idToken).exp!;
    const before = t.clock.nowMs();
    t.clock.set(exp * 1000 + 1000);
    try {
      expect((await google({ token: tokens.accessToken, id_token: tokens.idToken })).json()).toEqual(refused);
    } finally {
      t.clock.set(before);
    }
    expect(
      (await google({ token: 'not-a-real-access-token', id_token: 'not.a.token-at-all' })).json(),
    ).toEqual(refused);
    expect((await google({ token: 'not-a-real-access-token' })).json()).toEqual(refused);
  });

  it('takes the e-mail as login only when the provider has verified it', async () => {
    const tokens = await idp.issueTokens('sub-eve');
    const res = await google({ token: tokens.accessToken, id_token: tokens.idToken });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.user).toBe('sub-eve@127.0.0.1');
    expect(res.json().user.user_name).toBe('Not Verified');
  });

  it('gives a verified e-mail that folds to a taken login a login of its own', async () => {
    const tokens = await idp.issueTokens('sub-dan');
    const res = await google({ token: tokens.accessToken, id_token: tokens.idToken });
    expect(res.json().user.user).toBe('Ann@Example.org-2');
  });

  it('refuses a password change for identity-provider users', async () => {
    const tokens = await idp.issueTokens('sub-ann');
    const res = await google({ token: tokens.accessToken, id_token: tokens.idToken });
    const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
    const r = await call(
      t.app,
      'POST',
      '/api/write/auth/local/change-password',
      { login: 'ann@example.org', oldPassword: sha256Hex('a'), newPassword: sha256Hex('b') },
      { cookie },
    );
    expect(r.statusCode).toBe(403);
  });

  it('refuses identity-provider sign-in entirely when no client id is configured', async () => {
    const off = await createTestApp(dialect, { env: { OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: '' } });
    try {
      off.clock.set(Date.now());
      const tokens = await idp.issueTokens('sub-ann');
      const res = await call(off.app, 'POST', '/api/read/auth/google', {
        token: tokens.accessToken,
        id_token: tokens.idToken,
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        status: 'ERROR',
        code: 616,
        message: 'Identity-provider sign-in is not configured',
      });
      expect(await off.services.repos.users.count()).toBe(0);
    } finally {
      await off.close();
    }
  });
});
