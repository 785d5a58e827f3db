import crypto from 'node:crypto';
import { safeEqual } from '../auth/crypto';

/** What a device token stands for. */
export interface DeviceTokenClaims {
  mac: string;
  expireSec: number;
}

/**
 * Device tokens are `<mac>.<mac tag>|<expire>`: an HMAC over user, device and assignment expiry
 * with the installation's secret, so a token is useless to another user, after its assignment
 * changes, or without the secret (never computable from the MAC alone).
 */
export function deviceTokens(secret: string) {
  const tag = (userId: number, mac: string, expireSec: number) =>
    crypto
      .createHmac('sha256', secret)
      .update(`${userId}\n${mac}\n${expireSec}`)
      .digest('base64url')
      .slice(0, 32);
  return {
    sign(userId: number, mac: string, expireSec: number): string {
      return `${Buffer.from(mac).toString('base64url')}.${tag(userId, mac, expireSec)}|${expireSec}`;
    },
    /** The claims when the token was signed for this user, otherwise null. */
    verify(userId: number, token: string): DeviceTokenClaims | null {
      const m = /^([A-Za-z0-9_-]{1,80})\.([A-Za-z0-9_-]{32})\|(\d{1,12})$/.exec(token);
      if (!m) return null;
      const mac = Buffer.from(m[1]!, 'base64url').toString('utf8');
      const expireSec = Number(m[3]);
      return safeEqual(m[2]!, tag(userId, mac, expireSec)) ? { mac, expireSec } : null;
    },
  };
}
/** Signs and checks device tokens. */
export type DeviceTokens = ReturnType<typeof deviceTokens>;
