import { describe, expect, it } from 'vitest';
import { LAST_DEVICE_LIFETIME_MS, createLastDeviceMemory } from './lastDevice';

function memory(start = 1_000) {
  const map = new Map<string, string>();
  let now = start;
  const backend = {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
  return { map, mem: createLastDeviceMemory(backend, () => now), advance: (ms: number) => (now += ms) };
}

describe('last device of each person', () => {
  it('gives a person back the device they used last', () => {
    const { mem } = memory();
    mem.remember('alice', 'AA');
    mem.remember('alice', 'BB');
    expect(mem.recall('alice')).toBe('BB');
  });

  it('does not give one person the device of another', () => {
    const { mem } = memory();
    mem.remember('alice', 'AA');
    expect(mem.recall('bob')).toBeNull();
    mem.remember('bob', 'CC');
    expect(mem.recall('alice')).toBe('AA');
  });

  it('files the device under a digest, so the key does not name the person', () => {
    const { map, mem } = memory();
    mem.remember('alice', 'AA');
    const keys = [...map.keys()];
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^mp\.lastDevice\.[0-9a-f]{64}$/);
    expect(keys[0]).not.toContain('alice');
  });

  it('forgets a device after its lifetime and drops unreadable entries', () => {
    const { map, mem, advance } = memory();
    mem.remember('alice', 'AA');
    advance(LAST_DEVICE_LIFETIME_MS);
    expect(mem.recall('alice')).toBeNull();
    expect(map.size).toBe(0);
    mem.remember('alice', 'AA');
    const key = [...map.keys()][0]!;
    map.set(key, '{not json');
    expect(mem.recall('alice')).toBeNull();
    expect(map.size).toBe(0);
  });
});
