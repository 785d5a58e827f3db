import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeviceCommander } from './commands.service';
import {
  METER_IMAGE_MAX_BYTES,
  METER_IMAGE_MAX_FILES,
  OnlineStatus,
  type MeterInputIn,
  type MeterTestResult,
} from '@meterportal/protocol';
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
import type { TelemetryDB } from '../db/schema.telemetry';
import { metersRepository } from './meters.repository';
import { TINY_JPEG, tinyPng } from './testImages';

const BENCH = '02-4D-50-00-00-03';
const SECOND = '02-4D-50-00-00-23';
const INDUSTRIAL = '02-4D-50-00-00-04';
const FOREIGN = '02-4D-50-00-00-33';
const R = '/api/read/applied-precision';
const W = '/api/write/applied-precision';

const meter = (over: Partial<MeterInputIn> = {}): MeterInputIn => ({
  SNUM: '40012345',
  TYPE: 'E350',
  CONSTANT: '1000',
  PRODUCER: 'Landis+Gyr',
  CLASS: '1',
  YMAN: '2019',
  CONTYPE: 0,
  ELM_OUTPUT_TYPE: 0,
  MENERGYTYPE: 0,
  CONSTUNIT: 0,
  CONSTTYPE: 0,
  ENERMETHOD: 0,
  ...over,
});

const testResult = (idn: string, mtime: number, error = 0.12): MeterTestResult => ({
  IDN: idn,
  MTIME: mtime,
  ERROR: error,
  METERSTDEV: 0.02,
  INTTIME: 30,
  MCHNLA1: 230.1,
  MCHNLB1: 5.2,
  MPOWER1: 1150,
});

describe.each(DIALECTS)('meter database routes on $name', (dialect) => {
  let t: TestApp;
  /** How the device answers a command; none answers while null. */
  let answer: DeviceCommander['send'] | null = null;
  let alice: Client;
  let bob: Client;
  let ids: Record<string, number>;
  const tok = (mac: string, c: Client = alice) => c.devices.find((d) => d.mac === mac)!.token;
  const setStatus = async (mac: string, status: number) => {
    const db = t.services.database.db.withTables<TelemetryDB>();
    const row = {
      status,
      connection: 'BT_MQTT_DB',
      fw: '3.1.2',
      model: 'AP-3',
      changed_at_ms: t.clock.nowMs(),
    };
    await db
      .insertInto('device_states')
      .values({ device_id: ids[mac]!, ...row })
      .onConflict((oc) => oc.column('device_id').doUpdateSet(row))
      .execute();
  };
  const add = async (m: MeterInputIn, mac = BENCH) =>
    call(t.app, 'POST', `${W}/meters/add`, { device_token: tok(mac), meter: m }, alice);
  const list = async (mac = BENCH) => call(t.app, 'POST', `${R}/meters`, { device_token: tok(mac) }, alice);
  const upload = (
    mac: string,
    meterId: number,
    files: { name: string; type: string; bytes: Uint8Array }[],
    client = alice,
  ) =>
    callMultipart(
      t.app,
      `${W}/images`,
      { device_token: tok(mac, client), meter_ID: String(meterId) },
      files,
      client,
    );

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      commander: {
        send: (mac, c, signal) => (answer ? answer(mac, c, signal) : Promise.reject(new Error('no device'))),
      },
    });
    const a = await addUser(t.services, 'alice', 'alice-secret');
    const b = await addUser(t.services, 'bob', 'bob-secret');
    ids = {};
    for (const [mac, type] of [
      [BENCH, 3],
      [SECOND, 3],
      [INDUSTRIAL, 4],
      [FOREIGN, 3],
    ] as const)
      ids[mac] = await addDevice(t.services, mac, type);
    for (const mac of [BENCH, SECOND, INDUSTRIAL]) await assign(t.services, a, ids[mac]!, true);
    await assign(t.services, b, ids[FOREIGN]!, true);
    alice = await quickSession(t.services, a);
    bob = await quickSession(t.services, b);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    const db = t.services.database.db;
    await db.deleteFrom('meter_images').execute();
    await db.deleteFrom('meter_tests').execute();
    await db.deleteFrom('meters').execute();
    for (const mac of [BENCH, SECOND, INDUSTRIAL, FOREIGN]) await setStatus(mac, OnlineStatus.Online);
  });

  it('answers 610 while the device has no meters', async () => {
    const r = await list();
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ status: 'ERROR', code: 610 });
  });

  it('adds a meter with the next IDN, its CRC and the time, and lists it with the defaults', async () => {
    t.clock.set(1_790_000_000_000);
    const r = await add(meter());
    expect(r.statusCode, r.body).toBe(200);
    const id = r.json().data.ID_meter as number;
    expect(id).toBeGreaterThan(0);
    const rows = (await list()).json().data;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      ID_meter: id,
      IDN: '1',
      SNUM: '40012345',
      MTIME: 1_790_000_000,
      LPCOUNT: 0,
      NOTE1: '',
      FREQ: '',
      CONTYPE: 0,
    });
    expect(rows[0].CRC).toMatch(/^[0-9A-F]{8}$/);
    const second = await add(meter({ SNUM: '71100042' }));
    expect(second.statusCode).toBe(200);
    const again = (await list()).json().data;
    expect(again.map((m: { IDN: string }) => m.IDN).sort()).toEqual(['1', '2']);
  });

  it('gives meters added at the same moment different IDNs', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => add(meter({ SNUM: `P${i}` }))));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(
      (await list())
        .json()
        .data.map((m: { IDN: string }) => m.IDN)
        .sort(),
    ).toEqual(['1', '2', '3', '4']);
  });

  it('lists the newest meter first, and an edit keeps its time and its place', async () => {
    t.clock.set(1_790_000_000_000);
    const first = (await add(meter({ SNUM: 'A1' }))).json().data.ID_meter as number;
    t.clock.advance(60_000);
    await add(meter({ SNUM: 'B2' }));
    t.clock.advance(60_000);
    expect((await list()).json().data.map((m: { SNUM: string }) => m.SNUM)).toEqual(['B2', 'A1']);
    await call(
      t.app,
      'PUT',
      `${W}/meters`,
      { device_token: tok(BENCH), ID_meter: first, meter: meter({ SNUM: 'A1', NOTE1: 'seal checked' }) },
      alice,
    );
    const rows = (await list()).json().data;
    expect(rows.map((m: { SNUM: string }) => m.SNUM)).toEqual(['B2', 'A1']);
    expect(rows.map((m: { MTIME: number }) => m.MTIME)).toEqual([1_790_000_060, 1_790_000_000]);
    expect(rows[1].NOTE1).toBe('seal checked');
  });

  it.each([
    ['offline', OnlineStatus.Offline],
    ['updating its database', OnlineStatus.DatabaseUpdate],
  ])(
    "answers 529 'Device is offline' to an add while the device is %s, and stores nothing",
    async (_what, status) => {
      await setStatus(BENCH, status);
      const before = await snapshot(t.services);
      const r = await add(meter());
      expect(r.statusCode).toBe(409);
      expect(r.json()).toEqual({ status: 'ERROR', code: 529, message: 'Device is offline' });
      expect(await snapshot(t.services)).toEqual(before);
    },
  );

  it.each([
    ['no serial number', { SNUM: '' }, 'meter.SNUM'],
    ['a serial number of 21 characters', { SNUM: '1'.repeat(21) }, 'meter.SNUM'],
    ['a constant with letters', { CONSTANT: '10a' }, 'meter.CONSTANT'],
    ['year 2200', { YMAN: '2200' }, 'meter.YMAN'],
    ['connection 5', { CONTYPE: 5 }, 'meter.CONTYPE'],
    ['a negative CT ratio', { CTRATIO: '-1' }, 'meter.CTRATIO'],
    ['a note of 41 characters', { NOTE1: 'x'.repeat(41) }, 'meter.NOTE1'],
  ])('refuses a meter with %s (600, nothing stored)', async (_what, over, where) => {
    await add(meter());
    const before = await snapshot(t.services);
    const r = await add(meter(over));
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ status: 'ERROR', code: 600, message: expect.stringContaining(where) });
    const id = (await list()).json().data[0].ID_meter as number;
    const edit = await call(
      t.app,
      'PUT',
      `${W}/meters`,
      { device_token: tok(BENCH), ID_meter: id, meter: meter(over) },
      alice,
    );
    expect(edit.json()).toMatchObject({ code: 600 });
    expect(await snapshot(t.services)).toEqual(before);
  });

  it('edits a meter: new fields, new CRC, same MTIME, same IDN', async () => {
    t.clock.set(1_790_000_000_000);
    const id = (await add(meter())).json().data.ID_meter as number;
    const [before] = (await list()).json().data;
    t.clock.advance(3_600_000);
    const r = await call(
      t.app,
      'PUT',
      `${W}/meters`,
      { device_token: tok(BENCH), ID_meter: id, meter: meter({ NOTE1: 'recalibrated', CTRATIO: '40' }) },
      alice,
    );
    expect(r.json()).toEqual({ status: 'OK' });
    const [after] = (await list()).json().data;
    expect(after).toMatchObject({
      ID_meter: id,
      IDN: before.IDN,
      NOTE1: 'recalibrated',
      CTRATIO: '40',
      MTIME: 1_790_000_000,
    });
    expect(after.CRC).not.toBe(before.CRC);
  });

  it('answers 605 for a meter of another device, for a device of another user and for a device that is not a precision analyzer', async () => {
    const other = (await add(meter(), SECOND)).json().data.ID_meter as number;
    await add(meter());
    const before = await snapshot(t.services);
    const cases = [
      call(t.app, 'PUT', `${W}/meters`, { device_token: tok(BENCH), ID_meter: other, meter: meter() }, alice),
      call(t.app, 'DELETE', `${W}/meters`, { device_token: tok(BENCH), ID_meter: other }, alice),
      call(t.app, 'POST', `${R}/test-result`, { device_token: tok(BENCH), ID_meter: other }, alice),
      call(t.app, 'POST', `${R}/images/list`, { device_token: tok(BENCH), ID_meter: other }, alice),
      upload(BENCH, other, [{ name: 'm.png', type: 'image/png', bytes: tinyPng() }]),
      // Bob's own precision device is not Alice's, and her tokens are useless in his session.
      call(t.app, 'POST', `${R}/meters`, { device_token: tok(BENCH) }, bob),
      call(t.app, 'POST', `${W}/meters/add`, { device_token: tok(BENCH), meter: meter() }, bob),
      list(INDUSTRIAL),
      add(meter(), INDUSTRIAL),
      call(t.app, 'POST', `${W}/upload-database`, { device_token: tok(INDUSTRIAL), meters: true }, alice),
      call(t.app, 'POST', `${W}/download-database`, { device_token: tok(INDUSTRIAL), meters: true }, alice),
    ];
    for (const r of await Promise.all(cases)) {
      expect(r.statusCode, r.body).toBe(404);
      expect(r.json()).toMatchObject({ status: 'ERROR', code: 605 });
    }
    expect(await snapshot(t.services)).toEqual(before);
  });

  it('answers the tests of a meter newest first, counts them as LPCOUNT, and 610 when there are none', async () => {
    const id = (await add(meter())).json().data.ID_meter as number;
    const ref = { device_token: tok(BENCH), ID_meter: id };
    const none = await call(t.app, 'POST', `${R}/test-result`, ref, alice);
    expect(none.json()).toMatchObject({ status: 'ERROR', code: 610 });
    const repo = metersRepository(t.services.database);
    const rows = [
      testResult('1', 1_789_000_000, 0.1),
      testResult('1', 1_789_100_000, -0.3),
      testResult('1', 1_789_050_000, 0.2),
      testResult('9', 1_789_000_000),
    ];
    await repo.insertTests(
      rows.map((r) => ({
        deviceId: ids[BENCH]!,
        idn: r.IDN,
        mtimeSec: r.MTIME,
        result: JSON.stringify(r),
        receivedAtMs: 0,
      })),
    );
    const r = await call(t.app, 'POST', `${R}/test-result`, ref, alice);
    expect(r.statusCode).toBe(200);
    const data = r.json().data as (MeterTestResult & { ID_test: number })[];
    expect(data.map((x) => x.MTIME)).toEqual([1_789_100_000, 1_789_050_000, 1_789_000_000]);
    expect(data[0]).toMatchObject({ IDN: '1', ERROR: -0.3, MCHNLA1: 230.1, INTTIME: 30 });
    expect(data.every((x) => Number.isInteger(x.ID_test))).toBe(true);
    expect((await list()).json().data[0].LPCOUNT).toBe(3);
  });

  it('gives a new meter an IDN that no stored test uses', async () => {
    const repo = metersRepository(t.services.database);
    await repo.insertTests([
      {
        deviceId: ids[BENCH]!,
        idn: '5',
        mtimeSec: 1,
        result: JSON.stringify(testResult('5', 1)),
        receivedAtMs: 0,
      },
    ]);
    await add(meter());
    expect((await list()).json().data[0].IDN).toBe('6');
  });

  it('stores PNG and JPEG images and serves their bytes only to a user of the device', async () => {
    const id = (await add(meter())).json().data.ID_meter as number;
    const png = tinyPng(3, 2);
    const r = await upload(BENCH, id, [
      { name: 'front.png', type: 'image/png', bytes: png },
      { name: 'seal.jpg', type: 'image/jpeg', bytes: TINY_JPEG },
    ]);
    expect(r.statusCode, r.body).toBe(200);
    const imageIds = r.json().data.ID_image as number[];
    expect(imageIds).toHaveLength(2);
    const listed = await call(
      t.app,
      'POST',
      `${R}/images/list`,
      { device_token: tok(BENCH), ID_meter: id },
      alice,
    );
    expect(listed.json().data).toEqual([
      { ID_image: imageIds[0], name: 'front.png', type: 'image/png', size: png.length },
      { ID_image: imageIds[1], name: 'seal.jpg', type: 'image/jpeg', size: TINY_JPEG.length },
    ]);
    const url = (imageId: number, token = tok(BENCH)) =>
      `${R}/images/${imageId}?device_token=${encodeURIComponent(token)}`;
    const got = await call(t.app, 'GET', url(imageIds[1]!), null, alice);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/jpeg');
    expect(got.headers['cache-control']).toBe('no-store');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(got.rawPayload, TINY_JPEG)).toBe(0);
    const gotPng = await call(t.app, 'GET', url(imageIds[0]!), null, alice);
    expect(gotPng.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(gotPng.rawPayload, png)).toBe(0);
    // Bob with Alice's token, Bob with his own device, and nobody at all: all see nothing.
    for (const [u, c] of [
      [url(imageIds[0]!), bob],
      [url(imageIds[0]!, tok(FOREIGN, bob)), bob],
      [url(imageIds[0]!), null],
    ] as const) {
      const denied = await call(t.app, 'GET', u, null, c);
      expect(denied.statusCode).toBeGreaterThanOrEqual(400);
      expect(denied.json().code).toBe(c ? 605 : 601);
      expect(denied.headers['content-type']).toMatch(/^application\/json/);
    }
    const missing = await call(t.app, 'GET', url(imageIds[1]! + 100), null, alice);
    expect(missing.json()).toMatchObject({ code: 605 });
  });

  it.each([
    [
      'a text file renamed .png',
      [{ name: 'fake.png', type: 'image/png', bytes: Buffer.from('just some text, not an image') }],
      600,
    ],
    ['a GIF name', [{ name: 'm.gif', type: 'image/gif', bytes: tinyPng() }], 600],
    ['a JPEG sent as PNG', [{ name: 'm.png', type: 'image/png', bytes: TINY_JPEG }], 600],
    [
      'one good and one fake file',
      [
        { name: 'ok.png', type: 'image/png', bytes: tinyPng() },
        { name: 'fake.jpg', type: 'image/jpeg', bytes: Buffer.from('GIF89a') },
      ],
      600,
    ],
    [
      'a file of 1,000,001 bytes',
      [
        {
          name: 'big.png',
          type: 'image/png',
          bytes: Buffer.concat([tinyPng(), Buffer.alloc(METER_IMAGE_MAX_BYTES + 1 - tinyPng().length)]),
        },
      ],
      609,
    ],
    [
      'eleven files',
      Array.from({ length: 11 }, (_, i) => ({ name: `m${i}.png`, type: 'image/png', bytes: tinyPng() })),
      600,
    ],
    ['no file at all', [], 600],
  ])('refuses %s and stores nothing', async (_what, files, code) => {
    const id = (await add(meter())).json().data.ID_meter as number;
    const before = await snapshot(t.services);
    const r = await upload(BENCH, id, files);
    expect(r.json(), r.body).toMatchObject({ status: 'ERROR', code });
    expect(r.statusCode).toBe(code === 609 ? 413 : 400);
    expect(await snapshot(t.services)).toEqual(before);
  });

  it('says the image limit when an upload carries more files than the parser takes', async () => {
    const id = (await add(meter())).json().data.ID_meter as number;
    const before = await snapshot(t.services);
    const files = Array.from({ length: METER_IMAGE_MAX_FILES + 2 }, (_, i) => ({
      name: `m${i}.png`,
      type: 'image/png',
      bytes: tinyPng(),
    }));
    const r = await upload(BENCH, id, files);
    expect(r.json()).toMatchObject({
      code: 600,
      message: `Invalid request: at most ${METER_IMAGE_MAX_FILES} images per upload`,
    });
    expect(await snapshot(t.services)).toEqual(before);
  });

  it('accepts an image of exactly 1,000,000 bytes', async () => {
    const id = (await add(meter())).json().data.ID_meter as number;
    const png = tinyPng();
    const r = await upload(BENCH, id, [
      {
        name: 'max.png',
        type: 'image/png',
        bytes: Buffer.concat([png, Buffer.alloc(METER_IMAGE_MAX_BYTES - png.length)]),
      },
    ]);
    expect(r.statusCode, r.body).toBe(200);
  });

  it('refuses an upload that is not multipart, or lacks its fields', async () => {
    const id = (await add(meter())).json().data.ID_meter as number;
    const json = await call(t.app, 'POST', `${W}/images`, { device_token: tok(BENCH), meter_ID: id }, alice);
    expect(json.json()).toMatchObject({ code: 600 });
    const noMeter = await callMultipart(
      t.app,
      `${W}/images`,
      { device_token: tok(BENCH) },
      [{ name: 'm.png', type: 'image/png', bytes: tinyPng() }],
      alice,
    );
    expect(noMeter.json()).toMatchObject({ code: 600, message: expect.stringContaining('meter_ID') });
    const anonymous = await callMultipart(
      t.app,
      `${W}/images`,
      { device_token: tok(BENCH), meter_ID: String(id) },
      [{ name: 'm.png', type: 'image/png', bytes: tinyPng() }],
      null,
    );
    expect(anonymous.json()).toMatchObject({ code: 601 });
  });

  it('deletes a meter with its images but keeps its tests', async () => {
    const id = (await add(meter())).json().data.ID_meter as number;
    const keep = (await add(meter({ SNUM: 'keep' }))).json().data.ID_meter as number;
    await upload(BENCH, id, [{ name: 'a.png', type: 'image/png', bytes: tinyPng() }]);
    await upload(BENCH, keep, [{ name: 'b.png', type: 'image/png', bytes: tinyPng() }]);
    await metersRepository(t.services.database).insertTests([
      {
        deviceId: ids[BENCH]!,
        idn: '1',
        mtimeSec: 5,
        result: JSON.stringify(testResult('1', 5)),
        receivedAtMs: 0,
      },
    ]);
    const r = await call(t.app, 'DELETE', `${W}/meters`, { device_token: tok(BENCH), ID_meter: id }, alice);
    expect(r.json()).toEqual({ status: 'OK' });
    const rows = (await list()).json().data;
    expect(rows.map((m: { ID_meter: number }) => m.ID_meter)).toEqual([keep]);
    const db = t.services.database.db;
    expect(await db.selectFrom('meter_images').select('name').execute()).toEqual([{ name: 'b.png' }]);
    expect(await db.selectFrom('meter_tests').select('idn').execute()).toEqual([{ idn: '1' }]);
    const again = await call(
      t.app,
      'DELETE',
      `${W}/meters`,
      { device_token: tok(BENCH), ID_meter: id },
      alice,
    );
    expect(again.json()).toMatchObject({ code: 605 });
  });

  // A device that sends a broken database cannot be made from the simulator, so a stand-in
  // answers at the command link, where the broker would hand over the device's reply.
  it.each([
    ['a record that breaks the wizard rules', [{ IDN: '1', SNUM: '', CONSTANT: '1000' }], 'meter 1 at SNUM'],
    [
      'the same IDN twice',
      [
        {
          IDN: '1',
          SNUM: 'a',
          CONSTANT: '1',
          CONTYPE: 0,
          ELM_OUTPUT_TYPE: 0,
          MENERGYTYPE: 0,
          CONSTUNIT: 0,
          CONSTTYPE: 0,
          ENERMETHOD: 0,
        },
        {
          IDN: '1',
          SNUM: 'b',
          CONSTANT: '1',
          CONTYPE: 0,
          ELM_OUTPUT_TYPE: 0,
          MENERGYTYPE: 0,
          CONSTUNIT: 0,
          CONSTTYPE: 0,
          ENERMETHOD: 0,
        },
      ],
      'IDN 1 appears twice',
    ],
  ])('keeps its list when the device sends a database with %s', async (_what, meters, message) => {
    await add(meter());
    const before = await snapshot(t.services);
    answer = () =>
      Promise.resolve({ id: 'x', cmd: 'METERS_UPLOAD' as const, ok: true as const, result: { meters } });
    try {
      const r = await call(
        t.app,
        'POST',
        `${W}/download-database`,
        { device_token: tok(BENCH), meters: true },
        alice,
      );
      expect(r.json()).toMatchObject({
        status: 'ERROR',
        code: 604,
        message: expect.stringContaining(message),
      });
    } finally {
      answer = null;
    }
    expect(await snapshot(t.services)).toEqual(before);
  });

  it('answers 608 when the device refuses the exchange', async () => {
    answer = (_mac, c) => Promise.resolve({ id: 'x', cmd: c.cmd, ok: false, error: 'BUSY' });
    try {
      const r = await call(
        t.app,
        'POST',
        `${W}/upload-database`,
        { device_token: tok(BENCH), meters: true },
        alice,
      );
      expect(r.json()).toMatchObject({
        status: 'ERROR',
        code: 608,
        message: expect.stringContaining('BUSY'),
      });
    } finally {
      answer = null;
    }
  });

  it('answers 529 to the database exchange while the device is offline', async () => {
    await setStatus(BENCH, OnlineStatus.Offline);
    for (const path of ['upload-database', 'download-database']) {
      const r = await call(t.app, 'POST', `${W}/${path}`, { device_token: tok(BENCH), meters: true }, alice);
      expect(r.json()).toMatchObject({ status: 'ERROR', code: 529 });
    }
  });
});
