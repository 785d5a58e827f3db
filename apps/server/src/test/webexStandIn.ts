import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local HTTP server answering like the Webex REST API and recording what it receives. */
export interface WebexStandIn {
  baseUrl: string;
  token: string;
  messages: { roomId: string; markdown: string; auth: string | undefined }[];
  /** Answer the next n message posts with HTTP 503. */
  failNext(n: number): void;
  close(): Promise<void>;
}

/** Starts the stand-in with the given spaces. */
export async function startWebexStandIn(rooms: { id: string; title: string }[]): Promise<WebexStandIn> {
  const token = 'test-bot-token-123';
  const messages: WebexStandIn['messages'] = [];
  let failures = 0;
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { message: 'bad token' });
    if (req.method === 'GET' && req.url?.startsWith('/v1/rooms')) return send(200, { items: rooms });
    // What the stand-in received, for tests that run in another process than the stand-in.
    if (req.method === 'GET' && req.url === '/v1/_received') return send(200, { items: messages });
    if (req.method === 'POST' && req.url === '/v1/messages') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (failures > 0) {
          failures -= 1;
          return send(503, { message: 'try later' });
        }
        const m = JSON.parse(body) as { roomId: string; markdown: string };
        messages.push({ ...m, auth: req.headers.authorization });
        send(200, { id: `msg-${messages.length}` });
      });
      return;
    }
    send(404, { message: 'no such endpoint' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    token,
    messages,
    failNext: (n) => {
      failures = n;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
