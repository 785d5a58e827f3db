import { z } from 'zod';
import { DeviceTokenString, UserToken } from './common';

/** What a browser sends on the websocket (seed 000 section 7). */
export const LiveClientMessage = z.union([
  z.object({ userToken: UserToken, state: z.boolean() }).strict(),
  z.object({ deviceToken: DeviceTokenString, data: z.boolean() }).strict(),
  z.object({ deviceToken: DeviceTokenString, notification: z.boolean() }).strict(),
]);
/** What a browser sends on the websocket. */
export type LiveClientMessage = z.infer<typeof LiveClientMessage>;

/** Topics of pushed messages. */
export const LIVE_TOPICS = ['State', 'Data', 'Notification', 'AccuTest/Data', 'AccuTest/State', 'Upgrade'] as const;
/** A topic of a pushed message. */
export type LiveTopic = (typeof LIVE_TOPICS)[number];

/** A pushed message; failures carry status 'ERROR' and one of the websocket codes. */
export interface LiveServerMessage {
  status: 'OK' | 'ERROR';
  code: number;
  topic?: LiveTopic;
  mac?: string;
  data?: unknown;
  message?: string;
}

/** Websocket state of a device: its runtime fields as the shell shows them. */
export interface LiveDeviceState {
  /** Login of the session the message is for. */
  user: string;
  /** ONLINE, OFFLINE or DATABASE_UPDATE. */
  status: string;
  fw: string | null;
  connection: string | null;
  device: string | null;
}
