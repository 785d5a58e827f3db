import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SESSION_SEC } from '@meterportal/protocol';
import { sha256Hex } from './crypto';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  quickSession,
  call,
  createTestApp,
  signIn,
  type TestApp,
} from '../test/harness';
import { SESSION_COOKIE } from '../http/session';

describe.each(DIALECTS)('sign-in and sessions on $name', (dialect) => {
  let t: TestApp;
  let aliceId: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    aliceId = await addUser(t.services, 'alice', 'alice-secret');
    await addUser(t.services, 'boss', 'boss-secret', 'USER_MANAGER');
    await addUser(t.services, 'demo', 'demo');
    const d1 = await addDevice(t.services, '02-4D-50-00-00-01', 1, 'House');
    const d3 = await addDevice(t.services, '02-4D-50-00-00-03', 3, 'Analyzer');
    await assign(t.services, aliceId, d1, true);
    await assign(t.services, aliceId, d3, false, 7200);
  });
  afterAll(async () => {
    await t.close();
  });

  it('signs in with login and SHA-256 password and answers the device list', async () => {
    const res = await call(t.app, 'POST', '/api/read/auth/local', {
      login: 'alice',
      password: sha256Hex('alice-secret'),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('OK');
    expect(body.user).toMatchObject({ id: 1, type: 'local', user: 'alice', applications: [] });
    expect(body.user.expiration).toBe(t.clock.nowMs() + LOCAL_SESSION_SEC * 1000);
    expect(body.user.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ value: body.user.token, httpOnly: true, sameSite: 'Lax' });
    expect(body.data).toEqual([
      {
        owner: true,
        mac: '02-4D-50-00-00-01',
        type: 1,
        token: expect.stringMatching(/\|32535215940$/),
        expire: 32535215940,
        title: 'House',
        phase_use: 3,
        lora: true,
        NILM: { process: false, autoLearn: false },
      },
      {
        owner: false,
        mac: '02-4D-50-00-00-03',
        type: 3,
        token: expect.stringMatching(/\|\d+$/),
        expire: Math.floor(t.clock.nowMs() / 1000) + 7200,
        title: 'Analyzer',
        phase_use: 3,
        description: 'PTE',
      },
    ]);
    expect(body.data[1].token.split('|')[1]).toBe(String(body.data[1].expire));
  });

  it('answers 603 for a wrong password or an unknown login, alike', async () => {
    for (const payload of [
      { login: 'alice', password: sha256Hex('wrong') },
      { login: 'nobody', password: sha256Hex('alice-secret') },
    ]) {
      const res = await call(t.app, 'POST', '/api/read/auth/local', payload);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ status: 'ERROR', code: 603, message: 'Login credentials incorrect' });
      expect(res.cookies).toHaveLength(0);
    }
  });

  it('signs in whatever the case of the login, and tells logins apart only by it', async () => {
    const c = await signIn(t.app, 'ALICE', 'alice-secret');
    const res = await call(t.app, 'POST', '/api/read/auth/local', { token: c.token }, c);
    expect(res.json().user.user).toBe('alice');
    await expect(signIn(t.app, 'Ａｌｉｃｅ', 'alice-secret')).resolves.toBeTruthy();
    await expect(signIn(t.app, 'аlice', 'alice-secret')).rejects.toThrow(/401/);
  });

  it('refuses the demo account when the installation runs without it (DEMO=false)', async () => {
    const off = await createTestApp(dialect, { env: { DEMO: 'false' } });
    try {
      const demoId = await addUser(off.services, 'demo', 'demo');
      await addUser(off.services, 'erin', 'erin-secret');
      // A session the demo account opened before the installation turned it off ends too.
      const earlier = await quickSession(off.services, demoId);
      const refresh = await call(off.app, 'POST', '/api/read/auth/local', { token: earlier.token }, earlier);
      expect(refresh.json().code).toBe(601);
      const res = await call(off.app, 'POST', '/api/read/auth/local', {
        login: 'demo',
        password: sha256Hex('demo'),
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ status: 'ERROR', code: 603, message: 'Login credentials incorrect' });
      expect(res.cookies).toHaveLength(0);
      await expect(signIn(off.app, 'erin', 'erin-secret')).resolves.toBeTruthy();
    } finally {
      await off.close();
    }
    // With the demo on (the default) the same account signs in.
    await expect(signIn(t.app, 'demo', 'demo')).resolves.toBeTruthy();
  });

  it('refreshes the device list with the token, only together with the cookie', async () => {
    const c = await signIn(t.app, 'alice', 'alice-secret');
    const d5 = await addDevice(t.services, '02-4D-50-00-00-05', 5, 'Plug');
    await assign(t.services, aliceId, d5, true);
    const res = await call(t.app, 'POST', '/api/read/auth/local', { token: c.token }, c);
    expect(res.statusCode).toBe(200);
    expect(res.json().user.token).toBe(c.token);
    expect(res.json().data.map((d: { mac: string }) => d.mac)).toContain('02-4D-50-00-00-05');
    const noCookie = await call(t.app, 'POST', '/api/read/auth/local', { token: c.token });
    expect(noCookie.statusCode).toBe(401);
    expect(noCookie.json().code).toBe(601);
    const other = await signIn(t.app, 'boss', 'boss-secret');
    const mixed = await call(t.app, 'POST', '/api/read/auth/local', { token: c.token }, other);
    expect(mixed.json().code).toBe(601);
  });

  it('ends a local session after 3599 seconds', async () => {
    const c = await signIn(t.app, 'alice', 'alice-secret');
    t.clock.advance(LOCAL_SESSION_SEC * 1000 - 1);
    expect((await call(t.app, 'POST', '/api/read/auth/local', { token: c.token }, c)).statusCode).toBe(200);
    t.clock.advance(2);
    expect((await call(t.app, 'POST', '/api/read/auth/local', { token: c.token }, c)).json().code).toBe(601);
  });

  it('logs out: the token stops working', async () => {
    const c = await signIn(t.app, 'alice', 'alice-secret');
    expect((await call(t.app, 'POST', '/api/write/auth/logout', { token: c.token }, c)).statusCode).toBe(200);
    expect((await call(t.app, 'POST', '/api/read/auth/local', { token: c.token }, c)).json().code).toBe(601);
  });

  it('changes a password: must differ, old must match, every session ends', async () => {
    await addUser(t.services, 'carol', 'carol-old');
    const a = await signIn(t.app, 'carol', 'carol-old');
    const b = await signIn(t.app, 'carol', 'carol-old');
    const same = await call(
      t.app,
      'POST',
      '/api/write/auth/local/change-password',
      { login: 'carol', oldPassword: sha256Hex('carol-old'), newPassword: sha256Hex('carol-old') },
      a,
    );
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('Passwords must be different');
    const wrongOld = await call(
      t.app,
      'POST',
      '/api/write/auth/local/change-password',
      { login: 'carol', oldPassword: sha256Hex('nope'), newPassword: sha256Hex('carol-new') },
      a,
    );
    expect(wrongOld.json().code).toBe(603);
    const ok = await call(
      t.app,
      'POST',
      '/api/write/auth/local/change-password',
      { login: 'carol', oldPassword: sha256Hex('carol-old'), newPassword: sha256Hex('carol-new') },
      a,
    );
    expect(ok.json()).toEqual({ status: 'OK' });
    expect((await call(t.app, 'POST', '/api/read/auth/local', { token: b.token }, b)).json().code).toBe(601);
    await expect(signIn(t.app, 'carol', 'carol-old')).rejects.toThrow(/401/);
    await expect(signIn(t.app, 'carol', 'carol-new')).resolves.toBeTruthy();
  });

  it('never lets demo change its password, nor anyone change another login', async () => {
    const demo = await signIn(t.app, 'demo', 'demo');
    const r = await call(
      t.app,
      'POST',
      '/api/write/auth/local/change-password',
      { login: 'demo', oldPassword: sha256Hex('demo'), newPassword: sha256Hex('demo2') },
      demo,
    );
    expect(r.statusCode).toBe(403);
    await expect(signIn(t.app, 'demo', 'demo')).resolves.toBeTruthy();
    const alice = await signIn(t.app, 'alice', 'alice-secret');
    const other = await call(
      t.app,
      'POST',
      '/api/write/auth/local/change-password',
      { login: 'boss', oldPassword: sha256Hex('boss-secret'), newPassword: sha256Hex('x') },
      alice,
    );
    expect(other.statusCode).toBe(403);
    await expect(signIn(t.app, 'boss', 'boss-secret')).resolves.toBeTruthy();
  });

  it('checks application rights', async () => {
    const boss = await signIn(t.app, 'boss', 'boss-secret');
    const alice = await signIn(t.app, 'alice', 'alice-secret');
    const ok = await call(
      t.app,
      'POST',
      '/api/read/applications/access',
      { user_token: boss.token, application: 'USER_MANAGER' },
      boss,
    );
    expect(ok.json()).toEqual({ status: 'OK' });
    const no = await call(
      t.app,
      'POST',
      '/api/read/applications/access',
      { user_token: alice.token, application: 'USER_MANAGER' },
      alice,
    );
    expect(no.statusCode).toBe(403);
    expect(no.json().code).toBe(602);
  });
});
