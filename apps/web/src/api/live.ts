import {
  LIVE_TOPICS,
  type LiveDataMessage,
  type LiveServerMessage,
  type NotificationEntry,
} from '@meterportal/protocol';
import { resolveWsUrl, getConfig } from './config';
import { createStore } from '../app/store';
import {
  WS_FAILURE_CODES,
  WS_RECONNECT_MS,
  applyState,
  keepLatest,
  shouldReconnect,
  type DeviceRuntime,
} from './liveRules';

/**
 * The one websocket of the app. Components never open sockets: they read the live store and ask
 * this module for subscriptions, which it renews after every reconnect.
 */

/** A pushed notification: the hub sends the stored entry (timestamp in unix milliseconds). */
export type { NotificationEntry };

/**
 * Reads a frame as the hub's message: an object whose status is OK (with a topic and a device)
 * or ERROR (with a code). The data of each topic is the protocol's type for it; the hub built it
 * from validated device messages, so it is not checked field by field again here.
 */
export function readLiveMessage(raw: unknown): LiveServerMessage | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const m = raw as Record<string, unknown>;
  if (m.status === 'ERROR') return typeof m.code === 'number' ? (raw as LiveServerMessage) : null;
  if (m.status !== 'OK' || typeof m.mac !== 'string' || typeof m.data !== 'object' || m.data === null)
    return null;
  return (LIVE_TOPICS as readonly unknown[]).includes(m.topic) ? (raw as LiveServerMessage) : null;
}

export interface LiveState {
  connected: boolean;
  /** True once the socket was ever open, so the first connect does not announce 'online'. */
  everConnected: boolean;
  devices: Record<string, DeviceRuntime>;
  notifications: NotificationEntry[];
  /** Latest Data, AccuTest/Data, AccuTest/State or Upgrade message. */
  latest: LiveDataMessage | null;
}

export const liveStore = createStore<LiveState>({
  connected: false,
  everConnected: false,
  devices: {},
  notifications: [],
  latest: null,
});

type DataListener = (msg: LiveDataMessage) => void;

let socket: WebSocket | null = null;
let userToken: string | null = null;
let userName = '';
let attempts = 0;
let failed = false;
let left = true;
let timer: ReturnType<typeof setTimeout> | undefined;
let notificationDevice: string | null = null;
let onFailure: (() => void) | null = null;
const dataSubs = new Map<string, Set<DataListener>>();

function send(msg: object): void {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
}

function subscribeAll(): void {
  if (userToken) send({ userToken, state: true });
  if (notificationDevice) send({ deviceToken: notificationDevice, notification: true });
  for (const token of dataSubs.keys()) send({ deviceToken: token, data: true });
}

function handle(msg: LiveServerMessage): void {
  if (msg.status === 'ERROR') {
    if (!WS_FAILURE_CODES.includes(msg.code)) return;
    failed = true;
    stopLive();
    onFailure?.();
    return;
  }
  switch (msg.topic) {
    case 'State': {
      const rt = applyState(msg.data, userName);
      liveStore.set((s) => ({ ...s, devices: { ...s.devices, [msg.mac]: rt } }));
      return;
    }
    case 'Notification': {
      const entry = msg.data;
      liveStore.set((s) => ({ ...s, notifications: keepLatest(s.notifications, entry) }));
      return;
    }
    case 'Data':
    case 'AccuTest/Data':
    case 'AccuTest/State':
    case 'Upgrade':
      liveStore.set((s) => ({ ...s, latest: msg }));
      for (const listeners of dataSubs.values()) for (const l of listeners) l(msg);
      return;
  }
}

function connect(): void {
  if (!userToken) return;
  const ws = new WebSocket(resolveWsUrl(getConfig().wsUrl, window.location));
  socket = ws;
  ws.onopen = () => {
    attempts = 0;
    liveStore.set((s) => ({ ...s, connected: true, everConnected: true }));
    subscribeAll();
  };
  ws.onmessage = (ev: MessageEvent) => {
    try {
      const msg = readLiveMessage(JSON.parse(String(ev.data)));
      if (msg) handle(msg);
    } catch {
      // A frame we cannot read is skipped; the next one will do.
    }
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    liveStore.set((s) => ({ ...s, connected: false }));
    if (shouldReconnect(attempts, failed, left)) {
      attempts += 1;
      timer = setTimeout(connect, WS_RECONNECT_MS);
    }
  };
}

/** Opens the socket for a signed-in user; failureHandler runs on the session-ending codes. */
export function startLive(token: string, login: string, failureHandler: () => void): void {
  if (userToken === token && !left) return;
  stopLive();
  userToken = token;
  userName = login;
  onFailure = failureHandler;
  failed = false;
  left = false;
  attempts = 0;
  connect();
}

export function stopLive(): void {
  left = true;
  clearTimeout(timer);
  if (socket) {
    const s = socket;
    socket = null;
    if (s.readyState === WebSocket.OPEN && userToken) s.send(JSON.stringify({ userToken, state: false }));
    s.close();
  }
  liveStore.set((s) => ({ ...s, connected: false }));
}

/** Moves the notification subscription to the selected device. */
export function setNotificationDevice(deviceToken: string | null): void {
  if (deviceToken === notificationDevice) return;
  if (notificationDevice) send({ deviceToken: notificationDevice, notification: false });
  notificationDevice = deviceToken;
  if (deviceToken) send({ deviceToken, notification: true });
}

/** Subscribes a view to a device's live data; the returned function drops the subscription. */
export function subscribeData(deviceToken: string, listener: DataListener): () => void {
  let set = dataSubs.get(deviceToken);
  if (!set) {
    set = new Set();
    dataSubs.set(deviceToken, set);
    send({ deviceToken, data: true });
  }
  set.add(listener);
  return () => {
    const s = dataSubs.get(deviceToken);
    if (!s) return;
    s.delete(listener);
    if (s.size === 0) {
      dataSubs.delete(deviceToken);
      send({ deviceToken, data: false });
    }
  };
}
