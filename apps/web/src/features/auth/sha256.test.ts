import { describe, expect, it } from 'vitest';
import { sha256Hex, sha256HexSync } from './sha256';

async function webCrypto(s: string): Promise<string> {
  const d = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(s));
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, '0')).join('');
}

describe('sha256', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['demo', '2a97516c354b68848cdbd8f54a226a0a55b21ed138e207ad6c5cbb9c00aa5aea'],
  ])('hashes %j like the reference', (input, expected) => {
    expect(sha256HexSync(input)).toBe(expected);
  });

  it('agrees with WebCrypto for multi-block and non-ASCII input', async () => {
    for (const s of ['a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), 'x'.repeat(1000), 'heslo-ľščťž-€']) {
      expect(sha256HexSync(s)).toBe(await webCrypto(s));
    }
  });

  it('gives the same digest through the async entry point', async () => {
    expect(await sha256Hex('demo')).toBe(sha256HexSync('demo'));
  });
});
