import { unixMs, type LiveFrame } from '@meterportal/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AddressInfo } from 'node:net';
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
import { SESSION_COOKIE } from '../http/session';

/** The hub forwards frames without reading them, so a frame here carries only what a test checks. */
const frame = (f: { ts: number } & Record<string, unknown>) => f as unknown as LiveFrame;

const M1 = '02-4D-50-00-00-01';
const M2 = '02-4D-50-00-00-02';

interface Probe {
  ws: WebSocket;
  messages: Record<string, unknown>[];
  closed: Promise<number>;
  next(pred?: (m: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  send(m: object): void;
}

describe.each(DIALECTS)('live hub on $name', (dialect) => {
  let t: TestApp;
  let url: string;
  let alice: Client;
  let aliceId: number;
  let d2: number;

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { LIVE_RECHECK_MS: '200' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
    aliceId = await addUser(t.services, 'alice', 'alice-secret');
    const bobId = await addUser(t.services, 'bob', 'bob-secret');
    await assign(t.services, aliceId, await addDevice(t.services, M1, 3, 'Analyzer'), true);
    d2 = await addDevice(t.services, M2, 4, 'Workshop');
    await assign(t.services, aliceId, d2, false, 3600);
    await assign(t.services, bobId, d2, true);
    alice = await quickSession(t.services, aliceId);
  });
  afterAll(() => t.close());

  function open(cookie: string | null, origin?: string): Promise<Probe> {
    const headers: Record<string, string> = {};
    if (cookie) headers.cookie = `${SESSION_COOKIE}=${cookie}`;
    if (origin) headers.origin = origin;
    const ws = new WebSocket(url, { headers });
    const messages: Record<string, unknown>[] = [];
    const waiters: (() => void)[] = [];
    ws.on('message', (raw: Buffer) => {
      messages.push(JSON.parse(raw.toString()) as Record<string, unknown>);
      waiters.splice(0).forEach((w) => w());
    });
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    let read = 0;
    const probe: Probe = {
      ws,
      messages,
      closed,
      send: (m) => ws.send(JSON.stringify(m)),
      async next(pred = () => true, timeoutMs = 3000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          while (read < messages.length) {
            const m = messages[read++]!;
            if (pred(m)) return m;
          }
          if (Date.now() > deadline) throw new Error(`no matching message; got ${JSON.stringify(messages)}`);
          await new Promise<void>((r) => {
            waiters.push(r);
            setTimeout(r, 50);
          });
        }
      },
    };
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(probe));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }
  const tokenOf = (mac: string) => alice.devices.find((d) => d.mac === mac)!.token;

  it('refuses a socket without a session with 714', async () => {
    const p = await open(null);
    expect(await p.next()).toMatchObject({ status: 'ERROR', code: 714 });
    expect(await p.closed).toBe(1008);
  });

  it('refuses a handshake from another site', async () => {
    await expect(open(alice.cookie, 'http://evil.example')).rejects.toThrow(/403/);
    const ok = await open(alice.cookie, url.replace('ws://', 'http://').replace('/ws', ''));
    ok.ws.close();
  });

  it('sends the state of every assigned device, then pushes state changes', async () => {
    const p = await open(alice.cookie);
    p.send({ userToken: alice.token, state: true });
    const first = [await p.next(), await p.next()];
    expect(first.map((m) => m.mac).sort()).toEqual([M1, M2]);
    expect(first[0]).toMatchObject({
      status: 'OK',
      code: 200,
      topic: 'State',
      data: { user: 'alice', status: 'OFFLINE' },
    });
    t.services.live.bus.publish(M1, {
      kind: 'state',
      state: { status: 'ONLINE', fw: '2.1.0', connection: 'BT_MQTT', device: 'PA-3' },
    });
    expect(await p.next()).toEqual({
      status: 'OK',
      code: 200,
      topic: 'State',
      mac: M1,
      data: { user: 'alice', status: 'ONLINE', fw: '2.1.0', connection: 'BT_MQTT', device: 'PA-3' },
    });
    p.ws.close();
  });

  it('streams data of a subscribed device only, until unsubscribed', async () => {
    const p = await open(alice.cookie);
    p.send({ deviceToken: tokenOf(M1), data: true });
    await new Promise((r) => setTimeout(r, 100));
    t.services.live.bus.publish(M2, { kind: 'data', topic: 'Data', payload: frame({ ts: 1, other: true }) });
    t.services.live.bus.publish(M1, { kind: 'data', topic: 'Data', payload: frame({ ts: 2 }) });
    expect(await p.next()).toEqual({ status: 'OK', code: 200, topic: 'Data', mac: M1, data: { ts: 2 } });
    t.services.live.bus.publish(M1, {
      kind: 'data',
      topic: 'Upgrade',
      payload: { id: 'u1', fw: '2.0.0', state: 'UPGRADING', progress: 40 },
    });
    expect(await p.next()).toMatchObject({ topic: 'Upgrade', mac: M1 });
    p.send({ deviceToken: tokenOf(M1), data: false });
    await new Promise((r) => setTimeout(r, 100));
    t.services.live.bus.publish(M1, { kind: 'data', topic: 'Data', payload: frame({ ts: 3 }) });
    await new Promise((r) => setTimeout(r, 100));
    expect(p.messages.filter((m) => m.topic === 'Data')).toHaveLength(1);
    p.ws.close();
  });

  it('pushes notifications only to users who routed them to the portal', async () => {
    const p = await open(alice.cookie);
    p.send({ deviceToken: tokenOf(M1), notification: true });
    await new Promise((r) => setTimeout(r, 100));
    const entry = {
      id: 7,
      type: 'STATUS' as const,
      mac: M1,
      data: { timestamp: unixMs(1), message: 'OFFLINE' },
    };
    t.services.live.bus.publish(M1, { kind: 'notification', entry, inAppUserIds: [999] });
    t.services.live.bus.publish(M1, {
      kind: 'notification',
      entry: { ...entry, id: 8 },
      inAppUserIds: [aliceId],
    });
    expect(await p.next()).toEqual({
      status: 'OK',
      code: 200,
      topic: 'Notification',
      mac: M1,
      data: { ...entry, id: 8 },
    });
    p.ws.close();
  });

  it.each([
    [
      'another user’s device token',
      () => ({ deviceToken: 'MDItNEQtNTAtMDAtMDAtMDk.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA|1', data: true }),
      716,
    ],
    ['a token that is not this session', () => ({ userToken: 'x'.repeat(43), state: true }), 714],
    ['a message of unknown shape', () => ({ hello: 'world' }), 722],
  ])('answers %s with its failure code and closes', async (_what, msg, code) => {
    const p = await open(alice.cookie);
    p.send(msg());
    expect(await p.next()).toMatchObject({ status: 'ERROR', code });
    expect(await p.closed).toBe(1008);
  });

  it('cuts a stream off within the recheck interval when the assignment is removed', async () => {
    const p = await open(alice.cookie);
    p.send({ deviceToken: tokenOf(M2), data: true });
    await new Promise((r) => setTimeout(r, 100));
    t.services.live.hub.start();
    await t.services.repos.devices.unassign(aliceId, d2);
    const started = Date.now();
    expect(await p.next((m) => m.status === 'ERROR', 5000)).toMatchObject({ code: 720 });
    expect(Date.now() - started).toBeLessThan(5000);
    await p.closed;
  });

  it('holds 1,000 sockets at once and delivers one frame to each', async () => {
    const probes: Probe[] = [];
    for (let i = 0; i < 1000; i += 50) {
      probes.push(...(await Promise.all(Array.from({ length: 50 }, () => open(alice.cookie)))));
    }
    // Each socket's messages are handled in order, so its State answer means its data subscription is in.
    for (const p of probes) {
      p.send({ deviceToken: tokenOf(M1), data: true });
      p.send({ userToken: alice.token, state: true });
    }
    await Promise.all(probes.map((p) => p.next((m) => m.topic === 'State', 20_000)));
    expect(t.services.live.hub.size).toBeGreaterThanOrEqual(1000);
    t.services.live.bus.publish(M1, { kind: 'data', topic: 'Data', payload: frame({ ts: 42 }) });
    const got = await Promise.all(probes.map((p) => p.next((m) => m.topic === 'Data', 20_000)));
    expect(got.every((m) => (m.data as { ts: number }).ts === 42)).toBe(true);
    for (const p of probes) p.ws.close();
  }, 240_000);
});
