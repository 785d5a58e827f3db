import { z } from 'zod';
import { DeviceTokenString, UserToken } from './common';
import type { AccuTestDataMessage } from './mqtt-accutest';
import type { AccuTestStateMessage, LiveFrame, UpgradeMessage } from './mqtt-messages';
import type { NotificationEntry } from './notifications';

/** What a browser sends on the websocket (seed 000 section 7). */
export const LiveClientMessage = z.union([
  z.object({ userToken: UserToken, state: z.boolean() }).strict(),
  z.object({ deviceToken: DeviceTokenString, data: z.boolean() }).strict(),
  z.object({ deviceToken: DeviceTokenString, notification: z.boolean() }).strict(),
]);
/** What a browser sends on the websocket. */
export type LiveClientMessage = z.infer<typeof LiveClientMessage>;

/** Topics of pushed messages. */
export const LIVE_TOPICS = [
  'State',
  'Data',
  'Notification',
  'AccuTest/Data',
  'AccuTest/State',
  'Upgrade',
] as const;
/** A topic of a pushed message. */
export type LiveTopic = (typeof LIVE_TOPICS)[number];

/** A pushed message about one device; the topic says what its data holds. */
export interface LiveTopicMessage<T extends LiveTopic, D> {
  status: 'OK';
  code: 200;
  topic: T;
  mac: string;
  data: D;
}

/** A pushed device stream message (subscribed with {deviceToken, data: true}). */
export type LiveDataMessage =
  | LiveTopicMessage<'Data', LiveFrame>
  | LiveTopicMessage<'AccuTest/Data', AccuTestDataMessage>
  | LiveTopicMessage<'AccuTest/State', AccuTestStateMessage>
  | LiveTopicMessage<'Upgrade', UpgradeMessage>;

/** Topics of the device stream. */
export type LiveDataTopic = LiveDataMessage['topic'];

/** A websocket failure: one of the websocket codes; the socket is closed after it. */
export interface LiveFailure {
  status: 'ERROR';
  code: number;
  message: string;
}

/** Everything the hub sends, told apart by status and topic. */
export type LiveServerMessage =
  | LiveTopicMessage<'State', LiveDeviceState>
  | LiveTopicMessage<'Notification', NotificationEntry>
  | LiveDataMessage
  | LiveFailure;
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
