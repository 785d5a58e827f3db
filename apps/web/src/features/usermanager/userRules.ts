import {
  DEVICE_VALIDITY_SEC,
  MAX_DEVICES_PER_USER,
  OWNER_LIFETIME_SEC,
  mixesLookalikeScripts,
} from '@meterportal/protocol';

/** Seed 001 sections 5 and 9. */
export const LOGIN_MIN = 3;
export const PASSWORD_MIN = 6;
export const GENERATED_PASSWORD_LENGTH = 14;
export const PAGE_SIZES = [5, 10, 25] as const;
export const DEFAULT_PAGE_SIZE = 5;
/** The list reloads this long after a change. */
export const RELOAD_DELAY_MS = 500;
/** Fuzzy search on login. */
export const SEARCH_THRESHOLD = 0.3;

/**
 * A new login may not mix Latin, Cyrillic and Greek letters (`аdmin` with a Cyrillic а would pass
 * for `admin`); the server refuses it the same way.
 */
export function loginMixesScripts(login: string): boolean {
  return mixesLookalikeScripts(login);
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A password of 14 letters and digits. `randomValues` fills the array (crypto.getRandomValues in
 * the browser); rejection sampling keeps every character equally likely.
 */
export function generatePassword(
  randomValues: (a: Uint8Array) => Uint8Array = (a) => crypto.getRandomValues(a),
  length = GENERATED_PASSWORD_LENGTH,
): string {
  const limit = 256 - (256 % ALPHABET.length);
  let out = '';
  while (out.length < length) {
    for (const b of randomValues(new Uint8Array(length * 2))) {
      if (b < limit && out.length < length) out += ALPHABET[b % ALPHABET.length];
    }
  }
  return out;
}

/** Validity choices of an assignment: owner (permanent) or a number of seconds from now. */
export type Validity = 'owner' | (typeof DEVICE_VALIDITY_SEC)[number];
export const VALIDITIES: readonly Validity[] = ['owner', ...DEVICE_VALIDITY_SEC];

/** Translation key suffix of each validity. */
export const VALIDITY_LABEL: Record<Validity, string> = {
  owner: 'owner',
  2592000: 'month1',
  15724800: 'months6',
  31536000: 'year1',
  63072000: 'years2',
};

/** The assignment's expiry in unix seconds. */
export function lifeTimeFor(validity: Validity, nowMs: number): number {
  return validity === 'owner' ? OWNER_LIFETIME_SEC : Math.floor(nowMs / 1000) + validity;
}

/** True when an expiry means ownership. */
export function isOwnerLifeTime(lifeTime: number): boolean {
  return lifeTime >= OWNER_LIFETIME_SEC;
}

/** Adding a device is refused once a user holds the maximum. */
export function canAddDevice(deviceCount: number): boolean {
  return deviceCount < MAX_DEVICES_PER_USER;
}

/** Login sort: ascending or descending, locale-aware. */
export function sortByLogin<T extends { login: string }>(
  users: readonly T[],
  order: 'ascend' | 'descend',
): T[] {
  const sorted = [...users].sort((a, b) => a.login.localeCompare(b.login));
  return order === 'descend' ? sorted.reverse() : sorted;
}
