// The authorization matrix of the websocket: subscribing to a device's live data and to its
// notifications, for every kind of caller. A denied subscription delivers nothing and answers
// exactly what a subscription to a device that does not exist answers.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ErrorCode, unixMs, type LiveFrame } from '@meterportal/protocol';
import { createMeterModel, createRegisters, meterProfile } from '@meterportal/simulator';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  createTestApp,
  quickSession,
  type Client,
  type TestApp,
} from '../test/harness';
import { SESSION_COOKIE } from './session';

/** A live frame of a simulated meter, as a device would publish it. */
function probeFrame(): LiveFrame {
  const ts = Math.floor(Date.now() / 1000);
  const regs = createRegisters(1);
  const sample = createMeterModel(meterProfile(1, 'probe')).sample(ts);
  regs.integrate(sample, 1);
  return { ts, ...sample, ...regs.read() };
}

const MAC = '02-4D-50-00-00-31';
const GONE = '02-4D-50-00-00-39';
const ACTORS = ['anonymous', 'other', 'expired', 'manager', 'assigned'] as const;
type Actor = (typeof ACTORS)[number];
const KINDS = ['data', 'notification'] as const;

/** What a socket saw: its messages, and the code the server closed it with (null: left open). */
interface Seen {
  messages: Record<string, unknown>[];
  closeCode: number | null;
}

describe.each(DIALECTS)('websocket authorization matrix on $name', (dialect) => {
  let t: TestApp;
  let url: string;
  let clients: Record<Exclude<Actor, 'anonymous'>, Client>;
  let userIds: number[];
  /** The device token each actor presents: its own where it has one, else the assigned user's. */
  let tokenOf: (a: Actor) => string;
  let goneToken: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
    const s = t.services;
    const ids = {
      assigned: await addUser(s, 'alice', 'alice-secret'),
      other: await addUser(s, 'olga', 'olga-secret'),
      expired: await addUser(s, 'erin', 'erin-secret'),
      manager: await addUser(s, 'boss', 'boss-secret', 'USER_MANAGER'),
    };
    userIds = Object.values(ids);
    const device = await addDevice(s, MAC, 4, 'Shared');
    const gone = await addDevice(s, GONE, 4, 'Removed');
    await assign(s, ids.assigned, device, true);
    await assign(s, ids.assigned, gone, true);
    await assign(s, ids.other, await addDevice(s, '02-4D-50-00-00-32', 4, 'Olga'), true);
    await assign(s, ids.expired, device, false, 60);
    clients = {
      assigned: await quickSession(s, ids.assigned),
      other: await quickSession(s, ids.other),
      expired: await quickSession(s, ids.expired),
      manager: await quickSession(s, ids.manager),
    };
    const own = (c: Client, mac: string) => c.devices.find((d) => d.mac === mac)!.token;
    const expiredToken = own(clients.expired, MAC);
    tokenOf = (a) => (a === 'expired' ? expiredToken : own(clients.assigned, MAC));
    // A token once valid whose device has since been removed: the device does not exist.
    goneToken = own(clients.assigned, GONE);
    await s.database.db.deleteFrom('devices').where('mac', '=', GONE).execute();
    t.clock.advance(61_000);
  });
  afterAll(() => t.close());

  /** Opens a socket as the actor, subscribes with the token and watches what comes for a while. */
  async function subscribe(
    actor: Actor,
    kind: (typeof KINDS)[number],
    token: string,
    cookieOf: Actor = actor,
  ): Promise<Seen> {
    const cookie = cookieOf === 'anonymous' ? null : clients[cookieOf].cookie;
    const ws = new WebSocket(url, cookie ? { headers: { cookie: `${SESSION_COOKIE}=${cookie}` } } : {});
    const seen: Seen = { messages: [], closeCode: null };
    ws.on('message', (raw: Buffer) =>
      seen.messages.push(JSON.parse(raw.toString()) as Record<string, unknown>),
    );
    const closed = new Promise<void>((r) =>
      ws.on('close', (code) => {
        seen.closeCode = code;
        r();
      }),
    );
    await new Promise<void>((r) => ws.once('open', () => r()));
    ws.send(JSON.stringify({ deviceToken: token, [kind]: true }));
    // Publish until something arrives or the socket is closed, for at most two seconds.
    const deadline = Date.now() + 2000;
    const delivered = () => seen.messages.some((m) => m.topic === 'Data' || m.topic === 'Notification');
    while (Date.now() < deadline && seen.closeCode === null && !delivered()) {
      t.services.live.bus.publish(MAC, { kind: 'data', topic: 'Data', payload: probeFrame() });
      t.services.live.bus.publish(MAC, {
        kind: 'notification',
        entry: {
          id: 1,
          type: 'STATUS',
          mac: MAC,
          data: { timestamp: unixMs(t.clock.nowMs()), event: 'ONLINE' },
        },
        inAppUserIds: userIds,
      });
      await new Promise((r) => setTimeout(r, 50));
    }
    if (seen.closeCode !== null) return seen;
    ws.close();
    await closed;
    return { messages: seen.messages, closeCode: null };
  }

  const topicOf = { data: 'Data', notification: 'Notification' } as const;

  describe.each(KINDS)('subscribing to %s', (kind) => {
    it.each(ACTORS)('%s', async (actor) => {
      const seen = await subscribe(actor, kind, tokenOf(actor));
      const streamed = seen.messages.filter((m) => m.topic === 'Data' || m.topic === 'Notification');
      if (actor === 'assigned') {
        expect(streamed.length).toBeGreaterThan(0);
        expect(streamed.every((m) => m.topic === topicOf[kind] && m.mac === MAC)).toBe(true);
        return;
      }
      expect(streamed).toEqual([]);
      if (actor === 'anonymous') {
        expect(seen.messages).toEqual([
          { status: 'ERROR', code: ErrorCode.WsSessionInvalid, message: 'Session invalid' },
        ]);
        expect(seen.closeCode).toBe(1008);
        return;
      }
      // Denied looks exactly like a device that does not exist.
      const absent = await subscribe(actor, kind, goneToken);
      expect(absent.messages).toEqual([
        { status: 'ERROR', code: ErrorCode.WsDeviceDenied, message: 'Device not available' },
      ]);
      expect(absent.closeCode).toBe(1008);
      expect(seen).toEqual(absent);
    });
  });
});
