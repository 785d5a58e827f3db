import type { Database } from '../db/database';

/** A switching as stored. */
export interface SwitchingRow {
  deviceId: number;
  state: 'OPEN' | 'CLOSED';
  cause: string;
  userId: number | null;
  atMs: number;
}

/** SQL of relay switchings and a disconnector's DISCONNECTOR notifications. */
export function relayRepository({ db }: Database) {
  return {
    async insert(s: SwitchingRow): Promise<void> {
      await db
        .insertInto('relay_switchings')
        .values({ device_id: s.deviceId, state: s.state, cause: s.cause, user_id: s.userId, at_ms: s.atMs })
        .execute();
    },
    /** The latest switchings of a device, newest first, with the login of whoever switched. */
    latest(deviceId: number, limit: number) {
      return db
        .selectFrom('relay_switchings as r')
        .leftJoin('users as u', 'u.id', 'r.user_id')
        .select(['r.state', 'r.cause', 'r.at_ms', 'u.login'])
        .where('r.device_id', '=', deviceId)
        .orderBy('r.at_ms', 'desc')
        .orderBy('r.id', 'desc')
        .limit(limit)
        .execute();
    },
    disconnectorNotifications(deviceId: number, limit: number) {
      return db
        .selectFrom('notifications')
        .select(['id', 'data'])
        .where('device_id', '=', deviceId)
        .where('type', '=', 'DISCONNECTOR')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },
  };
}
/** SQL of relay switchings. */
export type RelayRepository = ReturnType<typeof relayRepository>;
