import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sha256Hex } from './crypto';
import { accountDelayMs, retryAfterMs } from './throttle';
import { DIALECTS, addUser, createTestApp, type TestApp } from '../test/harness';

describe('sign-in throttle rules', () => {
  it.each([
    [4, 0],
    [5, 30_000],
    [6, 60_000],
    [7, 120_000],
    [9, 480_000],
    [10, 900_000],
    [40, 900_000],
  ])('after %i failures on an account, failing addresses wait %i ms', (failures, ms) => {
    expect(accountDelayMs(failures)).toBe(ms);
  });

  const none = { count: 0, oldestMs: 0, newestMs: 0 };
  it.each([
    [
      'a clean address on a hammered account',
      { address: none, account: { count: 50, oldestMs: 0, newestMs: 1000 }, pair: none },
      0,
    ],
    [
      'an address that failed on it',
      {
        address: none,
        account: { count: 6, oldestMs: 0, newestMs: 1000 },
        pair: { count: 1, oldestMs: 500, newestMs: 500 },
      },
      60_000,
    ],
    [
      'an address with 30 failures',
      { address: { count: 30, oldestMs: 400, newestMs: 1000 }, account: none, pair: none },
      300_000 - 600,
    ],
    [
      'an address with 29 failures',
      { address: { count: 29, oldestMs: 400, newestMs: 1000 }, account: none, pair: none },
      0,
    ],
  ])('%s waits as it should', (_name, history, ms) => {
    expect(retryAfterMs(history, 1000)).toBe(ms);
  });
});

function attempt(
  app: FastifyInstance,
  login: string,
  password: string,
  remoteAddress: string,
  forwardedFor?: string,
) {
  return app.inject({
    method: 'POST',
    url: '/api/read/auth/local',
    payload: { login, password: sha256Hex(password) },
    remoteAddress,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });
}

// Thirty failures are thirty password hash checks: allow for a busy machine.
const THIRTY_FAILURES = { timeout: 180_000 };

describe.each(DIALECTS)('sign-in throttling on $name', (dialect) => {
  let t: TestApp;
  let proxied: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    proxied = await createTestApp(dialect, { env: { TRUST_PROXY: '127.0.0.1' } });
    for (const app of [t, proxied]) await addUser(app.services, 'alice', 'alice-secret');
    await addUser(t.services, 'owner', 'owner-secret');
    await addUser(t.services, 'spread', 'spread-secret');
    await addUser(t.services, 'bob', 'bob-secret');
  });
  afterAll(async () => {
    await t.close();
    await proxied.close();
  });

  it('does not let a rotating X-Forwarded-For escape the per-address limit', THIRTY_FAILURES, async () => {
    for (let i = 0; i < 30; i++) {
      const r = await attempt(t.app, `guess${i}`, 'wrong', '198.51.100.7', `10.9.0.${i}`);
      expect(r.statusCode).toBe(401);
    }
    const blocked = await attempt(t.app, 'alice', 'alice-secret', '198.51.100.7', '10.9.1.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 606, retryAfterSec: 300 });
    expect((await attempt(t.app, 'alice', 'alice-secret', '198.51.100.77')).statusCode).toBe(200);
  });

  it(
    'does not block a victim whose address an attacker writes into X-Forwarded-For',
    THIRTY_FAILURES,
    async () => {
      for (let i = 0; i < 30; i++) await attempt(t.app, `probe${i}`, 'wrong', '198.51.100.8', '203.0.113.50');
      expect((await attempt(t.app, 'alice', 'alice-secret', '203.0.113.50')).statusCode).toBe(200);
    },
  );

  it('believes X-Forwarded-For from a listed proxy only (TRUST_PROXY)', THIRTY_FAILURES, async () => {
    for (let i = 0; i < 30; i++) {
      expect((await attempt(proxied.app, `guess${i}`, 'wrong', '127.0.0.1', '203.0.113.60')).statusCode).toBe(
        401,
      );
    }
    expect(
      (await attempt(proxied.app, 'alice', 'alice-secret', '127.0.0.1', '203.0.113.60')).statusCode,
    ).toBe(429);
    expect(
      (await attempt(proxied.app, 'alice', 'alice-secret', '127.0.0.1', '203.0.113.61')).statusCode,
    ).toBe(200);
    // An address that is not a listed proxy cannot claim to be the blocked client, nor escape as another.
    expect(
      (await attempt(proxied.app, 'alice', 'alice-secret', '198.51.100.9', '203.0.113.60')).statusCode,
    ).toBe(200);
  });

  it('lets the owner in from a clean address while an attacker hammers the account', async () => {
    for (let i = 0; i < 5; i++)
      expect((await attempt(t.app, 'owner', `no${i}`, '198.51.100.20')).statusCode).toBe(401);
    const slowed = await attempt(t.app, 'owner', 'no5', '198.51.100.20');
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBe('30');
    expect(slowed.json()).toEqual({
      status: 'ERROR',
      code: 606,
      message: 'Too many failed sign-ins, try again in 30 s',
      retryAfterSec: 30,
    });
    // Even the right password waits at the failing address: no guess is checked there.
    expect((await attempt(t.app, 'owner', 'owner-secret', '198.51.100.20')).statusCode).toBe(429);
    expect((await attempt(t.app, 'owner', 'owner-secret', '192.0.2.1')).statusCode).toBe(200);
  });

  it('makes a failing address wait longer after every further failure', async () => {
    t.clock.advance(30_000);
    expect((await attempt(t.app, 'owner', 'no6', '198.51.100.20')).statusCode).toBe(401);
    expect((await attempt(t.app, 'owner', 'no7', '198.51.100.20')).json().retryAfterSec).toBe(60);
    t.clock.advance(59_000);
    expect((await attempt(t.app, 'owner', 'no7', '198.51.100.20')).json().retryAfterSec).toBe(1);
    t.clock.advance(1_000);
    expect((await attempt(t.app, 'owner', 'no7', '198.51.100.20')).statusCode).toBe(401);
    expect((await attempt(t.app, 'owner', 'no8', '198.51.100.20')).json().retryAfterSec).toBe(120);
    expect((await attempt(t.app, 'owner', 'owner-secret', '192.0.2.1')).statusCode).toBe(200);
  });

  it('slows down every address that has failed on an account, not the ones that have not', async () => {
    for (let i = 0; i < 5; i++)
      expect((await attempt(t.app, 'spread', 'wrong', `198.51.100.${100 + i}`)).statusCode).toBe(401);
    expect((await attempt(t.app, 'spread', 'wrong', '198.51.100.100')).statusCode).toBe(429);
    expect((await attempt(t.app, 'spread', 'spread-secret', '198.51.100.104')).statusCode).toBe(429);
    expect((await attempt(t.app, 'spread', 'spread-secret', '192.0.2.2')).statusCode).toBe(200);
  });

  it('counts Bob, BOB and ｂｏｂ as one account', async () => {
    for (const login of ['Bob', 'BOB', 'ｂｏｂ', 'bob', 'bOb']) {
      expect((await attempt(t.app, login, 'wrong', '198.51.100.30')).statusCode).toBe(401);
    }
    expect((await attempt(t.app, 'BoB', 'bob-secret', '198.51.100.30')).statusCode).toBe(429);
    expect((await attempt(t.app, 'BoB', 'bob-secret', '198.51.100.31')).statusCode).toBe(200);
  });
});
