/**
 * Browser-stored session items with the lifetimes of seed 000 section 9. Each item is kept in
 * localStorage as { value, expiresAtMs } so that it survives a reload but not its lifetime.
 */

const HOUR_MS = 60 * 60 * 1000;

/** Lifetimes of the stored session items. */
export const STORAGE_LIFETIME_MS = {
  userToken: HOUR_MS,
  deviceList: HOUR_MS,
  renewal: 8 * HOUR_MS,
  lastRoute: 48 * HOUR_MS,
  selectedDevice: 48 * HOUR_MS,
} as const;

/** Names of the stored session items. */
export type StorageItem = keyof typeof STORAGE_LIFETIME_MS;

interface Envelope<T> {
  value: T;
  expiresAtMs: number;
}

/** The subset of the Web Storage API we need; tests pass a Map-backed fake. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const PREFIX = 'mp.';

/** Creates a typed store over a key-value store and a clock. */
export function createSessionStore(backend: KeyValueStore, now: () => number = Date.now) {
  return {
    get<T>(item: StorageItem): T | undefined {
      const raw = backend.getItem(PREFIX + item);
      if (raw === null) return undefined;
      try {
        const env = JSON.parse(raw) as Envelope<T>;
        if (typeof env.expiresAtMs !== 'number' || env.expiresAtMs <= now()) {
          backend.removeItem(PREFIX + item);
          return undefined;
        }
        return env.value;
      } catch {
        backend.removeItem(PREFIX + item);
        return undefined;
      }
    },
    set<T>(item: StorageItem, value: T, lifetimeMs: number = STORAGE_LIFETIME_MS[item]): void {
      const env: Envelope<T> = { value, expiresAtMs: now() + lifetimeMs };
      try {
        backend.setItem(PREFIX + item, JSON.stringify(env));
      } catch {
        // Storage full or disabled (private mode): the app keeps working from memory.
      }
    },
    remove(item: StorageItem): void {
      backend.removeItem(PREFIX + item);
    },
  };
}

/** The browser's local storage, or a memory of this page's life where storage is refused. */
export function browserBackend(): KeyValueStore {
  try {
    const probe = '__mp_probe__';
    window.localStorage.setItem(probe, '1');
    window.localStorage.removeItem(probe);
    return window.localStorage;
  } catch {
    const mem = new Map<string, string>();
    return {
      getItem: (k) => mem.get(k) ?? null,
      setItem: (k, v) => void mem.set(k, v),
      removeItem: (k) => void mem.delete(k),
    };
  }
}

/** The application's session store. */
export const sessionStore = createSessionStore(browserBackend());
