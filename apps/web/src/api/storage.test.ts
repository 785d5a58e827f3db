import { describe, expect, it } from 'vitest';
import { STORAGE_LIFETIME_MS, createSessionStore, type KeyValueStore } from './storage';

function memory(): KeyValueStore & { size: () => number } {
  const m = new Map<string, string>();
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, v),
    removeItem: (k) => void m.delete(k),
    size: () => m.size,
  };
}

describe('session store', () => {
  it('uses the seed lifetimes: token and device list 1 h, renewal 8 h, last route 48 h', () => {
    expect(STORAGE_LIFETIME_MS.userToken).toBe(3_600_000);
    expect(STORAGE_LIFETIME_MS.deviceList).toBe(3_600_000);
    expect(STORAGE_LIFETIME_MS.renewal).toBe(8 * 3_600_000);
    expect(STORAGE_LIFETIME_MS.lastRoute).toBe(48 * 3_600_000);
  });

  it('returns an item until its lifetime ends and drops it afterwards', () => {
    let t = 1_000;
    const backend = memory();
    const store = createSessionStore(backend, () => t);
    store.set('lastRoute', '/visualization/realtime/current');
    t += STORAGE_LIFETIME_MS.lastRoute - 1;
    expect(store.get('lastRoute')).toBe('/visualization/realtime/current');
    t += 1;
    expect(store.get('lastRoute')).toBeUndefined();
    expect(backend.size()).toBe(0);
  });

  it('drops a corrupt item instead of throwing', () => {
    const backend = memory();
    backend.setItem('mp.userToken', '{not json');
    const store = createSessionStore(backend, () => 0);
    expect(store.get('userToken')).toBeUndefined();
    expect(backend.size()).toBe(0);
  });
});
