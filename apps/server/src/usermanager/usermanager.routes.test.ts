import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_LIFETIME_SEC } from '@meterportal/protocol';
import { sha256Hex } from '../auth/crypto';
import {
  DIALECTS,
  addDevice,
  addUser,
  call,
  createTestApp,
  quickSession,
  signIn,
  snapshot,
  type Client,
  type TestApp,
} from '../test/harness';

describe.each(DIALECTS)('user manager on $name', (dialect) => {
  let t: TestApp;
  let boss: Client;
  let bossId: number;
  const macs = Array.from({ length: 17 }, (_, i) => `02-4D-50-00-01-${String(i).padStart(2, '0')}`);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    bossId = await addUser(t.services, 'boss', 'boss-secret', 'USER_MANAGER');
    await addUser(t.services, 'demo', 'demo');
    for (const m of macs) await addDevice(t.services, m, 4, `Meter ${m.slice(-2)}`);
    boss = await quickSession(t.services, bossId);
  });
  afterAll(() => t.close());

  const um = (method: 'POST' | 'PUT' | 'DELETE', path: string, body: object) =>
    call(t.app, method, `/api${path}`, { user_token: boss.token, ...body }, boss);

  it('creates a user who can then sign in, and refuses the same login twice', async () => {
    const r = await um('POST', '/write/applications/usermanager/user/add', {
      login: 'newbie',
      password: sha256Hex('newbie-pw'),
    });
    expect(r.json()).toEqual({ status: 'OK' });
    await expect(signIn(t.app, 'newbie', 'newbie-pw')).resolves.toMatchObject({ devices: [] });
    const again = await um('POST', '/write/applications/usermanager/user/add', {
      login: 'newbie',
      password: sha256Hex('x'),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 608, message: 'Object already exist' });
  });

  it.each(['NEWBIE', 'Newbie', 'ｎｅｗｂｉｅ'])(
    'refuses %s, the same login after case folding and NFKC',
    async (login) => {
      const before = await snapshot(t.services);
      const r = await um('POST', '/write/applications/usermanager/user/add', {
        login,
        password: sha256Hex('x-pw-123'),
      });
      expect(r.statusCode).toBe(409);
      expect(r.json()).toMatchObject({ code: 608, message: 'Object already exist' });
      expect(await snapshot(t.services)).toEqual(before);
    },
  );

  it.each(['nеwbie', 'аdmin', 'pοrtal'])(
    'refuses %s, a login mixing Latin with Cyrillic or Greek look-alikes',
    async (login) => {
      const before = await snapshot(t.services);
      const r = await um('POST', '/write/applications/usermanager/user/add', {
        login,
        password: sha256Hex('x-pw-123'),
      });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toEqual({
        status: 'ERROR',
        code: 600,
        message: 'Invalid request at login: must not mix Latin, Cyrillic and Greek letters',
      });
      expect(await snapshot(t.services)).toEqual(before);
    },
  );

  it('creates logins written wholly in one script, and finds users whatever the case', async () => {
    const r = await um('POST', '/write/applications/usermanager/user/add', {
      login: 'Иван',
      password: sha256Hex('ivan-pw'),
    });
    expect(r.json()).toEqual({ status: 'OK' });
    await expect(signIn(t.app, 'иван', 'ivan-pw')).resolves.toBeTruthy();
    const removed = await um('DELETE', '/write/applications/usermanager/user/remove', { login: 'ИВАН' });
    expect(removed.json()).toEqual({ status: 'OK' });
    expect(await t.services.repos.users.findByLogin('Иван')).toBeUndefined();
  });

  it.each([
    [{ login: 'ab', password: sha256Hex('abcdef') }],
    [{ login: 'abc', password: 'plain-text' }],
    [{ login: 'a b c', password: sha256Hex('abcdef') }],
  ])('refuses %j like the form does', async (body) => {
    const before = await snapshot(t.services);
    const r = await um('POST', '/write/applications/usermanager/user/add', body);
    expect(r.statusCode).toBe(400);
    expect(await snapshot(t.services)).toEqual(before);
  });

  it('assigns a device with a validity; the user sees exactly it until it expires', async () => {
    const now = Math.floor(t.clock.nowMs() / 1000);
    const r = await um('POST', '/write/applications/usermanager/assign', {
      login: 'newbie',
      device: macs[0],
      lifeTime: now + 2592000,
    });
    expect(r.json()).toEqual({ status: 'OK' });
    const c = await signIn(t.app, 'newbie', 'newbie-pw');
    expect(c.devices).toEqual([
      expect.objectContaining({ mac: macs[0], owner: false, expire: now + 2592000 }),
    ]);
    const list = await um('POST', '/read/applications/usermanager/user/list', {});
    const newbie = list.json().data.find((u: { login: string }) => u.login === 'newbie');
    expect(newbie).toMatchObject({
      devices: [macs[0]],
      assignments: [{ device: macs[0], lifeTime: now + 2592000, owner: false }],
    });
    t.clock.advance(2592000 * 1000);
    const later = await quickSession(t.services, (await t.services.repos.users.findByLogin('newbie'))!.id);
    expect(later.devices).toEqual([]);
    t.clock.advance(-2592000 * 1000);
  });

  it('makes an owner with the owner expiry, and removes a device again', async () => {
    await um('POST', '/write/applications/usermanager/assign', {
      login: 'newbie',
      device: macs[1],
      lifeTime: OWNER_LIFETIME_SEC,
    });
    let c = await signIn(t.app, 'newbie', 'newbie-pw');
    expect(c.devices.find((d) => d.mac === macs[1])).toMatchObject({
      owner: true,
      expire: OWNER_LIFETIME_SEC,
    });
    const r = await um('DELETE', '/write/applications/usermanager/assign', {
      login: 'newbie',
      device: macs[1],
    });
    expect(r.json()).toEqual({ status: 'OK' });
    c = await signIn(t.app, 'newbie', 'newbie-pw');
    expect(c.devices.map((d) => d.mac)).toEqual([macs[0]]);
  });

  it('refuses a past validity, an unknown device or user, and a 16th device', async () => {
    const now = Math.floor(t.clock.nowMs() / 1000);
    expect(
      (
        await um('POST', '/write/applications/usermanager/assign', {
          login: 'newbie',
          device: macs[2],
          lifeTime: now - 1,
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await um('POST', '/write/applications/usermanager/assign', {
          login: 'newbie',
          device: '02-4D-50-00-09-99',
          lifeTime: now + 60,
        })
      ).json().code,
    ).toBe(605);
    expect(
      (
        await um('POST', '/write/applications/usermanager/assign', {
          login: 'ghost',
          device: macs[2],
          lifeTime: now + 60,
        })
      ).json().code,
    ).toBe(605);
    for (const m of macs.slice(1, 15)) {
      expect(
        (
          await um('POST', '/write/applications/usermanager/assign', {
            login: 'newbie',
            device: m,
            lifeTime: now + 600,
          })
        ).statusCode,
      ).toBe(200);
    }
    const sixteenth = await um('POST', '/write/applications/usermanager/assign', {
      login: 'newbie',
      device: macs[15],
      lifeTime: now + 600,
    });
    expect(sixteenth.statusCode).toBe(400);
    expect(sixteenth.json().message).toMatch(/at most 15/);
    // Renewing one already held is still allowed.
    expect(
      (
        await um('POST', '/write/applications/usermanager/assign', {
          login: 'newbie',
          device: macs[3],
          lifeTime: now + 900,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('lists every device of the installation', async () => {
    const r = await um('POST', '/read/applications/usermanager/device/list', {});
    expect(r.json().data).toHaveLength(17);
    expect(r.json().data[0]).toEqual({ MAC: macs[0], title: 'Meter 00', type: 4 });
  });

  it("changes a user's password and ends that user's sessions; never demo's", async () => {
    const c = await signIn(t.app, 'newbie', 'newbie-pw');
    const r = await um('PUT', '/write/applications/usermanager/user/add', {
      login: 'newbie',
      password: sha256Hex('newbie-pw2'),
    });
    expect(r.json()).toEqual({ status: 'OK' });
    expect((await call(t.app, 'POST', '/api/read/auth/local', { token: c.token }, c)).json().code).toBe(601);
    await expect(signIn(t.app, 'newbie', 'newbie-pw2')).resolves.toBeTruthy();
    const demo = await um('PUT', '/write/applications/usermanager/user/add', {
      login: 'demo',
      password: sha256Hex('hacked'),
    });
    expect(demo.statusCode).toBe(403);
    await expect(signIn(t.app, 'demo', 'demo')).resolves.toBeTruthy();
  });

  it('deletes a user with everything of theirs, never itself or the last user manager', async () => {
    const self = await um('DELETE', '/write/applications/usermanager/user/remove', { login: 'boss' });
    expect(self.statusCode).toBe(403);
    const r = await um('DELETE', '/write/applications/usermanager/user/remove', { login: 'newbie' });
    expect(r.json()).toEqual({ status: 'OK' });
    await expect(signIn(t.app, 'newbie', 'newbie-pw2')).rejects.toThrow(/401/);
    // With two managers one may remove the other; the one left cannot remove itself.
    const otherId = await addUser(t.services, 'boss2', 'boss2-secret', 'USER_MANAGER');
    const other = await quickSession(t.services, otherId);
    const removeBoss = await call(
      t.app,
      'DELETE',
      '/api/write/applications/usermanager/user/remove',
      { user_token: other.token, login: 'boss' },
      other,
    );
    expect(removeBoss.json()).toEqual({ status: 'OK' });
    expect(await t.services.repos.users.findByLogin('boss')).toBeUndefined();
  });
});
