import { browserBackend, type KeyValueStore } from '../../api/storage';
import { sha256HexSync } from '../auth/sha256';

/**
 * The device each person used last, kept in this browser across sign-out so that their next
 * sign-in opens it again. Sign-out forgets the shared selection (the next person starts afresh);
 * this memory is filed under a digest of the login, so another person's sign-in neither finds
 * it nor learns from the key whose it is.
 */

/** How long a remembered device is offered after its last use. */
export const LAST_DEVICE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

const PREFIX = 'mp.lastDevice.';

/** The part of the Web Storage API this memory needs; tests pass a Map-backed store. */
export type LastDeviceBackend = KeyValueStore;

interface Entry {
  mac: string;
  expiresAtMs: number;
}

const keyOf = (login: string) => PREFIX + sha256HexSync(login.trim().toLowerCase());

export function createLastDeviceMemory(backend: LastDeviceBackend, now: () => number = Date.now) {
  return {
    /** Notes the device a person has just used. */
    remember(login: string, mac: string): void {
      const entry: Entry = { mac, expiresAtMs: now() + LAST_DEVICE_LIFETIME_MS };
      try {
        backend.setItem(keyOf(login), JSON.stringify(entry));
      } catch {
        // Storage full or disabled: the first device with data is chosen instead.
      }
    },
    /** The device the person used last, while it is remembered. */
    recall(login: string): string | null {
      const raw = backend.getItem(keyOf(login));
      if (raw === null) return null;
      try {
        const e = JSON.parse(raw) as Partial<Entry>;
        if (typeof e.mac === 'string' && typeof e.expiresAtMs === 'number' && e.expiresAtMs > now())
          return e.mac;
      } catch {
        // Unreadable: dropped below.
      }
      backend.removeItem(keyOf(login));
      return null;
    },
  };
}

/** The browser's memory of each person's last device. */
export const lastDevices = createLastDeviceMemory(browserBackend());
