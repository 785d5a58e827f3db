import type { NotificationType } from '@meterportal/protocol';
import type { Database } from '../db/database';
import { deleteMatching } from '../db/keyed';

/** SQL for notifications, their read marks, pairs and the delivery outbox. */
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
    /**
     * One page of the notifications of the devices assigned to a user right now, newest first,
     * with the user's read mark.
     */
    history(q: HistoryQuery) {
      const reads = db
        .selectFrom('notification_reads')
        .select(['notification_id'])
        .where('user_id', '=', q.userId);
      return db
        .selectFrom('notifications as n')
        .innerJoin('assignments as a', (j) =>
          j.onRef('a.device_id', '=', 'n.device_id').on('a.user_id', '=', q.userId),
        )
        .innerJoin('devices as v', 'v.id', 'n.device_id')
        .leftJoin(reads.as('r'), 'r.notification_id', 'n.id')
        .select(['n.id', 'n.type', 'n.data', 'n.at_ms', 'v.mac', 'r.notification_id as read_id'])
        .where('a.life_time_sec', '>', q.nowSec)
        .$if(q.deviceId !== undefined, (b) => b.where('n.device_id', '=', q.deviceId ?? -1))
        .$if(q.types !== undefined, (b) => b.where('n.type', 'in', q.types ?? []))
        .$if(q.fromMs !== undefined, (b) => b.where('n.at_ms', '>=', q.fromMs ?? 0))
        .$if(q.toMs !== undefined, (b) => b.where('n.at_ms', '<=', q.toMs ?? 0))
        .$if(q.read === 'READ', (b) => b.where('r.notification_id', 'is not', null))
        .$if(q.read === 'UNREAD', (b) => b.where('r.notification_id', 'is', null))
        .$if(q.beforeId !== undefined, (b) => b.where('n.id', '<', q.beforeId ?? 0))
        .orderBy('n.id', 'desc')
        .limit(q.limit)
        .execute();
    },
    /** Of these notification ids, those of devices assigned to the user right now. */
    async visibleIds(userId: number, ids: number[], nowSec: number): Promise<number[]> {
      const rows = await db
        .selectFrom('notifications as n')
        .innerJoin('assignments as a', (j) =>
          j.onRef('a.device_id', '=', 'n.device_id').on('a.user_id', '=', userId),
        )
        .select('n.id')
        .where('n.id', 'in', ids)
        .where('a.life_time_sec', '>', nowSec)
        .execute();
      return rows.map((r) => r.id);
    },
    async markRead(userId: number, ids: number[], nowMs: number): Promise<void> {
      if (ids.length === 0) return;
      await db
        .insertInto('notification_reads')
        .values(ids.map((notification_id) => ({ user_id: userId, notification_id, read_at_ms: nowMs })))
        .onConflict((oc) => oc.columns(['user_id', 'notification_id']).doNothing())
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
      email: string | null;
      emailLanguage: string | null;
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
          email: p.email,
          email_language: p.emailLanguage,
          created_at_ms: p.nowMs,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },
    async deletePair(userId: number, deviceId: number, id: number): Promise<boolean> {
      return deleteMatching(db, 'notification_pairs', { id, user_id: userId, device_id: deviceId });
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
    /** Pending deliveries to these kinds of destination whose time has come. */
    due(nowMs: number, limit: number, destTypes: number[]) {
      return db
        .selectFrom('notification_deliveries as d')
        .innerJoin('notification_pairs as p', 'p.id', 'd.pair_id')
        .innerJoin('notifications as n', 'n.id', 'd.notification_id')
        .innerJoin('devices as v', 'v.id', 'n.device_id')
        .select([
          'd.id',
          'd.attempts',
          'd.next_at_ms',
          'p.dest_type',
          'p.webex_space',
          'p.email',
          'p.email_language',
          'n.type',
          'n.data',
          'n.at_ms',
          'v.title',
          'v.mac',
        ])
        .where('d.state', '=', 'pending')
        .where('d.next_at_ms', '<=', nowMs)
        .where('p.dest_type', 'in', destTypes.length > 0 ? destTypes : [-1])
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
/** SQL for notifications, their read marks, pairs and the delivery outbox. */
export type NotificationsRepository = ReturnType<typeof notificationsRepository>;

/** Filters and cursor of one page of the notification history. */
export interface HistoryQuery {
  userId: number;
  nowSec: number;
  deviceId?: number | undefined;
  types?: NotificationType[] | undefined;
  fromMs?: number | undefined;
  toMs?: number | undefined;
  read?: 'READ' | 'UNREAD' | undefined;
  beforeId?: number | undefined;
  limit: number;
}
