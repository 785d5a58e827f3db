import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  call,
  createTestApp,
  quickSession,
  snapshot,
  type Client,
  type TestApp,
} from '../test/harness';

const HOUSE = '02-4D-50-00-00-01';
const SWITCH = '02-4D-50-00-00-02';
const OLGA = '02-4D-50-00-00-09';
const T0 = 1_780_000_000_000;

interface Page {
  items: { id: number; type: string; mac: string; at_ms: number; read: boolean; data: { event?: string } }[];
  next_before_id: number | null;
}

describe.each(DIALECTS)('notification history on $name', (dialect) => {
  let t: TestApp;
  let alice: Client;
  let olga: Client;
  /** Ids of alice's notifications, oldest first: 6 STATUS on the house, 4 DISCONNECTOR on the switch. */
  const mine: number[] = [];
  let olgaOwn: number;
  const tok = (mac: string) => alice.devices.find((d) => d.mac === mac)!.token;
  const history = async (body: object, who: Client = alice) => {
    const r = await call(
      t.app,
      'POST',
      '/api/read/notifications/history',
      { user_token: who.token, ...body },
      who,
    );
    return r;
  };
  const page = async (body: object): Promise<Page> => {
    const r = await history(body);
    expect(r.statusCode, r.body).toBe(200);
    return r.json<{ data: Page }>().data;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const aliceId = await addUser(t.services, 'alice', 'alice-secret');
    const olgaId = await addUser(t.services, 'olga', 'olga-secret');
    const house = await addDevice(t.services, HOUSE, 1, 'House');
    const sw = await addDevice(t.services, SWITCH, 2, 'Switch');
    const olgas = await addDevice(t.services, OLGA, 1, 'Olga house');
    await assign(t.services, aliceId, house, true);
    await assign(t.services, aliceId, sw, true);
    await assign(t.services, olgaId, olgas, true);
    const repo = t.services.repos.notifications;
    // One event a minute, the two devices interleaved, and one of Olga's device in between.
    for (let i = 0; i < 10; i += 1) {
      const onSwitch = i % 5 === 4 || i === 1 || i === 7;
      const atMs = T0 + i * 60_000;
      mine.push(
        await repo.insertNotification(
          onSwitch ? sw : house,
          onSwitch ? 'DISCONNECTOR' : 'STATUS',
          JSON.stringify({ timestamp: atMs, event: onSwitch ? 'OPEN' : i % 2 ? 'ONLINE' : 'OFFLINE' }),
          atMs,
        ),
      );
      if (i === 5)
        olgaOwn = await repo.insertNotification(
          olgas,
          'STATUS',
          JSON.stringify({ timestamp: atMs, event: 'ONLINE' }),
          atMs,
        );
    }
    alice = await quickSession(t.services, aliceId);
    olga = await quickSession(t.services, olgaId);
  });
  afterAll(() => t.close());

  it("pages through every notification of the user's devices, newest first, and no other user's", async () => {
    const first = await page({ limit: 4 });
    expect(first.items.map((n) => n.id)).toEqual(mine.slice(-4).reverse());
    expect(first.next_before_id).toBe(mine[6]);
    const second = await page({ limit: 4, before_id: first.next_before_id });
    expect(second.items.map((n) => n.id)).toEqual(mine.slice(2, 6).reverse());
    const third = await page({ limit: 4, before_id: second.next_before_id });
    expect(third.items.map((n) => n.id)).toEqual(mine.slice(0, 2).reverse());
    expect(third.next_before_id).toBeNull();
    expect([...first.items, ...second.items, ...third.items].map((n) => n.id)).not.toContain(olgaOwn);
    expect(first.items[0]).toEqual({
      id: mine[9],
      type: 'DISCONNECTOR',
      mac: SWITCH,
      at_ms: T0 + 9 * 60_000,
      read: false,
      data: { timestamp: T0 + 9 * 60_000, event: 'OPEN' },
    });
  });

  it('filters by device', async () => {
    const p = await page({ device_token: tok(SWITCH), limit: 100 });
    expect(p.items.map((n) => n.mac)).toEqual([SWITCH, SWITCH, SWITCH, SWITCH]);
    expect(p.next_before_id).toBeNull();
  });

  it('filters by type', async () => {
    const status = await page({ types: ['STATUS'], limit: 100 });
    expect(status.items).toHaveLength(6);
    expect(new Set(status.items.map((n) => n.type))).toEqual(new Set(['STATUS']));
    const both = await page({ types: ['STATUS', 'DISCONNECTOR'], limit: 100 });
    expect(both.items).toHaveLength(10);
    expect((await page({ types: ['NILM'] })).items).toEqual([]);
  });

  it('filters by time, both bounds inclusive', async () => {
    const p = await page({ from_ms: T0 + 2 * 60_000, to_ms: T0 + 4 * 60_000, limit: 100 });
    expect(p.items.map((n) => n.at_ms)).toEqual([T0 + 4 * 60_000, T0 + 3 * 60_000, T0 + 2 * 60_000]);
    expect((await page({ from_ms: T0 + 9 * 60_000 })).items.map((n) => n.id)).toEqual([mine[9]]);
    expect((await page({ to_ms: T0 })).items.map((n) => n.id)).toEqual([mine[0]]);
  });

  it('marks notifications read for this user only and filters by read state', async () => {
    const r = await call(
      t.app,
      'POST',
      '/api/write/notifications/read',
      { user_token: alice.token, ids: [mine[0], mine[3], mine[3]] },
      alice,
    );
    expect(r.json()).toEqual({ status: 'OK' });
    const read = await page({ read: 'READ', limit: 100 });
    expect(read.items.map((n) => n.id)).toEqual([mine[3], mine[0]]);
    expect(read.items.every((n) => n.read)).toBe(true);
    const unread = await page({ read: 'UNREAD', limit: 100 });
    expect(unread.items).toHaveLength(8);
    expect(unread.items.some((n) => n.read)).toBe(false);
    // Marking again changes nothing and is no error.
    const again = await call(
      t.app,
      'POST',
      '/api/write/notifications/read',
      { user_token: alice.token, ids: [mine[0]] },
      alice,
    );
    expect(again.json()).toEqual({ status: 'OK' });
    expect((await page({ read: 'READ', limit: 100 })).items).toHaveLength(2);
  });

  it('combines filters with the cursor', async () => {
    const p = await page({ device_token: tok(HOUSE), read: 'UNREAD', limit: 2 });
    expect(p.items.map((n) => n.id)).toEqual([mine[8], mine[6]]);
    const next = await page({
      device_token: tok(HOUSE),
      read: 'UNREAD',
      limit: 2,
      before_id: p.next_before_id,
    });
    expect(next.items.map((n) => n.id)).toEqual([mine[5], mine[2]]);
  });

  it("answers a device the user may not see as a missing device, and marks none of another user's read", async () => {
    const before = await snapshot(t.services);
    const foreign = await history({ device_token: olga.devices[0]!.token });
    expect(foreign.json()).toMatchObject({ status: 'ERROR', code: 605 });
    const mixed = await call(
      t.app,
      'POST',
      '/api/write/notifications/read',
      { user_token: alice.token, ids: [mine[9], olgaOwn] },
      alice,
    );
    expect(mixed.json()).toMatchObject({ status: 'ERROR', code: 605 });
    const unknown = await call(
      t.app,
      'POST',
      '/api/write/notifications/read',
      { user_token: alice.token, ids: [999_999] },
      alice,
    );
    expect(unknown.json()).toMatchObject({ status: 'ERROR', code: 605 });
    expect(await snapshot(t.services)).toEqual(before);
    const hers = await history({ limit: 100 }, olga);
    expect(hers.json<{ data: Page }>().data.items.map((n) => n.id)).toEqual([olgaOwn]);
  });

  it('refuses bad filters with 600 and a message', async () => {
    for (const body of [
      { types: [] },
      { types: ['ALARM'] },
      { from_ms: 10, to_ms: 5 },
      { limit: 101 },
      { before_id: 0 },
      { read: 'MAYBE' },
    ]) {
      const r = await history(body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json()).toMatchObject({ status: 'ERROR', code: 600, message: expect.any(String) });
    }
  });
});
