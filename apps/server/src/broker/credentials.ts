// Per-device broker credentials. The secret is 256 random bits shown once; only its SHA-256 is
// stored. A slow password hash buys nothing for a secret this long and would make a fleet's
// reconnect storm after a broker restart cost minutes of CPU.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/database';
import type { Clock } from '../clock';
import { credentialsRepository } from './credentials.repository';

const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest();

/** Creates the credential store over the database. */
export function createDeviceCredentials(deps: { database: Database; clock: Clock }) {
  const repo = credentialsRepository(deps.database);
  return {
    /** Issues (or rotates) the credentials of a device; the password is returned only here. */
    async issue(deviceId: number, mac: string): Promise<{ username: string; password: string }> {
      const password = randomBytes(32).toString('base64url');
      await repo.save({
        deviceId,
        username: mac,
        secretHashHex: sha256(password).toString('hex'),
        createdAtMs: deps.clock.nowMs(),
      });
      return { username: mac, password };
    },

    /** The device a username/password pair belongs to, or null. */
    async verify(
      username: string,
      password: Buffer | string,
    ): Promise<{ deviceId: number; mac: string } | null> {
      const row = await repo.findByUsername(username);
      if (!row) return null;
      const ok = timingSafeEqual(sha256(password), Buffer.from(row.secretHashHex, 'hex'));
      return ok ? { deviceId: row.deviceId, mac: row.username } : null;
    },

    /** Removes a device's credentials; it can no longer connect. */
    async revoke(deviceId: number): Promise<void> {
      await repo.remove(deviceId);
    },
  };
}

/** The credential store. */
export type DeviceCredentials = ReturnType<typeof createDeviceCredentials>;
