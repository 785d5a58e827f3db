import type { LiveDataMessage, NotificationEntry } from '@meterportal/protocol';

/** Runtime state of a device as state messages report it. */
export interface DeviceRuntimeState {
  status: string;
  fw: string | null;
  connection: string | null;
  device: string | null;
}

/** A device stream event: the topic and data of the message browsers receive. */
export type DataEvent = {
  [T in LiveDataMessage['topic']]: {
    kind: 'data';
    topic: T;
    payload: Extract<LiveDataMessage, { topic: T }>['data'];
  };
}[LiveDataMessage['topic']];

/** Something that happened on one device, for the browsers watching it. */
export type LiveEvent =
  | DataEvent
  | { kind: 'state'; state: DeviceRuntimeState }
  | { kind: 'notification'; entry: NotificationEntry; inAppUserIds: number[] };

/** Per-device publish/subscribe between the device side and the websocket hub. */
export interface LiveBus {
  publish(mac: string, event: LiveEvent): void;
  /** Listens to one device; the returned function stops listening. */
  subscribe(mac: string, listener: (event: LiveEvent) => void): () => void;
  close(): Promise<void>;
}

/** The bus inside one process, for the single-process installation with the embedded broker. */
export function localLiveBus(): LiveBus {
  const listeners = new Map<string, Set<(e: LiveEvent) => void>>();
  return {
    publish(mac, event) {
      for (const l of listeners.get(mac) ?? []) l(event);
    },
    subscribe(mac, listener) {
      let set = listeners.get(mac);
      if (!set) listeners.set(mac, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(mac);
      };
    },
    async close() {
      listeners.clear();
    },
  };
}
