import { describe, expect, it } from 'vitest';
import { generatePassword, hashPasswordDigest, sha256Hex, verifyPasswordDigest } from './crypto';

describe('passwords', () => {
  it('stores argon2id of the digest and verifies only the same digest', async () => {
    const digest = sha256Hex('demo');
    expect(digest).toBe('2a97516c354b68848cdbd8f54a226a0a55b21ed138e207ad6c5cbb9c00aa5aea');
    const hash = await hashPasswordDigest(digest);
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPasswordDigest(hash, digest)).toBe(true);
    expect(await verifyPasswordDigest(hash, digest.toUpperCase())).toBe(true);
    expect(await verifyPasswordDigest(hash, sha256Hex('demo2'))).toBe(false);
    expect(await verifyPasswordDigest(null, digest)).toBe(false);
  });

  it('generates 14 letters and digits', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const p = generatePassword();
      expect(p).toMatch(/^[A-Za-z0-9]{14}$/);
      seen.add(p);
    }
    expect(seen.size).toBe(200);
  });
});
