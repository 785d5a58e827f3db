import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelemetryDB } from '../db/schema.telemetry';
import { TINY_JPEG, tinyPng } from '../precision/testImages';
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
  type TestApp,
} from '../test/harness';

const HALL = '02-4D-50-00-00-41';
const BOILER = '02-4D-50-00-00-42';
const OLGA = '02-4D-50-00-00-43';
const UPLOAD = '/api/write/site-maps';
const LIST = '/api/read/site-maps/list';
const PINS = '/api/write/site-maps/pins';

interface Pin {
  mac: string;
  title: string;
  group: string;
  x: number;
  y: number;
  state: string;
}
interface MapEntry {
  id: number;
  name: string;
  type: string;
  sizeBytes: number;
  pins: Pin[];
}

describe.each(DIALECTS)('site maps on $name', (dialect) => {
  let t: TestApp;
  let alice: Client;
  let olga: Client;
  let ids: { alice: number; hall: number; boiler: number };
  const tokenOf = (c: Client, mac: string) => c.devices.find((d) => d.mac === mac)!.token;

  const upload = (c: Client, name: string, file: { name: string; type: string; bytes: Uint8Array }) =>
    callMultipart(t.app, UPLOAD, { user_token: c.token, name }, [file], c);
  const list = async (c: Client): Promise<MapEntry[]> => {
    const res = await call(t.app, 'POST', LIST, { user_token: c.token }, c);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: MapEntry[] }>().data;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const s = t.services;
    const a = await addUser(s, 'alice', 'alice-secret');
    const o = await addUser(s, 'olga', 'olga-secret');
    const hall = await addDevice(s, HALL, 4, 'Hall');
    const boiler = await addDevice(s, BOILER, 1, 'Boiler room');
    await assign(s, a, hall, true);
    await assign(s, a, boiler, false);
    await assign(s, o, await addDevice(s, OLGA, 4, 'Olga'), true);
    ids = { alice: a, hall, boiler };
    alice = await quickSession(s, a);
    olga = await quickSession(s, o);
  });
  afterAll(() => t.close());

  it('stores an uploaded plan by its content and serves it back to its user only', async () => {
    const png = tinyPng(40, 20);
    const res = await upload(alice, 'Ground floor', { name: 'plan.png', type: 'image/png', bytes: png });
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json<{ data: { id: number } }>().data;
    expect(await list(alice)).toEqual([
      { id, name: 'Ground floor', type: 'image/png', sizeBytes: png.length, pins: [] },
    ]);
    const img = await call(t.app, 'GET', `/api/read/site-maps/${id}/image`, null, alice);
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(img.rawPayload, png)).toBe(0);
    // Another user sees neither the map nor its image.
    expect(await list(olga)).toEqual([]);
    const foreign = await call(t.app, 'GET', `/api/read/site-maps/${id}/image`, null, olga);
    expect(foreign.json()).toMatchObject({ status: 'ERROR', code: 605 });
  });

  it('takes a JPEG whatever its name says', async () => {
    const res = await upload(alice, 'Yard', {
      name: 'yard.bin',
      type: 'application/octet-stream',
      bytes: TINY_JPEG,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await list(alice)).find((m) => m.name === 'Yard')?.type).toBe('image/jpeg');
  });

  it.each([
    [
      'a file over 1 MB',
      { name: 'big.png', type: 'image/png', bytes: Buffer.concat([tinyPng(), Buffer.alloc(1_000_000)]) },
      609,
      'File is too large, max allowed size is 1MB',
    ],
    [
      'a text file named .png',
      { name: 'plan.png', type: 'image/png', bytes: Buffer.from('not an image at all') },
      600,
      'File format not supported',
    ],
    [
      'a GIF',
      {
        name: 'plan.gif',
        type: 'image/gif',
        bytes: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary'),
      },
      600,
      'File format not supported',
    ],
    [
      'a PDF named .jpg',
      { name: 'plan.jpg', type: 'image/jpeg', bytes: Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'binary') },
      600,
      'File format not supported',
    ],
  ])('refuses %s with the seed text and stores nothing', async (_what, file, code, text) => {
    const before = await snapshot(t.services);
    const res = await upload(alice, 'Refused', file);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const body = res.json<{ status: string; code: number; message: string }>();
    expect(body).toMatchObject({ status: 'ERROR', code });
    expect(body.message).toContain(text);
    expect(await snapshot(t.services)).toEqual(before);
  });

  it('refuses an upload without a file, with two files, or with a bad name', async () => {
    const before = await snapshot(t.services);
    const none = await callMultipart(t.app, UPLOAD, { user_token: alice.token, name: 'Empty' }, [], alice);
    expect(none.json()).toMatchObject({ status: 'ERROR', code: 600 });
    const two = await callMultipart(
      t.app,
      UPLOAD,
      { user_token: alice.token, name: 'Two' },
      [
        { name: 'a.png', type: 'image/png', bytes: tinyPng() },
        { name: 'b.png', type: 'image/png', bytes: tinyPng() },
      ],
      alice,
    );
    expect(two.json()).toMatchObject({ status: 'ERROR', code: 600 });
    for (const name of ['', '   ', '<b>x</b>', 'x'.repeat(61)]) {
      const res = await upload(alice, name, { name: 'a.png', type: 'image/png', bytes: tinyPng() });
      expect(res.json(), name).toMatchObject({ status: 'ERROR', code: 600 });
    }
    expect(await snapshot(t.services)).toEqual(before);
  });

  it('places, moves and removes pins of assigned devices, as fractions of the image', async () => {
    const [plan] = await list(alice);
    const save = (c: Client, body: object) =>
      call(t.app, 'POST', PINS, { user_token: c.token, id: plan!.id, ...body }, c);
    expect(
      (await save(alice, { token: tokenOf(alice, HALL), group: 'Ground', x: 0.25, y: 0.5 })).statusCode,
    ).toBe(200);
    expect((await save(alice, { token: tokenOf(alice, BOILER), group: '', x: 1, y: 0 })).statusCode).toBe(
      200,
    );
    // Moving keeps one pin per device.
    expect(
      (await save(alice, { token: tokenOf(alice, HALL), group: 'Ground', x: 0.3, y: 0.6 })).statusCode,
    ).toBe(200);
    let pins = (await list(alice)).find((m) => m.id === plan!.id)!.pins;
    expect(pins).toEqual([
      { mac: HALL, title: 'Hall', type: 4, group: 'Ground', x: 0.3, y: 0.6, state: 'OFFLINE' },
      { mac: BOILER, title: 'Boiler room', type: 1, group: '', x: 1, y: 0, state: 'OFFLINE' },
    ]);

    const before = await snapshot(t.services);
    // Outside the image, another user's device, another user's map: refused, nothing changed.
    for (const [x, y] of [
      [-0.1, 0.5],
      [0.5, 1.01],
      [Number.NaN, 0],
    ]) {
      const res = await save(alice, { token: tokenOf(alice, HALL), group: '', x, y });
      expect(res.json()).toMatchObject({ status: 'ERROR', code: 600 });
    }
    expect(
      (await save(alice, { token: tokenOf(olga, OLGA), group: '', x: 0.5, y: 0.5 })).json(),
    ).toMatchObject({ code: 605 });
    expect(
      (await save(olga, { token: tokenOf(olga, OLGA), group: '', x: 0.5, y: 0.5 })).json(),
    ).toMatchObject({ code: 605 });
    const olgaRemoves = await call(
      t.app,
      'DELETE',
      PINS,
      { user_token: olga.token, id: plan!.id, token: tokenOf(olga, OLGA) },
      olga,
    );
    expect(olgaRemoves.json()).toMatchObject({ code: 605 });
    expect(await snapshot(t.services)).toEqual(before);

    const removed = await call(
      t.app,
      'DELETE',
      PINS,
      { user_token: alice.token, id: plan!.id, token: tokenOf(alice, BOILER) },
      alice,
    );
    expect(removed.statusCode).toBe(200);
    pins = (await list(alice)).find((m) => m.id === plan!.id)!.pins;
    expect(pins.map((p) => p.mac)).toEqual([HALL]);
  });

  it('shows online, offline and an open alarm as the pin state', async () => {
    const [plan] = await list(alice);
    const db = t.services.database.db;
    const state = async () => (await list(alice)).find((m) => m.id === plan!.id)!.pins[0]!.state;
    expect(await state()).toBe('OFFLINE');
    await db
      .withTables<TelemetryDB>()
      .insertInto('device_states')
      .values({
        device_id: ids.hall,
        status: 1,
        connection: 'MQTT',
        fw: null,
        model: null,
        changed_at_ms: 0,
        clock_skew_sec: null,
      })
      .execute();
    expect(await state()).toBe('ONLINE');
    await db
      .insertInto('alarm_rules')
      .values({
        user_id: ids.alice,
        device_id: ids.hall,
        definition: '{}',
        lang: 'en',
        created_at_ms: 0,
        updated_at_ms: 0,
      })
      .execute();
    const rule = await db
      .selectFrom('alarm_rules')
      .select('id')
      .where('user_id', '=', ids.alice)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('alarms')
      .values({
        rule_id: rule.id,
        user_id: ids.alice,
        device_id: ids.hall,
        name: 'Silent',
        severity: 'warning',
        state: 'raised',
        value: null,
        raised_at_ms: 0,
        acked_at_ms: null,
        acked_by: null,
        ack_note: null,
        cleared_at_ms: null,
      })
      .execute();
    expect(await state()).toBe('ALARM');
    await db
      .updateTable('alarms')
      .set({ state: 'cleared', cleared_at_ms: 1 })
      .where('device_id', '=', ids.hall)
      .execute();
    expect(await state()).toBe('ONLINE');
  });

  it('hides pins of devices whose assignment ended', async () => {
    const [plan] = await list(alice);
    await t.services.database.db
      .updateTable('assignments')
      .set({ life_time_sec: 1 })
      .where('device_id', '=', ids.hall)
      .execute();
    expect((await list(alice)).find((m) => m.id === plan!.id)!.pins).toEqual([]);
  });

  it('renames and deletes a map with its pins; another user can do neither', async () => {
    const [plan] = await list(alice);
    const before = await snapshot(t.services);
    const rename = (c: Client, name: string) =>
      call(t.app, 'PUT', UPLOAD, { user_token: c.token, id: plan!.id, name }, c);
    expect((await rename(olga, 'Mine')).json()).toMatchObject({ code: 605 });
    expect(
      (await call(t.app, 'DELETE', UPLOAD, { user_token: olga.token, id: plan!.id }, olga)).json(),
    ).toMatchObject({ code: 605 });
    expect((await rename(alice, '')).json()).toMatchObject({ code: 600 });
    expect(await snapshot(t.services)).toEqual(before);
    expect((await rename(alice, 'First floor')).statusCode).toBe(200);
    expect((await list(alice)).find((m) => m.id === plan!.id)!.name).toBe('First floor');
    const del = await call(t.app, 'DELETE', UPLOAD, { user_token: alice.token, id: plan!.id }, alice);
    expect(del.statusCode).toBe(200);
    expect((await list(alice)).map((m) => m.id)).not.toContain(plan!.id);
    const pins = await t.services.database.db
      .selectFrom('site_map_pins')
      .selectAll()
      .where('map_id', '=', plan!.id)
      .execute();
    expect(pins).toEqual([]);
    expect(
      (await call(t.app, 'GET', `/api/read/site-maps/${plan!.id}/image`, null, alice)).json(),
    ).toMatchObject({ code: 605 });
  });
});
