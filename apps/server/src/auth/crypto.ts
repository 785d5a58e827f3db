import crypto from 'node:crypto';
import argon2 from 'argon2';

/** A random URL-safe token with 256 bits of entropy. */
export function randomToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** SHA-256 hex of a string; how session tokens are stored and how browsers send passwords. */
export function sha256Hex(s: string): string {
  return crypto.createHash('sha256').update(s, 'utf8').digest('hex');
}

/** argon2id of the password digest the browser sends. */
export function hashPasswordDigest(digest: string): Promise<string> {
  return argon2.hash(digest.toLowerCase(), { type: argon2.argon2id });
}

// Verifying against this when the login is unknown keeps the answer time the same.
let dummyHash: Promise<string> | undefined;

/** True when the digest matches the stored hash; null hash still costs one verification. */
export async function verifyPasswordDigest(hash: string | null, digest: string): Promise<boolean> {
  if (!hash) {
    dummyHash ??= argon2.hash('0'.repeat(64), { type: argon2.argon2id });
    await argon2.verify(await dummyHash, digest.toLowerCase());
    return false;
  }
  try {
    return await argon2.verify(hash, digest.toLowerCase());
  } catch {
    return false;
  }
}

/** A password of letters and digits (seed 001: 14 characters for generated ones). */
export function generatePassword(length = 14): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const out: string[] = [];
  while (out.length < length) {
    const b = crypto.randomBytes(1)[0]!;
    // Rejection sampling keeps every character equally likely.
    if (b < 256 - (256 % alphabet.length)) out.push(alphabet[b % alphabet.length]!);
  }
  return out.join('');
}

/** Constant-time comparison of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}
