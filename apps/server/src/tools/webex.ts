import { NotificationData, NotifyDestination } from '@meterportal/protocol';
import { z } from 'zod';
import type { DeliveryChannel } from './notificationDelivery';

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

/** Text of a notification as a Webex message. */
export function webexText(deviceTitle: string, mac: string, type: string, dataJson: string): string {
  const d = NotificationData.safeParse(JSON.parse(dataJson));
  const parts = d.success ? [d.data.event, d.data.name, d.data.phase, d.data.message].filter(Boolean) : [];
  const energy =
    d.success && d.data.energy_consumption_wh !== undefined
      ? `, ${d.data.energy_consumption_wh.toFixed(1)} Wh`
      : '';
  const when = d.success ? new Date(d.data.timestamp).toISOString() : '';
  return `**${deviceTitle}** (${mac}) ${type}: ${parts.join(' ') || 'event'}${energy} ${when}`.trim();
}

/** Delivers queued notifications to the Webex spaces of their pairs. */
export function webexChannel(webex: WebexClient): DeliveryChannel {
  return {
    destType: NotifyDestination.Webex,
    async send(d) {
      if (!d.webex_space) throw new Error('pair has no space');
      await webex.postMessage(d.webex_space, webexText(d.title, d.mac, d.type, d.data));
    },
  };
}
