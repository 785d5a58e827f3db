// The hub's own failures reach the installation's log: a socket message that fails unexpectedly is
// logged with its error, and the socket is told and closed.
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ErrorCode } from '@meterportal/protocol';
import { DIALECTS, addUser, createTestApp, quickSession, type Client, type TestApp } from '../test/harness';
import { SESSION_COOKIE } from '../http/session';
import { until } from '../telemetry/testing';

describe.each(DIALECTS)('live hub log on $name', (dialect) => {
  let t: TestApp;
  let url: string;
  let alice: Client;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const logger = pino(
      { level: 'info' },
      { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) },
    );
    t = await createTestApp(dialect, { logger });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
    alice = await quickSession(t.services, await addUser(t.services, 'alice', 'alice-secret'));
  });
  afterAll(() => t.close());

  it('logs a message that failed with its error, and answers 722 before closing', async () => {
    const ws = new WebSocket(url, { headers: { cookie: `${SESSION_COOKIE}=${alice.cookie}` } });
    const messages: Record<string, unknown>[] = [];
    ws.on('message', (raw: Buffer) => messages.push(JSON.parse(raw.toString()) as Record<string, unknown>));
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    await new Promise((r) => ws.once('open', r));
    // The session check on connect is done once the hub counts the socket.
    await until(() => t.services.live.hub.size === 1);
    // Listing the user's devices now fails inside the hub: the table it reads is gone.
    await sql`DROP TABLE assignments`.execute(t.services.database.db);
    ws.send(JSON.stringify({ userToken: alice.cookie, state: true }));
    expect(await closed).toBe(1008);
    expect(messages).toContainEqual({
      status: 'ERROR',
      code: ErrorCode.WsBadMessage,
      message: 'Unexpected error',
    });
    const logged = lines.find((l) => l.msg === 'websocket message failed');
    expect(logged).toMatchObject({
      level: 50,
      err: { message: expect.stringContaining('assignments') as unknown },
    });
  });
});
