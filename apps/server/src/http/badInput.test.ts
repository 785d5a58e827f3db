import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../auth/crypto';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  call,
  createTestApp,
  multipartBody,
  quickSession,
  snapshot,
  type Client,
  type TestApp,
} from '../test/harness';
import { SESSION_COOKIE } from './session';

const SQL = "x' OR '1'='1'; DROP TABLE users; --";
const SCRIPT = '<script>alert(1)</script>';
const MAC = '02-4D-50-00-00-01';

describe.each(DIALECTS)('bad input on $name', (dialect) => {
  let t: TestApp;
  let alice: Client;
  const deviceToken = () => alice.devices[0]!.token;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const id = await addUser(t.services, 'alice', 'alice-secret');
    await assign(t.services, id, await addDevice(t.services, MAC, 4), true);
    alice = await quickSession(t.services, id);
  });
  afterAll(() => t.close());

  // Each route with a body missing its fields, one with wrong types, and ones with hostile strings.
  const meter = {
    SNUM: '40012345',
    CONSTANT: '1000',
    CONTYPE: 0,
    ELM_OUTPUT_TYPE: 0,
    MENERGYTYPE: 0,
    CONSTUNIT: 0,
    CONSTTYPE: 0,
    ENERMETHOD: 0,
  };
  const cases: [string, 'POST' | 'PUT' | 'DELETE', () => unknown][] = [
    ['/api/read/auth/local', 'POST', () => ({})],
    ['/api/read/auth/local', 'POST', () => ({ login: 42, password: true })],
    ['/api/read/auth/local', 'POST', () => ({ login: SQL, password: sha256Hex('x') })],
    ['/api/read/auth/local', 'POST', () => ({ login: SCRIPT, password: sha256Hex('x') })],
    ['/api/read/auth/local', 'POST', () => ({ login: 'alice', password: SQL })],
    ['/api/read/auth/local', 'POST', () => ({ token: SQL })],
    ['/api/read/auth/google', 'POST', () => ({ token: 7 })],
    ['/api/read/applications/access', 'POST', () => ({ user_token: alice.token })],
    ['/api/read/facility/devices-hierarchy', 'POST', () => ({ token: ['a'] })],
    ['/api/write/facility/devices-hierarchy', 'POST', () => ({ token: alice.token })],
    ['/api/write/facility/devices-hierarchy', 'POST', () => ({ token: alice.token, menu: { nodes: [] } })],
    [
      '/api/write/facility/devices-hierarchy',
      'POST',
      () => ({
        token: alice.token,
        menu: JSON.stringify({ nodes: [{ title: SCRIPT, data: { id: 1 } }], tags: [] }),
      }),
    ],
    [
      '/api/write/facility/devices-hierarchy',
      'POST',
      () => ({
        token: alice.token,
        menu: JSON.stringify({ nodes: [], tags: [{ id: 1, title: 'a', mac: SQL, tags: [] }] }),
      }),
    ],
    ['/api/read/devices/details', 'POST', () => ({ token: SQL })],
    ['/api/write/devices/details', 'POST', () => ({ token: deviceToken(), MRK: 'DROP', RK: 1 })],
    ['/api/write/devices/details', 'POST', () => ({ token: deviceToken(), MRK: 1e20, RK: 1 })],
    ['/api/write/assign', 'DELETE', () => ({ token: deviceToken(), login: SQL })],
    ['/api/write/assign', 'DELETE', () => ({ token: deviceToken() })],
    [
      '/api/write/auth/local/change-password',
      'POST',
      () => ({ login: 'alice', oldPassword: SQL, newPassword: sha256Hex('b') }),
    ],
    ['/api/write/auth/logout', 'POST', () => ({ token: null })],
    ['/api/read/applied-precision/meters', 'POST', () => ({ device_token: SQL })],
    [
      '/api/read/applied-precision/test-result',
      'POST',
      () => ({ device_token: deviceToken(), ID_meter: 'DROP' }),
    ],
    ['/api/read/applied-precision/images/list', 'POST', () => ({ device_token: deviceToken() })],
    [
      '/api/write/applied-precision/meters/add',
      'POST',
      () => ({ device_token: deviceToken(), meter: { ...meter, SNUM: SCRIPT } }),
    ],
    [
      '/api/write/applied-precision/meters/add',
      'POST',
      () => ({ device_token: deviceToken(), meter: { ...meter, CONSTANT: SQL } }),
    ],
    [
      '/api/write/applied-precision/meters/add',
      'POST',
      () => ({ device_token: deviceToken(), meter: { ...meter, CONSTUNIT: 10 } }),
    ],
    [
      '/api/write/applied-precision/meters/add',
      'POST',
      () => ({ device_token: deviceToken(), meter: { ...meter, CUSTOMER: 'Main\u0000Street' } }),
    ],
    [
      '/api/write/applied-precision/meters/add',
      'POST',
      () => ({ device_token: deviceToken(), meter: { ...meter, NOTE1: 'note \ud800' } }),
    ],
    ['/api/write/applied-precision/meters/add', 'POST', () => ({ device_token: deviceToken() })],
    [
      '/api/write/applied-precision/meters',
      'PUT',
      () => ({ device_token: deviceToken(), ID_meter: -1, meter }),
    ],
    [
      '/api/write/applied-precision/meters',
      'PUT',
      () => ({ device_token: deviceToken(), ID_meter: 1, meter: { ...meter, YMAN: '20x9' } }),
    ],
    ['/api/write/applied-precision/meters', 'DELETE', () => ({ device_token: deviceToken() })],
    ['/api/write/applied-precision/images', 'POST', () => ({ device_token: deviceToken(), meter_ID: 1 })],
    [
      '/api/write/applied-precision/upload-database',
      'POST',
      () => ({ device_token: deviceToken(), meters: false }),
    ],
    [
      '/api/write/applied-precision/download-database',
      'POST',
      () => ({ device_token: deviceToken(), meters: 'yes' }),
    ],
  ];

  it.each(cases.map(([url, method, body], i) => [i, method, url, body] as const))(
    '#%i %s %s answers 400 with the envelope and stores nothing',
    async (_i, method, url, body) => {
      const before = await snapshot(t.services);
      const res = await call(t.app, method, url, body(), alice);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        status: 'ERROR',
        code: 600,
        message: expect.stringMatching(/^Invalid request/),
      });
      expect(await snapshot(t.services)).toEqual(before);
    },
  );

  it('answers 413 for a body over 256 KiB', async () => {
    const before = await snapshot(t.services);
    const res = await call(
      t.app,
      'POST',
      '/api/write/facility/devices-hierarchy',
      { token: alice.token, menu: 'x'.repeat(300_000) },
      alice,
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ status: 'ERROR', code: 609 });
    expect(await snapshot(t.services)).toEqual(before);
  });

  it('answers malformed JSON and a wrong content type with the envelope', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/read/auth/local',
      headers: { 'content-type': 'application/json' },
      payload: '{"login": ',
      cookies: { [SESSION_COOKIE]: alice.cookie },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().status).toBe('ERROR');
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/read/auth/local',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'login=alice',
    });
    expect(form.statusCode).toBe(415);
    expect(form.json().status).toBe('ERROR');
  });

  it('answers 400 for a body nested too deeply, before validation', async () => {
    const before = await snapshot(t.services);
    let deep: unknown = 'x';
    for (let i = 0; i < 600; i++) deep = [deep];
    const res = await call(
      t.app,
      'POST',
      '/api/write/applied-precision/meters/add',
      { device_token: deviceToken(), meter: deep },
      alice,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      status: 'ERROR',
      code: 600,
      message: 'Invalid request: JSON nested deeper than 16 levels',
    });
    expect(await snapshot(t.services)).toEqual(before);
  });

  it('answers 400 for a hierarchy menu nested 600 levels deep', async () => {
    const before = await snapshot(t.services);
    let node: Record<string, unknown> = { title: 'leaf', data: { id: 'x' } };
    for (let i = 0; i < 600; i++) node = { title: `n${i}`, data: { id: `n${i}` }, children: [node] };
    const menu = JSON.stringify({ nodes: [node], tags: [] });
    const res = await call(
      t.app,
      'POST',
      '/api/write/facility/devices-hierarchy',
      { token: alice.token, menu },
      alice,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      status: 'ERROR',
      code: 600,
      message: 'Invalid request at menu: deeper than 12',
    });
    expect(await snapshot(t.services)).toEqual(before);
  });

  it('answers 400 for a meter image upload whose multipart body is malformed', async () => {
    const good = await multipartBody({ device_token: deviceToken(), meter_ID: '1' }, [
      { name: 'a.png', type: 'image/png', bytes: new Uint8Array(2000) },
    ]);
    const boundary = /boundary=(.*)$/.exec(good.contentType)![1]!;
    const bodies: [string, string, Buffer][] = [
      ['no boundary', 'multipart/form-data', good.payload],
      ['truncated', good.contentType, good.payload.subarray(0, good.payload.length - 40)],
      ['cut in the headers', good.contentType, good.payload.subarray(0, 60)],
      ['another boundary', 'multipart/form-data; boundary=elsewhere', good.payload],
      ['garbage', `multipart/form-data; boundary=${boundary}`, Buffer.from('\u0000\r\n--\r\n\r\n')],
    ];
    for (const [what, contentType, payload] of bodies) {
      const before = await snapshot(t.services);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/write/applied-precision/images',
        payload,
        headers: { 'content-type': contentType },
        cookies: { [SESSION_COOKIE]: alice.cookie },
      });
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(res.json(), what).toMatchObject({
        status: 'ERROR',
        code: 600,
        message: expect.stringMatching(/^Invalid request/),
      });
      expect(await snapshot(t.services), what).toEqual(before);
    }
  });

  it('keeps quotes in a free-text name as plain text, leaving the tables intact', async () => {
    const title = "O'Brien'; DROP TABLE x--";
    const menu = JSON.stringify({ nodes: [{ title, data: { id: 'f' } }], tags: [] });
    const w = await call(
      t.app,
      'POST',
      '/api/write/facility/devices-hierarchy',
      { token: alice.token, menu },
      alice,
    );
    expect(w.statusCode).toBe(200);
    const r = await call(
      t.app,
      'POST',
      '/api/read/facility/devices-hierarchy',
      { token: alice.token },
      alice,
    );
    expect(r.json().data.nodes[0].title).toBe(title);
    expect(await t.services.repos.users.count()).toBe(1);
  });

  it('answers unknown API paths with the envelope', async () => {
    const res = await call(t.app, 'POST', '/api/read/nothing-here', {}, alice);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 'ERROR', code: 605 });
  });
});
