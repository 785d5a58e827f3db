import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routes, type RouteDef } from '@meterportal/protocol';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  call,
  createTestApp,
  signIn,
  type Client,
  type TestApp,
} from '../test/harness';

const BASES = { read: '/api/read', write: '/api/write' } as const;
const url = (r: RouteDef) => `${BASES[r.door]}${r.path}`;

describe.each(DIALECTS)('the caller of a route on $name', (dialect) => {
  let t: TestApp;
  let alice: Client;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const aliceId = await addUser(t.services, 'alice', 'alice-secret');
    await assign(t.services, aliceId, await addDevice(t.services, '02-4D-50-00-00-01', 1, 'House'), true);
    alice = await signIn(t.app, 'alice', 'alice-secret');
  });
  afterAll(() => t.close());

  const cases: [string, RouteDef, (c: Client) => unknown][] = [
    ['a user route with the token in `token`', routes.hierarchyRead, (c) => ({ token: c.token })],
    [
      'a user route with the token in `user_token`',
      routes.firmwareVersions,
      (c) => ({ user_token: c.token }),
    ],
    [
      'a user route that also names a device',
      routes.alarmRuleList,
      (c) => ({ user_token: c.token, device_token: c.devices[0]!.token }),
    ],
    ['a cookie route that names a device', routes.detailsRead, (c) => ({ token: c.devices[0]!.token })],
    ['a sign-in that refreshes the session', routes.authLocal, (c) => ({ token: c.token })],
  ];

  it.each(cases)('reads the session from the store once for %s', async (_name, def, body) => {
    const findLive = vi.spyOn(t.services.repos.sessions, 'findLive');
    try {
      const res = await call(t.app, def.method, url(def), body(alice), alice);
      // The handler ran for the resolved user (an empty hierarchy answers 610, not 601).
      expect(res.statusCode, res.body).not.toBe(401);
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect(findLive).toHaveBeenCalledTimes(1);
    } finally {
      findLive.mockRestore();
    }
  });

  it('reads no session for a public route', async () => {
    const findLive = vi.spyOn(t.services.repos.sessions, 'findLive');
    try {
      const res = await call(t.app, 'POST', url(routes.authLocal), {
        login: 'alice',
        password: 'f'.repeat(64),
      });
      expect(res.json()).toMatchObject({ status: 'ERROR', code: 603 });
      expect(findLive).not.toHaveBeenCalled();
    } finally {
      findLive.mockRestore();
    }
  });

  it('answers a body token other than the cookie as a missing session, without reading the store', async () => {
    const findLive = vi.spyOn(t.services.repos.sessions, 'findLive');
    try {
      const res = await call(
        t.app,
        'POST',
        url(routes.firmwareVersions),
        { user_token: 'f'.repeat(64) },
        alice,
      );
      expect(res.json()).toMatchObject({ status: 'ERROR', code: 601 });
      expect(findLive).not.toHaveBeenCalled();
    } finally {
      findLive.mockRestore();
    }
  });
});
