import { unixMs } from '@meterportal/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  call,
  createTestApp,
  quickSession,
  type Client,
  type TestApp,
} from '../test/harness';
import { startWebexStandIn, type WebexStandIn } from '../test/webexStandIn';
import { MAX_ATTEMPTS, notificationDelivery, retryDelayMs } from './notificationDelivery';
import { webexChannel } from './webex';

const HOUSE = '02-4D-50-00-00-01';
const WORKSHOP = '02-4D-50-00-00-04';

describe.each(DIALECTS)('notifications on $name', (dialect) => {
  let t: TestApp;
  let webex: WebexStandIn;
  let alice: Client;
  let aliceId: number;
  let houseId: number;
  const tok = (mac: string) => alice.devices.find((d) => d.mac === mac)!.token;
  const pairCall = (method: 'POST' | 'DELETE', body: object, read = false) =>
    call(
      t.app,
      method,
      `/api/${read ? 'read' : 'write'}/tools/notifications/pair`,
      { user_token: alice.token, ...body },
      alice,
    );

  beforeAll(async () => {
    webex = await startWebexStandIn([
      { id: 'room-ops', title: 'Operations' },
      { id: 'room-night', title: 'Night shift' },
    ]);
    t = await createTestApp(dialect, {
      env: { WEBEX_BASE_URL: webex.baseUrl, WEBEX_BOT_TOKEN: webex.token },
    });
    aliceId = await addUser(t.services, 'alice', 'alice-secret');
    houseId = await addDevice(t.services, HOUSE, 1, 'House');
    await assign(t.services, aliceId, houseId, true);
    await assign(t.services, aliceId, await addDevice(t.services, WORKSHOP, 4, 'Workshop'), true);
    alice = await quickSession(t.services, aliceId);
  });
  afterAll(async () => {
    await t.close();
    await webex.close();
  });

  it('lists the Webex spaces with ID and title', async () => {
    const r = await call(
      t.app,
      'POST',
      '/api/read/tools/notifications/webex-spaces',
      { user_token: alice.token },
      alice,
    );
    expect(r.json()).toEqual({
      status: 'OK',
      data: [
        { ID: 'room-ops', title: 'Operations' },
        { ID: 'room-night', title: 'Night shift' },
      ],
    });
  });

  it('answers 610 for spaces when no bot is configured', async () => {
    const bare = await createTestApp(dialect);
    const id = await addUser(bare.services, 'bob', 'bob-secret');
    const bob = await quickSession(bare.services, id);
    const r = await call(
      bare.app,
      'POST',
      '/api/read/tools/notifications/webex-spaces',
      { user_token: bob.token },
      bob,
    );
    expect(r.json().code).toBe(610);
    await bare.close();
  });

  it('pairs sources with destinations, refusing what the device cannot send and duplicates', async () => {
    const nilmOnWorkshop = await pairCall('POST', {
      device_token: tok(WORKSHOP),
      notifyTypeID: 2,
      notifyDestID: 1,
    });
    expect(nilmOnWorkshop.statusCode).toBe(400);
    const disconnectorOnHouse = await pairCall('POST', {
      device_token: tok(HOUSE),
      notifyTypeID: 4,
      notifyDestID: 1,
    });
    expect(disconnectorOnHouse.statusCode).toBe(400);
    const cloud = await pairCall('POST', { device_token: tok(HOUSE), notifyTypeID: 1, notifyDestID: 1 });
    expect(cloud.json()).toEqual({ status: 'OK', data: { ID_notify: expect.any(Number) } });
    expect(
      (await pairCall('POST', { device_token: tok(HOUSE), notifyTypeID: 1, notifyDestID: 1 })).json().code,
    ).toBe(608);
    const noSpace = await pairCall('POST', { device_token: tok(HOUSE), notifyTypeID: 2, notifyDestID: 2 });
    expect(noSpace.statusCode).toBe(400);
    const unknownSpace = await pairCall('POST', {
      device_token: tok(HOUSE),
      notifyTypeID: 2,
      notifyDestID: 2,
      webex_space: 'room-x',
    });
    expect(unknownSpace.json().code).toBe(605);
    const space = await pairCall('POST', {
      device_token: tok(HOUSE),
      notifyTypeID: 2,
      notifyDestID: 2,
      webex_space: 'room-ops',
    });
    expect(space.statusCode).toBe(200);
    const list = await pairCall('POST', { device_token: tok(HOUSE) }, true);
    expect(list.json().data).toEqual([
      {
        ID: cloud.json().data.ID_notify,
        ID_notifyType: 1,
        ID_notifyDestType: 1,
        webex_space: null,
        email: null,
      },
      {
        ID: space.json().data.ID_notify,
        ID_notifyType: 2,
        ID_notifyDestType: 2,
        webex_space: 'room-ops',
        email: null,
      },
    ]);
    expect((await pairCall('POST', { device_token: tok(WORKSHOP) }, true)).json().data).toEqual([]);
  });

  it('delivers a paired event to the portal users and to the Webex space', async () => {
    const before = webex.messages.length;
    const recorded = await t.services.notifications.record(houseId, HOUSE, 'NILM', {
      timestamp: unixMs(t.clock.nowMs()),
      event: 'ON',
      name: 'Kettle',
      phase: 'L2',
      energy_consumption_wh: 42.5,
      prediction_rate: 97,
      runtime: 180,
    });
    expect(recorded.inAppUserIds).toEqual([]);
    const status = await t.services.notifications.record(houseId, HOUSE, 'STATUS', {
      timestamp: unixMs(t.clock.nowMs()),
      message: 'OFFLINE',
    });
    expect(status.inAppUserIds).toEqual([aliceId]);
    const worker = notificationDelivery({
      repo: t.services.repos.notifications,
      channels: [webexChannel(t.services.webex)],
      clock: t.clock,
    });
    expect(await worker.tick()).toEqual({ sent: 1, failed: 0 });
    expect(webex.messages.slice(before)).toEqual([
      {
        roomId: 'room-ops',
        markdown: expect.stringMatching(/^\*\*House\*\* \(02-4D-50-00-00-01\) NILM: ON Kettle L2, 42\.5 Wh/),
        auth: `Bearer ${webex.token}`,
      },
    ]);
    expect(await worker.tick()).toEqual({ sent: 0, failed: 0 });
    const latest = await call(t.app, 'POST', '/api/read/notifications', { device_token: tok(HOUSE) }, alice);
    expect(latest.json().data.map((n: { type: string }) => n.type)).toEqual(['STATUS', 'NILM']);
  });

  it('retries a failing space with backoff until it takes the message', async () => {
    const before = webex.messages.length;
    webex.failNext(2);
    await t.services.notifications.record(houseId, HOUSE, 'NILM', {
      timestamp: unixMs(t.clock.nowMs()),
      event: 'OFF',
      name: 'Oven',
    });
    const worker = notificationDelivery({
      repo: t.services.repos.notifications,
      channels: [webexChannel(t.services.webex)],
      clock: t.clock,
    });
    expect(await worker.tick()).toEqual({ sent: 0, failed: 1 });
    expect(await worker.tick()).toEqual({ sent: 0, failed: 0 });
    t.clock.advance(retryDelayMs(1));
    expect(await worker.tick()).toEqual({ sent: 0, failed: 1 });
    t.clock.advance(retryDelayMs(2));
    expect(await worker.tick()).toEqual({ sent: 1, failed: 0 });
    expect(webex.messages.length).toBe(before + 1);
    expect(MAX_ATTEMPTS).toBeGreaterThan(2);
  });

  it('deletes a pair only of this user and device', async () => {
    const list = (await pairCall('POST', { device_token: tok(HOUSE) }, true)).json().data as { ID: number }[];
    expect((await pairCall('DELETE', { device_token: tok(WORKSHOP), ID: list[0]!.ID })).json().code).toBe(
      605,
    );
    expect((await pairCall('DELETE', { device_token: tok(HOUSE), ID: list[0]!.ID })).json()).toEqual({
      status: 'OK',
    });
    expect((await pairCall('POST', { device_token: tok(HOUSE) }, true)).json().data).toHaveLength(
      list.length - 1,
    );
  });
});
