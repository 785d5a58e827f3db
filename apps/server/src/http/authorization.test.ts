import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../auth/crypto';
import { metersRepository } from '../precision/meters.repository';
import { canonicalFields, meterCrc } from '../precision/meters-fns';
import { TINY_JPEG, tinyPng } from '../precision/testImages';
import { MeterInput } from '@meterportal/protocol';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  call,
  callMultipart,
  createTestApp,
  quickSession,
  snapshot,
  type Client,
  type DialectCase,
  type TestApp,
} from '../test/harness';

/**
 * Every API route against every kind of caller. A new route that is missing from CASES fails the
 * first test, so none can be added without stating who may call it.
 */
const ACTORS = ['anonymous', 'other', 'expired', 'manager', 'assigned'] as const;
type Actor = (typeof ACTORS)[number];
type Outcome = 'OK' | number;

const MAC = '02-4D-50-00-00-01';
/** A precision analyzer shared like MAC, with one meter, one image and one test stored. */
const PRECISION_MAC = '02-4D-50-00-00-03';
const PASSWORDS: Record<Exclude<Actor, 'anonymous'>, string> = {
  assigned: 'alice-secret',
  other: 'olga-secret',
  expired: 'erin-secret',
  manager: 'boss-secret',
};

interface World {
  t: TestApp;
  clients: Record<Exclude<Actor, 'anonymous'>, Client>;
  /** The device token each actor would use: its own when it has one, else the assigned user's. */
  deviceToken(actor: Actor): string;
  /** The same for the precision analyzer. */
  precisionToken(actor: Actor): string;
  login(actor: Actor): string;
  meterId: number;
  imageId: number;
}

interface Case {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body(w: World, actor: Actor): object;
  /** The URL when it carries the request (GET), else the route's own. */
  url?(w: World, actor: Actor): string;
  /** Sent as multipart/form-data instead of JSON. */
  multipart?: boolean;
  expect: Record<Actor, Outcome>;
}

const menuWith = (mac: string) =>
  JSON.stringify({ nodes: [{ title: 'Dev', isLeaf: true, data: { id: 1, mac, type: 4 } }], tags: [] });

const own = (w: World, a: Actor) => (a === 'anonymous' ? w.clients.assigned.token : w.clients[a].token);

const MANAGER_ONLY: Record<Actor, Outcome> = {
  anonymous: 601,
  other: 602,
  expired: 602,
  manager: 'OK',
  assigned: 602,
};
// Meters of a precision device: denied access looks exactly like a missing device.
const PRECISION_USER: Record<Actor, Outcome> = {
  anonymous: 601,
  other: 605,
  expired: 605,
  manager: 605,
  assigned: 'OK',
};
// The analyzer has never reported, so it counts as offline.
const PRECISION_ONLINE: Record<Actor, Outcome> = { ...PRECISION_USER, assigned: 529 };
const meterFields = MeterInput.parse({
  SNUM: '40012345',
  CONSTANT: '1000',
  CONTYPE: 0,
  ELM_OUTPUT_TYPE: 0,
  MENERGYTYPE: 0,
  CONSTUNIT: 0,
  CONSTTYPE: 0,
  ENERMETHOD: 0,
});

const CASES: Record<string, Case> = {
  'POST /api/read/auth/local': {
    method: 'POST',
    body: (w, a) => ({ token: own(w, a) }),
    expect: { anonymous: 601, other: 'OK', expired: 'OK', manager: 'OK', assigned: 'OK' },
  },
  'POST /api/read/auth/google': {
    method: 'POST',
    body: () => ({ token: 'not-an-access-token' }),
    expect: { anonymous: 616, other: 616, expired: 616, manager: 616, assigned: 616 },
  },
  'POST /api/read/applications/access': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a), application: 'USER_MANAGER' }),
    expect: { anonymous: 601, other: 602, expired: 602, manager: 'OK', assigned: 602 },
  },
  'POST /api/read/facility/devices-hierarchy': {
    method: 'POST',
    body: (w, a) => ({ token: own(w, a) }),
    expect: { anonymous: 601, other: 610, expired: 610, manager: 610, assigned: 'OK' },
  },
  'POST /api/write/facility/devices-hierarchy': {
    method: 'POST',
    body: (w, a) => ({ token: own(w, a), menu: menuWith(MAC) }),
    expect: { anonymous: 601, other: 600, expired: 600, manager: 600, assigned: 'OK' },
  },
  'POST /api/read/devices/details': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a) }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'POST /api/read/devices/clock': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a) }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'POST /api/write/devices/details': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a), MRK: 10, RK: 8 }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'DELETE /api/write/assign': {
    method: 'DELETE',
    body: (w, a) => ({ token: w.deviceToken(a), login: w.login(a) }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'POST /api/write/auth/local/change-password': {
    method: 'POST',
    body: () => ({
      login: 'alice',
      oldPassword: sha256Hex('alice-secret'),
      newPassword: sha256Hex('alice-new-secret'),
    }),
    expect: { anonymous: 601, other: 602, expired: 602, manager: 602, assigned: 'OK' },
  },
  'POST /api/read/applications/usermanager/user/list': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a) }),
    expect: MANAGER_ONLY,
  },
  'POST /api/read/applications/usermanager/device/list': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a) }),
    expect: MANAGER_ONLY,
  },
  'POST /api/write/applications/usermanager/user/add': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a), login: 'newbie', password: sha256Hex('newbie-pw') }),
    expect: MANAGER_ONLY,
  },
  'PUT /api/write/applications/usermanager/user/add': {
    method: 'PUT',
    body: (w, a) => ({ user_token: own(w, a), login: 'olga', password: sha256Hex('olga-new-pw') }),
    expect: MANAGER_ONLY,
  },
  'DELETE /api/write/applications/usermanager/user/remove': {
    method: 'DELETE',
    body: (w, a) => ({ user_token: own(w, a), login: 'olga' }),
    expect: MANAGER_ONLY,
  },
  'POST /api/write/applications/usermanager/assign': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a), login: 'olga', device: MAC, lifeTime: 32535215940 }),
    expect: MANAGER_ONLY,
  },
  'DELETE /api/write/applications/usermanager/assign': {
    method: 'DELETE',
    body: (w, a) => ({ user_token: own(w, a), login: 'alice', device: MAC }),
    expect: MANAGER_ONLY,
  },
  'POST /api/read/profile': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a), data: 'U', from: 0, to: 86400 }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 610 },
  },
  'POST /api/read/energy': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a), data: 'E_I,E_E', from: 0, to: 86400, period: 'HOUR' }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 610 },
  },
  'POST /api/read/tools/monitoring': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a), from: 0, to: 86400, period: '30MINUTE' }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 610 },
  },
  'POST /api/read/notifications': {
    method: 'POST',
    body: (w, a) => ({ device_token: w.deviceToken(a) }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'POST /api/read/tools/notifications/webex-spaces': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a) }),
    expect: { anonymous: 601, other: 610, expired: 610, manager: 610, assigned: 610 },
  },
  'POST /api/read/tools/notifications/pair': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a), device_token: w.deviceToken(a) }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'POST /api/write/tools/notifications/pair': {
    method: 'POST',
    body: (w, a) => ({
      user_token: own(w, a),
      device_token: w.deviceToken(a),
      notifyTypeID: 1,
      notifyDestID: 1,
    }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'DELETE /api/write/tools/notifications/pair': {
    method: 'DELETE',
    body: (w, a) => ({ user_token: own(w, a), device_token: w.deviceToken(a), ID: 1 }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 605 },
  },
  // The shared device is an industrial meter and no device link runs here, so the assigned user
  // passes every access check and then meets the device's own limits.
  'POST /api/read/applied-precision/harmonics': {
    method: 'POST',
    body: (w, a) => ({ device_token: w.deviceToken(a) }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 600 },
  },
  'POST /api/read/applied-precision/waveform': {
    method: 'POST',
    body: (w, a) => ({ device_token: w.deviceToken(a) }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 600 },
  },
  'POST /api/write/devices/firmware-upgrade': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a), fw: '3.2.0' }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 604 },
  },
  'POST /api/write/devices/relay': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a), state: 'OPEN' }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 600 },
  },
  'POST /api/read/applied-precision/meters': {
    method: 'POST',
    body: (w, a) => ({ device_token: w.precisionToken(a) }),
    expect: PRECISION_USER,
  },
  'POST /api/read/applied-precision/test-result': {
    method: 'POST',
    body: (w, a) => ({ device_token: w.precisionToken(a), ID_meter: w.meterId }),
    expect: PRECISION_USER,
  },
  'POST /api/read/applied-precision/images/list': {
    method: 'POST',
    body: (w, a) => ({ device_token: w.precisionToken(a), ID_meter: w.meterId }),
    expect: PRECISION_USER,
  },
  'GET /api/read/applied-precision/images/:ID_image': {
    method: 'GET',
    body: () => ({}),
    url: (w, a) =>
      `/api/read/applied-precision/images/${w.imageId}?device_token=${encodeURIComponent(w.precisionToken(a))}`,
    expect: PRECISION_USER,
  },
  'POST /api/write/applied-precision/meters/add': {
    method: 'POST',
    body: (w, a) => ({ device_token: w.precisionToken(a), meter: meterFields }),
    expect: PRECISION_ONLINE,
  },
  'PUT /api/write/applied-precision/meters': {
    method: 'PUT',
    body: (w, a) => ({
      device_token: w.precisionToken(a),
      ID_meter: w.meterId,
      meter: { ...meterFields, NOTE1: 'edited' },
    }),
    expect: PRECISION_USER,
  },
  'DELETE /api/write/applied-precision/meters': {
    method: 'DELETE',
    body: (w, a) => ({ device_token: w.precisionToken(a), ID_meter: w.meterId }),
    expect: PRECISION_USER,
  },
  'POST /api/write/applied-precision/images': {
    method: 'POST',
    multipart: true,
    body: (w, a) => ({ device_token: w.precisionToken(a), meter_ID: String(w.meterId) }),
    expect: PRECISION_USER,
  },
  'POST /api/write/applied-precision/upload-database': {
    method: 'POST',
    body: (w, a) => ({ device_token: w.precisionToken(a), meters: true }),
    expect: PRECISION_ONLINE,
  },
  'POST /api/write/applied-precision/download-database': {
    method: 'POST',
    body: (w, a) => ({ device_token: w.precisionToken(a), meters: true }),
    expect: PRECISION_ONLINE,
  },
  'POST /api/write/auth/logout': {
    method: 'POST',
    body: (w, a) => ({ token: own(w, a) }),
    expect: { anonymous: 601, other: 'OK', expired: 'OK', manager: 'OK', assigned: 'OK' },
  },
};

async function buildWorld(dialect: DialectCase): Promise<World> {
  const t = await createTestApp(dialect);
  const s = t.services;
  const ids = {
    assigned: await addUser(s, 'alice', PASSWORDS.assigned),
    other: await addUser(s, 'olga', PASSWORDS.other),
    expired: await addUser(s, 'erin', PASSWORDS.expired),
    manager: await addUser(s, 'boss', PASSWORDS.manager, 'USER_MANAGER'),
  };
  const device = await addDevice(s, MAC, 4, 'Shared');
  const otherDevice = await addDevice(s, '02-4D-50-00-00-02', 4, 'Olga');
  const precision = await addDevice(s, PRECISION_MAC, 3, 'Bench');
  const otherPrecision = await addDevice(s, '02-4D-50-00-00-13', 3, 'Olga bench');
  await assign(s, ids.assigned, device, true);
  await assign(s, ids.other, otherDevice, true);
  await assign(s, ids.expired, device, false, 60);
  await assign(s, ids.assigned, precision, true);
  await assign(s, ids.other, otherPrecision, true);
  await assign(s, ids.expired, precision, false, 60);
  const repo = metersRepository(s.database);
  const meterId = await repo.insert(precision, {
    idn: '1',
    fields: canonicalFields(meterFields),
    crc: meterCrc(meterFields),
    mtimeSec: 1_780_000_000,
  });
  const [imageId] = await repo.addImages(
    meterId,
    [{ name: 'front.jpg', type: 'image/jpeg', bytes: TINY_JPEG }],
    0,
  );
  await repo.insertTests([
    {
      deviceId: precision,
      idn: '1',
      mtimeSec: 1_780_000_100,
      result: JSON.stringify({ IDN: '1', MTIME: 1_780_000_100, ERROR: 0.2 }),
      receivedAtMs: 0,
    },
  ]);
  const clients = {
    assigned: await quickSession(s, ids.assigned),
    other: await quickSession(s, ids.other),
    expired: await quickSession(s, ids.expired),
    manager: await quickSession(s, ids.manager),
  };
  // The assigned user has a saved tree; the expired one's assignment has run out.
  await s.devices.saveHierarchy({ userId: ids.assigned, login: 'alice' }, menuWith(MAC));
  t.clock.advance(61_000);
  const expiredToken = clients.expired.devices.find((d) => d.mac === MAC)!.token;
  const expiredPrecisionToken = clients.expired.devices.find((d) => d.mac === PRECISION_MAC)!.token;
  return {
    t,
    clients,
    meterId,
    imageId: imageId!,
    deviceToken: (a) =>
      a === 'expired' ? expiredToken : clients.assigned.devices.find((d) => d.mac === MAC)!.token,
    precisionToken: (a) =>
      a === 'expired'
        ? expiredPrecisionToken
        : clients.assigned.devices.find((d) => d.mac === PRECISION_MAC)!.token,
    login: (a) =>
      a === 'anonymous' ? 'alice' : { assigned: 'alice', other: 'olga', expired: 'erin', manager: 'boss' }[a],
  };
}

describe.each(DIALECTS)('authorization matrix on $name', (dialect) => {
  let routes: string[] = [];

  beforeAll(async () => {
    const w = await buildWorld(dialect);
    routes = w.t.app.apiRoutes.map((r) => `${r.method} ${r.url}`);
    await w.t.close();
  });

  it('has a row for every registered API route', () => {
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.filter((r) => !(r in CASES))).toEqual([]);
    expect(Object.keys(CASES).filter((r) => !routes.includes(r))).toEqual([]);
  });

  describe.each(Object.entries(CASES))('%s', (route, c) => {
    let w: World;
    beforeAll(async () => {
      w = await buildWorld(dialect);
    });
    afterAll(() => w.t.close());

    // Actors run in ACTORS order, the assigned user last, since its allowed call may change state.
    it.each(ACTORS.map((a) => [a, c.expect[a]] as const))('%s -> %s', async (actor, outcome) => {
      const url = c.url?.(w, actor) ?? route.split(' ')[1]!;
      const before = await snapshot(w.t.services);
      const client = actor === 'anonymous' ? null : w.clients[actor];
      const res = c.multipart
        ? await callMultipart(
            w.t.app,
            url,
            c.body(w, actor) as Record<string, string>,
            [{ name: 'meter.png', type: 'image/png', bytes: tinyPng() }],
            client,
          )
        : await call(w.t.app, c.method, url, c.body(w, actor), client);
      // An image answers its bytes; everything else the JSON envelope.
      const json = String(res.headers['content-type']).startsWith('application/json');
      const body = json
        ? res.json<{ status: string; code?: number }>()
        : { status: res.statusCode === 200 ? 'OK' : 'ERROR' };
      if (outcome === 'OK') {
        expect(body.status, res.body).toBe('OK');
        expect(res.statusCode).toBe(200);
      } else {
        expect(body, res.body).toMatchObject({ status: 'ERROR', code: outcome });
        expect(res.statusCode).toBeGreaterThanOrEqual(400);
        expect(await snapshot(w.t.services)).toEqual(before);
      }
    });
  });
});
