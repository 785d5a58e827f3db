import type { Database } from '../db/database';
import type { TelemetryDB } from '../db/schema.telemetry';

/** A device's stored broker credentials: its username and the SHA-256 (hex) of its secret. */
export interface StoredCredentials {
  deviceId: number;
  username: string;
  secretHashHex: string;
}

/** SQL for per-device broker credentials. */
export function credentialsRepository(database: Database) {
  const db = database.db.withTables<TelemetryDB>();
  return {
    /** Stores (or replaces) a device's credentials. */
    async save(c: StoredCredentials & { createdAtMs: number }): Promise<void> {
      const row = { username: c.username, secret_hash: c.secretHashHex, created_at_ms: c.createdAtMs };
      await db
        .insertInto('device_credentials')
        .values({ device_id: c.deviceId, ...row })
        .onConflict((oc) => oc.column('device_id').doUpdateSet(row))
        .execute();
    },
    /** The credentials held under a username. */
    async findByUsername(username: string): Promise<StoredCredentials | undefined> {
      const row = await db
        .selectFrom('device_credentials')
        .select(['device_id', 'username', 'secret_hash'])
        .where('username', '=', username)
        .executeTakeFirst();
      return row && { deviceId: row.device_id, username: row.username, secretHashHex: row.secret_hash };
    },
    async remove(deviceId: number): Promise<void> {
      await db.deleteFrom('device_credentials').where('device_id', '=', deviceId).execute();
    },
  };
}
/** SQL for per-device broker credentials. */
export type CredentialsRepository = ReturnType<typeof credentialsRepository>;
