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

export interface NotificationEntry {
  id: string | number;
  /** STATUS, ANOMALY, NILM or DISCONNECTOR. */
  type: string;
  data: {
    /** When it happened, unix milliseconds (the server converts device seconds once). */
    timestamp?: number;
    event?: string;
    message?: string;
    name?: string;
    phase?: string;
    energy_consumption_wh?: number;
  };
}

/** A pushed message as the hub sends it. */
export interface LiveMessage {
  status?: string;
  code?: number;
  topic?: string;
  mac?: string;
  data?: unknown;
  [k: string]: unknown;
}

export interface LiveState {
  connected: boolean;
  /** True once the socket was ever open, so the first connect does not announce 'online'. */
  everConnected: boolean;
  devices: Record<string, DeviceRuntime>;
  notifications: NotificationEntry[];
  /** Latest Data, AccuTest/Data, AccuTest/State or Upgrade message. */
  latest: LiveMessage | null;
}

export const liveStore = createStore<LiveState>({
  connected: false,
  everConnected: false,
  devices: {},
  notifications: [],
  latest: null,
});

type DataListener = (msg: LiveMessage) => void;

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

function handle(msg: LiveMessage): void {
  if (msg.status === 'ERROR' && typeof msg.code === 'number' && WS_FAILURE_CODES.includes(msg.code)) {
    failed = true;
    stopLive();
    onFailure?.();
    return;
  }
  switch (msg.topic ?? '') {
    case 'State': {
      const mac = typeof msg.mac === 'string' ? msg.mac : undefined;
      if (!mac || typeof msg.data !== 'object' || msg.data === null) return;
      const rt = applyState(msg.data, userName);
      liveStore.set((s) => ({ ...s, devices: { ...s.devices, [mac]: rt } }));
      return;
    }
    case 'Notification': {
      const entry = (msg.data ?? msg) as NotificationEntry;
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
    default:
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
      handle(JSON.parse(String(ev.data)) as LiveMessage);
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
