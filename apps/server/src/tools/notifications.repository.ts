import type { Database } from '../db/database';

/** SQL for notifications, pairs and the Webex outbox. */
export function notificationsRepository({ db }: Database) {
  return {
    async insertNotification(deviceId: number, type: string, data: string, atMs: number): Promise<number> {
      const r = await db
        .insertInto('notifications')
        .values({ device_id: deviceId, type, data, at_ms: atMs })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },
    latest(deviceId: number, limit: number) {
      return db
        .selectFrom('notifications')
        .selectAll()
        .where('device_id', '=', deviceId)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },
    pairsForDevice(deviceId: number, notifyType: number) {
      return db
        .selectFrom('notification_pairs')
        .selectAll()
        .where('device_id', '=', deviceId)
        .where('notify_type', '=', notifyType)
        .execute();
    },
    pairsOf(userId: number, deviceId: number) {
      return db
        .selectFrom('notification_pairs')
        .selectAll()
        .where('user_id', '=', userId)
        .where('device_id', '=', deviceId)
        .orderBy('id')
        .execute();
    },
    async addPair(p: {
      userId: number;
      deviceId: number;
      notifyType: number;
      destType: number;
      webexSpace: string | null;
      nowMs: number;
    }): Promise<number> {
      const r = await db
        .insertInto('notification_pairs')
        .values({
          user_id: p.userId,
          device_id: p.deviceId,
          notify_type: p.notifyType,
          dest_type: p.destType,
          webex_space: p.webexSpace,
          created_at_ms: p.nowMs,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },
    async deletePair(userId: number, deviceId: number, id: number): Promise<boolean> {
      const r = await db
        .deleteFrom('notification_pairs')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('device_id', '=', deviceId)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async enqueue(pairIds: number[], notificationId: number, nowMs: number): Promise<void> {
      if (pairIds.length === 0) return;
      await db
        .insertInto('notification_deliveries')
        .values(
          pairIds.map((pair_id) => ({
            pair_id,
            notification_id: notificationId,
            state: 'pending' as const,
            attempts: 0,
            next_at_ms: nowMs,
          })),
        )
        .execute();
    },
    due(nowMs: number, limit: number) {
      return db
        .selectFrom('notification_deliveries as d')
        .innerJoin('notification_pairs as p', 'p.id', 'd.pair_id')
        .innerJoin('notifications as n', 'n.id', 'd.notification_id')
        .innerJoin('devices as v', 'v.id', 'n.device_id')
        .select([
          'd.id',
          'd.attempts',
          'd.next_at_ms',
          'p.webex_space',
          'n.type',
          'n.data',
          'v.title',
          'v.mac',
        ])
        .where('d.state', '=', 'pending')
        .where('d.next_at_ms', '<=', nowMs)
        .orderBy('d.next_at_ms')
        .limit(limit)
        .execute();
    },
    /** Takes a delivery for this worker unless another one took it first. */
    async claim(id: number, seenNextAtMs: number, leaseUntilMs: number): Promise<boolean> {
      const r = await db
        .updateTable('notification_deliveries')
        .set({ next_at_ms: leaseUntilMs })
        .where('id', '=', id)
        .where('state', '=', 'pending')
        .where('next_at_ms', '=', seenNextAtMs)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async markSent(id: number, nowMs: number): Promise<void> {
      await db
        .updateTable('notification_deliveries')
        .set({ state: 'sent', sent_at_ms: nowMs, last_error: null })
        .where('id', '=', id)
        .execute();
    },
    async markRetry(
      id: number,
      attempts: number,
      nextAtMs: number,
      error: string,
      give_up: boolean,
    ): Promise<void> {
      await db
        .updateTable('notification_deliveries')
        .set({
          attempts,
          next_at_ms: nextAtMs,
          last_error: error.slice(0, 300),
          state: give_up ? 'failed' : 'pending',
        })
        .where('id', '=', id)
        .execute();
    },
  };
}
/** SQL for notifications, pairs and the Webex outbox. */
export type NotificationsRepository = ReturnType<typeof notificationsRepository>;
