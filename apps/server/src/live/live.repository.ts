import type { Database } from '../db/database';
import type { TelemetryDB } from '../db/schema.telemetry';
import type { DeviceRuntimeState } from './bus';

const WORD: Record<number, string> = { 0: 'OFFLINE', 1: 'ONLINE', 2: 'DATABASE_UPDATE' };

/** SQL for the hub: the stored runtime state of devices. */
export function liveRepository(database: Database) {
  const db = database.db.withTables<TelemetryDB>();
  return {
    async states(deviceIds: number[]): Promise<Map<number, DeviceRuntimeState>> {
      if (deviceIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('device_states')
        .select(['device_id', 'status', 'fw', 'connection', 'model'])
        .where('device_id', 'in', deviceIds)
        .execute();
      return new Map(
        rows.map((r) => [
          r.device_id,
          { status: WORD[r.status] ?? 'OFFLINE', fw: r.fw, connection: r.connection, device: r.model },
        ]),
      );
    },
  };
}
/** SQL for the hub. */
export type LiveRepository = ReturnType<typeof liveRepository>;
