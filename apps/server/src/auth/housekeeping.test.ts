import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOCAL_SESSION_SEC } from '@meterportal/protocol';
import { sha256Hex } from './crypto';
import { ACCOUNT_WINDOW_MS } from './throttle';
import { DIALECTS, addUser, call, createTestApp, signIn, type TestApp } from '../test/harness';
import { startRuntime, type Runtime } from '../runtime';

describe.each(DIALECTS)('purge of sessions and sign-in failures on $name', (dialect) => {
  let t: TestApp;

  const count = async (table: 'sessions' | 'login_failures') => {
    const r = await t.services.database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  };
  const fail = (login: string) =>
    call(t.app, 'POST', '/api/read/auth/local', { login, password: sha256Hex('wrong') });

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { ROLES: 'read,write' } });
    await addUser(t.services, 'alice', 'alice-secret');
  });
  afterAll(() => t.close());

  it('purges ended sessions and failures older than any throttle window, nothing younger', async () => {
    await signIn(t.app, 'alice', 'alice-secret');
    await fail('carol');
    t.clock.advance(30 * 60 * 1000);
    const young = await signIn(t.app, 'alice', 'alice-secret');
    await fail('nobody');
    expect(await count('sessions')).toBe(2);
    expect(await count('login_failures')).toBe(6);

    expect(await t.services.authHousekeeping.purge()).toEqual({ sessions: 0, failures: 0 });
    t.clock.advance(LOCAL_SESSION_SEC * 1000 - 30 * 60 * 1000);
    expect(await t.services.authHousekeeping.purge()).toEqual({ sessions: 1, failures: 0 });
    expect(
      (await call(t.app, 'POST', '/api/read/auth/local', { token: young.token }, young)).statusCode,
    ).toBe(200);
    t.clock.advance(ACCOUNT_WINDOW_MS - LOCAL_SESSION_SEC * 1000 + 1);
    expect(await t.services.authHousekeeping.purge()).toEqual({ sessions: 0, failures: 3 });
    expect(await count('login_failures')).toBe(3);
    t.clock.advance(30 * 60 * 1000);
    expect(await t.services.authHousekeeping.purge()).toEqual({ sessions: 1, failures: 3 });
    expect(await count('sessions')).toBe(0);
    expect(await count('login_failures')).toBe(0);
  });

  it('runs on a schedule once the runtime has started', async () => {
    await signIn(t.app, 'alice', 'alice-secret');
    await fail('carol');
    t.clock.advance(ACCOUNT_WINDOW_MS + 1);
    expect(await count('sessions')).toBe(1);
    let runtime: Runtime | undefined;
    try {
      runtime = await startRuntime(t.services, { logger: t.app.log });
      await vi.waitFor(
        async () => {
          expect(await count('sessions')).toBe(0);
          expect(await count('login_failures')).toBe(0);
        },
        { timeout: 20_000, interval: 50 },
      );
    } finally {
      await runtime?.stop();
    }
  });
});
