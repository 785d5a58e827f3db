import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTEGRATION_TOKEN_PREFIX } from '@meterportal/protocol';
import { sha256Hex } from '../auth/crypto';
import { ENERGY_COLUMNS, MINUTE_COLUMNS } from '../telemetry/columns';
import {
  createTelemetryRepository,
  type MinuteRow,
  type QuarterRow,
} from '../telemetry/telemetry.repository';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  createTestApp,
  quickSession,
  snapshot,
  type Client,
  type TestApp,
} from '../test/harness';
import { SESSION_COOKIE } from '../http/session';

const TZ = 'Europe/Bratislava';
const MAC = '02-4D-50-00-00-04';
const SECOND_MAC = '02-4D-50-00-00-05';
const FOREIGN_MAC = '02-4D-50-00-00-06';
/** The spring-forward night of 2026 in Bratislava: 02:00 local is 01:00 UTC and becomes 03:00. */
const FROM = Date.parse('2026-03-29T00:00:00Z') / 1000;
const TO = FROM + 3 * 3600;

function minute(deviceId: number, tsSec: number): MinuteRow {
  const values = MINUTE_COLUMNS.map((c) => {
    if (c.startsWith('u_l')) return 230 + Number(c[3]);
    if (c.startsWith('p_l')) return 100 * Number(c[3]);
    if (c.startsWith('f_')) return 50;
    return 1;
  });
  return { deviceId, agg: { minuteStartSec: tsSec, samples: 60, values } };
}

function quarter(deviceId: number, tsSec: number): QuarterRow {
  const values = ENERGY_COLUMNS.map((c) => {
    if (c === 'e_i_wh') return 300;
    if (c === 'e_e_wh') return 15;
    if (/^e_i_l[123]_wh$/.test(c)) return 100;
    if (/^e_e_l[123]_wh$/.test(c)) return 5;
    return 0;
  });
  return { deviceId, tsSec, values };
}

describe.each(DIALECTS)('integration tokens and API on $name', (dialect) => {
  let t: TestApp;
  let alice: Client;
  let aliceId: number;
  let secondId: number;

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { TZ } });
    const s = t.services;
    aliceId = await addUser(s, 'alice', 'alice-secret');
    const olgaId = await addUser(s, 'olga', 'olga-secret');
    const deviceId = await addDevice(s, MAC, 4, 'Workshop');
    secondId = await addDevice(s, SECOND_MAC, 4, 'Office');
    await assign(s, aliceId, deviceId, true);
    await assign(s, aliceId, secondId, true);
    await assign(s, olgaId, await addDevice(s, FOREIGN_MAC, 4, 'Olga'), true);
    t.clock.set((TO + 3600) * 1000);
    alice = await quickSession(s, aliceId);
    const minutes: MinuteRow[] = [];
    const quarters: QuarterRow[] = [];
    for (let ts = FROM; ts < TO; ts += 60) minutes.push(minute(deviceId, ts));
    for (let ts = FROM; ts < TO; ts += 900) quarters.push(quarter(deviceId, ts));
    await createTelemetryRepository(s.database, { tz: TZ }).insertHistory(quarters, minutes);
  }, 60_000);
  afterAll(() => t.close());

  const session = (c: Client) => ({ cookies: { [SESSION_COOKIE]: c.cookie } });
  async function create(body: object, c: Client = alice) {
    return t.app.inject({
      method: 'POST',
      url: '/api/write/integration/tokens',
      payload: { user_token: c.token, ...body },
      ...session(c),
    });
  }
  async function newToken(body: object = {}): Promise<{ id: number; secret: string }> {
    const res = await create({ name: 'Grafana', ...body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: { id: number; secret: string } }>().data;
  }
  const list = async () =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/read/integration/tokens',
        payload: { user_token: alice.token },
        ...session(alice),
      })
    ).json<{ data: { id: number; name: string; devices: string[] | null; lastUsedAt: number | null }[] }>()
      .data;
  const get = (url: string, bearer: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'GET',
      url: `/api/read/v1${url}`,
      headers: { authorization: `Bearer ${bearer}`, ...headers },
    });
  const range = `from=${FROM}&to=${TO}`;

  it('answers the secret once, keeps only its SHA-256 and lists the token without it', async () => {
    const { id, secret } = await newToken({ name: 'Home Assistant' });
    expect(secret.startsWith(INTEGRATION_TOKEN_PREFIX)).toBe(true);
    const stored = JSON.stringify(await snapshot(t.services));
    expect(stored).not.toContain(secret.slice(INTEGRATION_TOKEN_PREFIX.length));
    expect(stored).toContain(sha256Hex(secret));
    const entry = (await list()).find((e) => e.id === id)!;
    expect(entry).toMatchObject({ name: 'Home Assistant', devices: null, lastUsedAt: null });
    expect(JSON.stringify(await list())).not.toContain(secret);
  });

  it('lists the devices of the user for a token over all devices, and records the use', async () => {
    const { id, secret } = await newToken();
    const res = await get('/devices', secret);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'OK',
      timeZone: TZ,
      data: [
        { mac: MAC, serial: '4D50000004', title: 'Workshop', type: 4, phases: 3 },
        { mac: SECOND_MAC, title: 'Office' },
      ],
    });
    expect((await list()).find((e) => e.id === id)!.lastUsedAt).toBe(t.clock.nowMs());
  });

  it('answers a profile as JSON rows with UTC and local time across the clock change', async () => {
    const { secret } = await newToken();
    const res = await get(`/devices/${MAC}/profile?quantity=P,U&${range}`, secret);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{
      resolution: string;
      columns: { name: string; unit: string }[];
      data: Record<string, string | number | null>[];
    }>();
    expect(body.resolution).toBe('MINUTE');
    expect(body.columns).toEqual([
      { name: 'P_L1', unit: 'W' },
      { name: 'P_L2', unit: 'W' },
      { name: 'P_L3', unit: 'W' },
      { name: 'P_total', unit: 'W' },
      { name: 'U_L1', unit: 'V' },
      { name: 'U_L2', unit: 'V' },
      { name: 'U_L3', unit: 'V' },
    ]);
    expect(body.data).toHaveLength(180);
    expect(body.data[0]).toEqual({
      time: '2026-03-29T00:00:00Z',
      localTime: '2026-03-29T01:00:00+01:00',
      P_L1: 100,
      P_L2: 200,
      P_L3: 300,
      P_total: 600,
      U_L1: 231,
      U_L2: 232,
      U_L3: 233,
    });
    expect(body.data[60]).toMatchObject({
      time: '2026-03-29T01:00:00Z',
      localTime: '2026-03-29T03:00:00+02:00',
    });
  });

  it('answers energy per interval as CSV with units in the header, by ?format=csv or Accept', async () => {
    const { secret } = await newToken();
    const byQuery = await get(`/devices/${MAC}/energy?period=HOUR&${range}&format=csv`, secret);
    const byAccept = await get(`/devices/${MAC}/energy?period=HOUR&${range}`, secret, { accept: 'text/csv' });
    for (const res of [byQuery, byAccept]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.body.split('\r\n')).toEqual([
        `time_utc,time_local [${TZ}],E_I [kWh],E_E [kWh]`,
        '2026-03-29T00:00:00Z,2026-03-29T01:00:00+01:00,1.2,0.06',
        '2026-03-29T01:00:00Z,2026-03-29T03:00:00+02:00,1.2,0.06',
        '2026-03-29T02:00:00Z,2026-03-29T04:00:00+02:00,1.2,0.06',
        '',
      ]);
    }
  });

  it('reads only the chosen devices of a limited token; others answer like missing ones', async () => {
    const { id, secret } = await newToken({ devices: [SECOND_MAC] });
    expect((await list()).find((e) => e.id === id)!.devices).toEqual([SECOND_MAC]);
    expect(
      (await get('/devices', secret)).json<{ data: { mac: string }[] }>().data.map((d) => d.mac),
    ).toEqual([SECOND_MAC]);
    const before = await snapshot(t.services);
    for (const mac of [MAC, FOREIGN_MAC, '02-4D-50-00-00-99']) {
      const res = await get(`/devices/${mac}/energy?${range}`, secret);
      expect(res.json(), mac).toMatchObject({ status: 'ERROR', code: 605 });
    }
    expect(await snapshot(t.services)).toEqual(before);
  });

  it('refuses a device that is not among the user’s, and the demo account, changing nothing', async () => {
    const before = await snapshot(t.services);
    const foreign = await create({ name: 'x', devices: [FOREIGN_MAC] });
    expect(foreign.json()).toMatchObject({ status: 'ERROR', code: 600 });
    expect(foreign.json<{ message: string }>().message).toContain(FOREIGN_MAC);
    const past = await create({ name: 'x', expiresAt: Math.floor(t.clock.nowMs() / 1000) - 1 });
    expect(past.json()).toMatchObject({ status: 'ERROR', code: 600 });
    const demo = await quickSession(t.services, await addUserOnce('demo'));
    const before2 = await snapshot(t.services);
    expect((await create({ name: 'x' }, demo)).json()).toMatchObject({ status: 'ERROR', code: 602 });
    expect(await snapshot(t.services)).toEqual(before2);
    expect(Object.keys(before2)).toEqual(Object.keys(before));
  });

  async function addUserOnce(login: string): Promise<number> {
    return (await t.services.repos.users.findByLogin(login))?.id ?? addUser(t.services, login, `${login}-pw`);
  }

  it('stops a revoked token, an expired token and a removed assignment at once', async () => {
    const revoked = await newToken();
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/write/integration/tokens',
      payload: { user_token: alice.token, id: revoked.id },
      ...session(alice),
    });
    expect(res.json()).toEqual({ status: 'OK' });
    expect((await get('/devices', revoked.secret)).json()).toMatchObject({ code: 601 });

    const expiring = await newToken({ expiresAt: Math.floor(t.clock.nowMs() / 1000) + 60 });
    expect((await get('/devices', expiring.secret)).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await get('/devices', expiring.secret)).json()).toMatchObject({ code: 601 });

    const all = await newToken();
    expect((await get(`/devices/${SECOND_MAC}/energy?${range}`, all.secret)).json()).toMatchObject({
      code: 610,
    });
    await t.services.repos.devices.unassign(aliceId, secondId);
    expect((await get(`/devices/${SECOND_MAC}/energy?${range}`, all.secret)).json()).toMatchObject({
      code: 605,
    });
  });

  it('takes neither a session token nor the session cookie as a bearer', async () => {
    expect((await get('/devices', alice.token)).json()).toMatchObject({ code: 601 });
    const cookieOnly = await t.app.inject({ method: 'GET', url: '/api/read/v1/devices', ...session(alice) });
    expect(cookieOnly.json()).toMatchObject({ code: 601 });
  });

  it('holds a token to the history read limits: two at once, four waiting, more refused with 611', async () => {
    const { id, secret } = await newToken();
    const key = `integration:${id}`;
    const gates: (() => void)[] = [];
    const held = Array.from({ length: 6 }, () =>
      t.services.history.heavyReads.run(key, () => new Promise<void>((resolve) => gates.push(resolve))),
    );
    await new Promise((r) => setTimeout(r, 0));
    expect(t.services.history.heavyReads.load(key)).toEqual({ running: 2, waiting: 4 });
    const refused = await get(`/devices/${MAC}/energy?${range}&format=csv`, secret);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ status: 'ERROR', code: 611 });
    while (gates.length > 0 || t.services.history.heavyReads.load(key).running > 0) {
      gates.splice(0).forEach((open) => open());
      await new Promise((r) => setTimeout(r, 0));
    }
    await Promise.all(held);
    expect((await get(`/devices/${MAC}/energy?${range}&format=csv`, secret)).statusCode).toBe(200);
  });

  it('documents the integration API with its bearer scheme in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      components: { securitySchemes: Record<string, unknown> };
      paths: Record<string, Record<string, { security?: unknown; parameters?: { name: string }[] }>>;
    }>();
    expect(doc.components.securitySchemes).toEqual({ integrationToken: { type: 'http', scheme: 'bearer' } });
    const profile = doc.paths['/api/read/v1/devices/{mac}/profile']?.get;
    expect(profile?.security).toEqual([{ integrationToken: [] }]);
    expect(profile?.parameters?.map((p) => p.name).sort()).toEqual([
      'format',
      'from',
      'mac',
      'quantity',
      'to',
    ]);
    expect(doc.paths['/api/read/profile']?.post?.security).toBeUndefined();
  });

  it('refuses a backwards range and a range too long with 600', async () => {
    const { secret } = await newToken();
    const back = await get(`/devices/${MAC}/profile?quantity=P&from=${TO}&to=${FROM}`, secret);
    expect(back.statusCode).toBe(400);
    expect(back.json()).toMatchObject({ code: 600 });
    const bad = await get(`/devices/${MAC}/profile?quantity=X&${range}`, secret);
    expect(bad.json()).toMatchObject({ code: 600 });
  });
});
