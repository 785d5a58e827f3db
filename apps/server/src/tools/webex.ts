import { z } from 'zod';

/** A Webex space the bot is a member of. */
export interface WebexSpace {
  id: string;
  title: string;
}

/** The part of the Webex messages REST API the portal uses. */
export interface WebexClient {
  readonly configured: boolean;
  listSpaces(): Promise<WebexSpace[]>;
  postMessage(roomId: string, markdown: string): Promise<void>;
}

const Rooms = z.object({ items: z.array(z.object({ id: z.string(), title: z.string() })) });

/** Talks to Webex (or any server with its API) with a bot token. */
export function webexClient(opts: {
  baseUrl: string;
  token: string | undefined;
  timeoutMs?: number;
}): WebexClient {
  const base = opts.baseUrl.replace(/\/$/, '');
  const headers = { authorization: `Bearer ${opts.token ?? ''}`, 'content-type': 'application/json' };
  const timeout = opts.timeoutMs ?? 10_000;
  return {
    configured: Boolean(opts.token),
    async listSpaces() {
      const res = await fetch(`${base}/rooms?max=100`, { headers, signal: AbortSignal.timeout(timeout) });
      if (!res.ok) throw new Error(`Webex rooms: HTTP ${res.status}`);
      return Rooms.parse(await res.json()).items.map((r) => ({ id: r.id, title: r.title }));
    },
    async postMessage(roomId, markdown) {
      const res = await fetch(`${base}/messages`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ roomId, markdown }),
        signal: AbortSignal.timeout(timeout),
      });
      if (!res.ok) throw new Error(`Webex messages: HTTP ${res.status}`);
    },
  };
}
