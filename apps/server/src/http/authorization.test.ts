import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../auth/crypto';
import { metersRepository } from '../precision/meters.repository';
import { canonicalFields, meterCrc } from '../precision/meters-fns';
import { TINY_JPEG, tinyPng } from '../precision/testImages';
import { MeterInput, unixSec } from '@meterportal/protocol';
import { meterCapacityRepository } from '../tariffs/meter-capacity.repository';
import { ENERGY_COLUMNS, MINUTE_COLUMNS } from '../telemetry/columns';
import { createTelemetryRepository } from '../telemetry/telemetry.repository';
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
  type UploadFile,
} from '../test/harness';

/**
 * Every API route against every kind of caller. A new route that is missing from CASES fails the
 * first test, so none can be added without stating who may call it.
 */
const ACTORS = ['anonymous', 'other', 'expired', 'manager', 'assigned'] as const;
type Actor = (typeof ACTORS)[number];
type Outcome = 'OK' | number;
/**
 * Callers with `Authorization: Bearer` and no session: the assigned user's integration token over
 * all devices, one limited to the precision analyzer, the first naming another user's device, a
 * revoked and an expired token, and the assigned user's session token sent as a bearer.
 */
const TOKEN_ACTORS = [
  'token',
  'token_limited',
  'token_foreign_device',
  'token_revoked',
  'token_expired',
  'session_bearer',
] as const;
type TokenActor = (typeof TOKEN_ACTORS)[number];

const MAC = '02-4D-50-00-00-01';
/** Another user's device. */
const OTHER_MAC = '02-4D-50-00-00-02';
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
  deviceToken(actor: Actor | TokenActor): string;
  /** The same for the precision analyzer. */
  precisionToken(actor: Actor | TokenActor): string;
  login(actor: Actor): string;
  meterId: number;
  imageId: number;
  /** What each token actor sends after `Bearer `. */
  bearer(actor: TokenActor): string;
  /** Id of the assigned user's integration token. */
  integrationTokenId: number;
  /** A stored notification of the shared device. */
  notificationId: number;
  /** The assigned user's site map, with the shared device pinned on it. */
  siteMapId: number;
  /** The assigned user's schedule of the folder Hall's report. */
  scheduleId: number;
}

interface Case {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body(w: World, actor: Actor): object;
  /** The URL when it carries the request (GET), else the route's own. */
  url?(w: World, actor: Actor | TokenActor): string;
  /** Sent as multipart/form-data instead of JSON. */
  multipart?: boolean;
  /** The files of a multipart request (a meter image unless said). */
  files?: UploadFile[];
  expect: Record<Actor, Outcome>;
  /** Outcomes of the bearer callers; by default the anonymous one, as a bearer is no session. */
  tokens?: Record<TokenActor, Outcome>;
}

/** A hierarchy with the device in the folder Hall. */
const menuWith = (mac: string) =>
  JSON.stringify({
    nodes: [
      {
        title: 'Hall',
        children: [{ title: 'Dev', isLeaf: true, data: { id: 1, mac, type: 4 } }],
        data: { id: 'f1' },
      },
    ],
    tags: [],
  });

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

// The integration API takes no session, only a bearer token that is valid and not revoked.
const NO_SESSION: Record<Actor, Outcome> = {
  anonymous: 601,
  other: 601,
  expired: 601,
  manager: 601,
  assigned: 601,
};
const TOKEN_DENIED: Record<TokenActor, Outcome> = {
  token: 601,
  token_limited: 601,
  token_foreign_device: 601,
  token_revoked: 601,
  token_expired: 601,
  session_bearer: 601,
};
/** Where the shared device has one stored hour; other routes' ranges end before it. */
const STORED_FROM = 200_000 - (200_000 % 3600);
/** A series of the shared device over its stored hour; another user's device for that actor. */
const seriesUrl = (a: Actor | TokenActor, path: string) =>
  `/api/read/v1/devices/${a === 'token_foreign_device' ? OTHER_MAC : MAC}/${path}&from=${STORED_FROM}&to=${STORED_FROM + 3600}`;
const TARIFF = {
  validFrom: '2026-01-01',
  currency: 'EUR',
  vatPercent: 20,
  bands: [{ name: 'Flat', days: 'ALL', fromHour: 0, toHour: 24, priceKwh: 0.15 }],
  exportPriceKwh: 0.05,
  monthlyFee: 5,
  capacityPriceKw: 2,
};

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
  'POST /api/read/applications/usermanager/registrations': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a) }),
    expect: MANAGER_ONLY,
  },
  'POST /api/write/applications/usermanager/registrations': {
    method: 'POST',
    body: (w, a) => ({
      user_token: own(w, a),
      family: 'shelly',
      mac: 'A8-03-2A-BE-54-DC',
      title: 'Board',
      type: 4,
      topic: 'shellypro3em-board',
      owner: 'alice',
    }),
    expect: MANAGER_ONLY,
  },
  'PUT /api/write/applications/usermanager/registrations': {
    method: 'PUT',
    body: (w, a) => ({ user_token: own(w, a), mac: MAC }),
    expect: MANAGER_ONLY,
  },
  'DELETE /api/write/applications/usermanager/registrations': {
    method: 'DELETE',
    body: (w, a) => ({ user_token: own(w, a), mac: MAC }),
    expect: MANAGER_ONLY,
  },
  'PUT /api/write/applications/usermanager/registrations/mapping': {
    method: 'PUT',
    body: (w, a) => ({
      user_token: own(w, a),
      mac: MAC,
      mapping: { rows: [{ quantity: 'E_I', phase: 'total', path: 'Import', scale: 1000 }] },
    }),
    // The shared device speaks the portal's own protocol: a manager is told it has no mapping.
    expect: { ...MANAGER_ONLY, manager: 600 },
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
  'POST /api/read/tariffs': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a) }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'POST /api/write/tariffs': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a), tariff: TARIFF }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'DELETE /api/write/tariffs': {
    method: 'DELETE',
    body: (w, a) => ({ token: w.deviceToken(a), validFrom: '2026-01-01' }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 610 },
  },
  'POST /api/read/energy/cost': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a), from: 0, to: 86400, period: 'HOUR' }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 610 },
  },
  'POST /api/read/energy/peaks': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a), months: 2 }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
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
  'POST /api/read/notifications/history': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a), device_token: w.deviceToken(a) }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'POST /api/write/notifications/read': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a), ids: [w.notificationId] }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'POST /api/read/tools/notifications/email': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a) }),
    expect: { anonymous: 601, other: 'OK', expired: 'OK', manager: 'OK', assigned: 'OK' },
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
  'POST /api/read/tools/alarms/rules': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a), device_token: w.deviceToken(a) }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'POST /api/read/tools/alarms': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a), device_token: w.deviceToken(a), state: 'active' }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'POST /api/write/tools/alarms/rules': {
    method: 'POST',
    body: (w, a) => ({
      user_token: own(w, a),
      device_token: w.deviceToken(a),
      lang: 'en',
      rule: { kind: 'offline', name: 'Silent', severity: 'warning', offlineMin: 5 },
    }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  // Rule 1 and its raised alarm 1 are the assigned user's (buildWorld).
  'DELETE /api/write/tools/alarms/rules': {
    method: 'DELETE',
    body: (w, a) => ({ user_token: own(w, a), device_token: w.deviceToken(a), ID: 1 }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'POST /api/write/tools/alarms/acknowledge': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a), device_token: w.deviceToken(a), ID: 1, note: 'seen' }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
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
  // Version 3.2.0 is registered for the shared meter's type; the meter has never reported.
  'POST /api/write/devices/firmware-upgrade': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a), fw: '3.2.0' }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 604 },
  },
  'POST /api/read/devices/firmware': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a) }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'POST /api/read/firmware/versions': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a) }),
    expect: { anonymous: 601, other: 'OK', expired: 'OK', manager: 'OK', assigned: 'OK' },
  },
  'POST /api/write/firmware/versions': {
    method: 'POST',
    multipart: true,
    files: [{ name: 'meter-4.bin', type: 'application/octet-stream', bytes: Buffer.from('firmware 4.0.0') }],
    body: (w, a) => ({ user_token: own(w, a), device_type: '4', version: '4.0.0' }),
    expect: MANAGER_ONLY,
  },
  // The shared meter has no relay: the owner passes every access check and meets that.
  'POST /api/read/devices/relay/history': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a) }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 600 },
  },
  'POST /api/write/devices/relay': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a), state: 'OPEN' }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 600 },
  },
  // The shared meter has never reported, so the owner passes every access check and meets 604.
  'POST /api/read/devices/settings': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a) }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 604 },
  },
  'POST /api/write/devices/settings': {
    method: 'POST',
    body: (w, a) => ({
      token: w.deviceToken(a),
      section: 'measurement',
      measurement: {
        powerScale: 'kW',
        timeScaleSec: 1,
        activeChannels: ['L1'],
        accuracy: '1',
        energyOffsetWh: 0,
        transformationRatio: 1,
        activePowerThresholdW: 0,
      },
    }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 604 },
  },
  // Appliances are a household meter's (type 1) and its owner's: the shared industrial meter
  // looks absent even to its owner (the owner's answers are proven in appliances.routes.test.ts).
  'POST /api/read/devices/appliances': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a), from: 0, to: 86_400_000 }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 605 },
  },
  'POST /api/write/devices/appliances/teach': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a), name: 'Kettle' }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 605 },
  },
  'POST /api/write/devices/appliances/teach/finish': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a), name: 'Kettle' }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 605 },
  },
  'DELETE /api/write/devices/appliances/imprint': {
    method: 'DELETE',
    body: (w, a) => ({ token: w.deviceToken(a), name: 'Kettle' }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 605 },
  },
  'DELETE /api/write/devices/appliances': {
    method: 'DELETE',
    body: (w, a) => ({ token: w.deviceToken(a), name: 'Kettle' }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 605 },
  },
  'POST /api/write/devices/nilm': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a), process: true, autoLearn: false }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 605 },
  },
  // The shared meter is not a household meter: its owner meets absence like everyone else.
  'POST /api/read/anomalies/models': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a) }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 605 },
  },
  'POST /api/write/anomalies/models': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a) }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 605 },
  },
  'POST /api/read/anomalies/band': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a), from: 0, to: 86400 }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 605 },
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
  'POST /api/read/integration/tokens': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a) }),
    expect: { anonymous: 601, other: 'OK', expired: 'OK', manager: 'OK', assigned: 'OK' },
  },
  'POST /api/write/integration/tokens': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a), name: 'Grafana', devices: [MAC] }),
    expect: { anonymous: 601, other: 600, expired: 600, manager: 600, assigned: 'OK' },
  },
  'DELETE /api/write/integration/tokens': {
    method: 'DELETE',
    body: (w, a) => ({ user_token: own(w, a), id: w.integrationTokenId }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'GET /api/read/v1/devices': {
    method: 'GET',
    body: () => ({}),
    expect: NO_SESSION,
    tokens: { ...TOKEN_DENIED, token: 'OK', token_limited: 'OK', token_foreign_device: 'OK' },
  },
  'GET /api/read/v1/devices/:mac/profile': {
    method: 'GET',
    body: () => ({}),
    url: (w, a) => seriesUrl(a, 'profile?quantity=P,E_I'),
    expect: NO_SESSION,
    tokens: { ...TOKEN_DENIED, token: 'OK', token_limited: 605, token_foreign_device: 605 },
  },
  'GET /api/read/v1/devices/:mac/energy': {
    method: 'GET',
    body: () => ({}),
    url: (w, a) => seriesUrl(a, 'energy?period=HOUR&format=csv'),
    expect: NO_SESSION,
    tokens: { ...TOKEN_DENIED, token: 'OK', token_limited: 605, token_foreign_device: 605 },
  },
  'POST /api/read/exports': {
    method: 'POST',
    body: (w, a) => ({
      series: 'ENERGY',
      devices: [w.deviceToken(a)],
      data: 'E_I',
      period: 'HOUR',
      from: STORED_FROM,
      to: STORED_FROM + 3600,
      format: 'CSV',
    }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  // A past week of the analyzer: a verdict (no data here) for every user it is assigned to.
  'POST /api/read/precision/power-quality': {
    method: 'POST',
    body: (w, a) => ({ token: w.precisionToken(a), week: '2026-11-16' }),
    expect: PRECISION_USER,
  },
  'POST /api/read/site-maps/list': {
    method: 'POST',
    body: (w, a) => ({ user_token: own(w, a) }),
    expect: { anonymous: 601, other: 'OK', expired: 'OK', manager: 'OK', assigned: 'OK' },
  },
  'GET /api/read/site-maps/:id/image': {
    method: 'GET',
    body: () => ({}),
    url: (w) => `/api/read/site-maps/${w.siteMapId}/image`,
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  // Every user may upload a plan of their own.
  'POST /api/write/site-maps': {
    method: 'POST',
    multipart: true,
    files: [{ name: 'plan.png', type: 'image/png', bytes: tinyPng(8, 4) }],
    body: (w, a) => ({ user_token: own(w, a), name: 'Ground floor' }),
    expect: { anonymous: 601, other: 'OK', expired: 'OK', manager: 'OK', assigned: 'OK' },
  },
  'PUT /api/write/site-maps': {
    method: 'PUT',
    body: (w, a) => ({ user_token: own(w, a), id: w.siteMapId, name: 'Cellar' }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'DELETE /api/write/site-maps': {
    method: 'DELETE',
    body: (w, a) => ({ user_token: own(w, a), id: w.siteMapId }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'POST /api/write/site-maps/pins': {
    method: 'POST',
    body: (w, a) => ({
      user_token: own(w, a),
      id: w.siteMapId,
      token: w.deviceToken(a),
      group: 'Hall',
      x: 0.5,
      y: 0.5,
    }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'DELETE /api/write/site-maps/pins': {
    method: 'DELETE',
    body: (w, a) => ({ user_token: own(w, a), id: w.siteMapId, token: w.deviceToken(a) }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  // Reports: a device's PDF only for its users; schedules and kept reports only for their maker.
  'POST /api/read/reports': {
    method: 'POST',
    body: (w, a) => ({ token: w.deviceToken(a), kind: 'AVAILABILITY', month: '2020-01', language: 'de' }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  // A folder report reads the caller's own hierarchy: one without the folder finds nothing.
  'POST /api/read/reports/folder': {
    method: 'POST',
    body: () => ({ folder: ['Hall'], kind: 'PEAKS', month: '2020-01', language: 'sk' }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'POST /api/write/reports/schedules': {
    method: 'POST',
    body: (w, a) => ({
      token: w.deviceToken(a),
      kind: 'PEAKS',
      every: 'MONTHLY',
      delivery: 'KEEP',
      language: 'sk',
    }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'POST /api/read/reports/schedules/list': {
    method: 'POST',
    body: () => ({}),
    expect: { anonymous: 601, other: 'OK', expired: 'OK', manager: 'OK', assigned: 'OK' },
  },
  // A folder schedule is made over the caller's own tree: another tree has no folder Hall.
  'POST /api/write/reports/schedules/folder': {
    method: 'POST',
    body: () => ({
      folder: ['Hall'],
      kind: 'AVAILABILITY',
      every: 'WEEKLY',
      delivery: 'KEEP',
      language: 'de',
    }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  // Another user's schedule answers like one that never was.
  'PUT /api/write/reports/schedules': {
    method: 'PUT',
    body: (w) => ({ id: w.scheduleId, every: 'MONTHLY', delivery: 'KEEP', language: 'en', folder: ['hall'] }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'DELETE /api/write/reports/schedules': {
    method: 'DELETE',
    body: (w) => ({ id: w.scheduleId }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 'OK' },
  },
  'POST /api/read/reports/kept/list': {
    method: 'POST',
    body: () => ({}),
    expect: { anonymous: 601, other: 'OK', expired: 'OK', manager: 'OK', assigned: 'OK' },
  },
  'POST /api/read/reports/kept': {
    method: 'POST',
    body: () => ({ id: 1 }),
    expect: { anonymous: 601, other: 605, expired: 605, manager: 605, assigned: 605 },
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
  const otherDevice = await addDevice(s, OTHER_MAC, 4, 'Olga');
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
  const notificationId = await s.repos.notifications.insertNotification(
    device,
    'STATUS',
    JSON.stringify({ timestamp: 0, event: 'ONLINE' }),
    0,
  );
  const rule = { kind: 'offline', name: 'Silent', severity: 'warning', offlineMin: 5 };
  await s.database.db
    .insertInto('alarm_rules')
    .values({
      user_id: ids.assigned,
      device_id: device,
      definition: JSON.stringify(rule),
      lang: 'en',
      created_at_ms: 0,
      updated_at_ms: 0,
    })
    .execute();
  await s.database.db
    .insertInto('alarms')
    .values({
      rule_id: 1,
      user_id: ids.assigned,
      device_id: device,
      name: rule.name,
      severity: rule.severity,
      state: 'raised',
      value: 6,
      raised_at_ms: 0,
      acked_at_ms: null,
      acked_by: null,
      ack_note: null,
      cleared_at_ms: null,
    })
    .execute();
  await s.database.db
    .insertInto('firmware_versions')
    .values({ device_type: 4, version: '3.2.0', created_by: ids.manager, created_at_ms: 0 })
    .execute();
  const clients = {
    assigned: await quickSession(s, ids.assigned),
    other: await quickSession(s, ids.other),
    expired: await quickSession(s, ids.expired),
    manager: await quickSession(s, ids.manager),
  };
  // The assigned user has a saved tree; the expired one's assignment has run out.
  await s.devices.saveHierarchy({ userId: ids.assigned, login: 'alice' }, menuWith(MAC));
  // The shared device has one stored hour, read through the integration API.
  await createTelemetryRepository(s.database, { tz: s.config.TZ }).insertHistory(
    [{ deviceId: device, tsSec: STORED_FROM, values: ENERGY_COLUMNS.map(() => 10) }],
    [
      {
        deviceId: device,
        agg: { minuteStartSec: STORED_FROM, samples: 60, values: MINUTE_COLUMNS.map(() => 1) },
      },
    ],
  );
  // Its meter keeps its own record of the capacity tariff, answered with the peaks.
  await meterCapacityRepository(s.database).save([
    {
      mac: MAC,
      months: [{ month: '1970-01', peakW: 4200, atSec: STORED_FROM, reportedSec: STORED_FROM }],
      average: { averageW: 1200, reportedSec: STORED_FROM },
    },
  ]);
  // Integration tokens of the assigned user: all devices, limited, revoked, expiring in 30 s.
  const alice = await s.auth.resolveSession(clients.assigned.cookie);
  const nowSec = Math.floor(s.clock.nowMs() / 1000);
  const make = (devices?: string[], expiresAt?: number) =>
    s.integrationTokens.create(alice, {
      user_token: '',
      name: 'Grafana',
      devices,
      expiresAt: expiresAt === undefined ? undefined : unixSec(expiresAt),
    });
  const fullToken = await make();
  const limitedToken = await make([PRECISION_MAC]);
  const revokedToken = await make();
  await s.integrationTokens.revoke(alice, revokedToken.id);
  const expiringToken = await make(undefined, nowSec + 30);
  const bearers: Record<TokenActor, string> = {
    token: fullToken.secret,
    token_limited: limitedToken.secret,
    token_foreign_device: fullToken.secret,
    token_revoked: revokedToken.secret,
    token_expired: expiringToken.secret,
    session_bearer: clients.assigned.token,
  };
  // The assigned user's site map with the shared device pinned on it.
  const siteMapId = await s.siteMaps.upload(alice, 'Ground floor', [
    { name: 'plan.png', declaredType: 'image/png', bytes: tinyPng(8, 4), truncated: false },
  ]);
  await s.database.db
    .insertInto('site_map_pins')
    .values({ map_id: siteMapId, device_id: device, group_name: '', x: 0.5, y: 0.5 })
    .execute();
  const scheduleId = await s.reports.createFolderSchedule(alice, {
    folder: ['Hall'],
    kind: 'PEAKS',
    every: 'MONTHLY',
    delivery: 'EMAIL',
    email: 'alice@factory.example',
    language: 'sk',
  });
  t.clock.advance(61_000);
  const expiredToken = clients.expired.devices.find((d) => d.mac === MAC)!.token;
  const expiredPrecisionToken = clients.expired.devices.find((d) => d.mac === PRECISION_MAC)!.token;
  return {
    t,
    clients,
    meterId,
    imageId: imageId!,
    bearer: (a) => bearers[a],
    integrationTokenId: fullToken.id,
    notificationId,
    siteMapId,
    scheduleId,
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

    // Actors run in this order, the assigned user last, since its allowed call may change state.
    const outcomes: [Actor | TokenActor, Outcome][] = [
      ...ACTORS.filter((a) => a !== 'assigned').map((a) => [a, c.expect[a]] as [Actor, Outcome]),
      ...TOKEN_ACTORS.map((a) => [a, c.tokens?.[a] ?? c.expect.anonymous] as [TokenActor, Outcome]),
      ['assigned', c.expect.assigned],
    ];
    it.each(outcomes)('%s -> %s', async (actor, outcome) => {
      const url = c.url?.(w, actor) ?? route.split(' ')[1]!;
      const before = await snapshot(w.t.services);
      const bearer = (TOKEN_ACTORS as readonly string[]).includes(actor);
      const client = actor === 'anonymous' || bearer ? null : w.clients[actor as Exclude<Actor, 'anonymous'>];
      const sent = c.body(w, bearer ? 'anonymous' : (actor as Actor));
      const files = c.files ?? [{ name: 'meter.png', type: 'image/png', bytes: tinyPng() }];
      const authorization: Record<string, string> = bearer
        ? { authorization: `Bearer ${w.bearer(actor as TokenActor)}` }
        : {};
      const res = c.multipart
        ? await callMultipart(w.t.app, url, sent as Record<string, string>, files, client, authorization)
        : bearer
          ? await w.t.app.inject({
              method: c.method,
              url,
              headers: authorization,
              ...(c.method === 'GET' ? {} : { payload: sent }),
            })
          : await call(w.t.app, c.method, url, sent, client);
      // An image and a CSV series answer their bytes; everything else the JSON envelope.
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
