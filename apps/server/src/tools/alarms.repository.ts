import type { Database } from '../db/database';

/** A stored rule row. */
export interface AlarmRuleRow {
  id: number;
  user_id: number;
  device_id: number;
  definition: string;
  lang: string;
  updated_at_ms: number;
}

/** A rule row with its device's mac, as the evaluator loads it. */
export interface LoadedRuleRow extends AlarmRuleRow {
  mac: string;
}

/** An alarm not yet cleared, as the evaluator resumes it. */
export interface OpenAlarmRow {
  id: number;
  rule_id: number;
}

/** Filters of the alarm list. */
export interface AlarmFilter {
  userId: number;
  deviceId: number;
  states?: readonly string[];
  severity?: string;
  fromMs?: number;
  toMs?: number;
  limit: number;
}

/** SQL for alarm rules and alarms. */
export function alarmsRepository({ db }: Database) {
  const ruleColumns = ['id', 'user_id', 'device_id', 'definition', 'lang', 'updated_at_ms'] as const;
  return {
    /** Every rule of the installation, or of one device, with the device's mac. */
    rules(deviceId?: number): Promise<LoadedRuleRow[]> {
      return db
        .selectFrom('alarm_rules as r')
        .innerJoin('devices as d', 'd.id', 'r.device_id')
        .select(['r.id', 'r.user_id', 'r.device_id', 'r.definition', 'r.lang', 'r.updated_at_ms', 'd.mac'])
        .$if(deviceId !== undefined, (q) => q.where('r.device_id', '=', deviceId!))
        .orderBy('r.id')
        .execute();
    },
    rulesOf(userId: number, deviceId: number): Promise<AlarmRuleRow[]> {
      return db
        .selectFrom('alarm_rules')
        .select(ruleColumns)
        .where('user_id', '=', userId)
        .where('device_id', '=', deviceId)
        .orderBy('id')
        .execute();
    },
    /** Contract limits, W, of the devices that have rules (or of one device). */
    limits(deviceId?: number) {
      return db
        .selectFrom('device_details')
        .select(['device_id', 'mrk_w', 'rk_w'])
        .where('device_id', 'in', (q) => q.selectFrom('alarm_rules').select('device_id'))
        .$if(deviceId !== undefined, (q) => q.where('device_id', '=', deviceId!))
        .execute();
    },
    openAlarms(deviceId?: number): Promise<OpenAlarmRow[]> {
      return db
        .selectFrom('alarms')
        .select(['id', 'rule_id'])
        .where('state', '!=', 'cleared')
        .$if(deviceId !== undefined, (q) => q.where('device_id', '=', deviceId!))
        .execute();
    },
    async insertRule(r: {
      userId: number;
      deviceId: number;
      definition: string;
      lang: string;
      nowMs: number;
    }): Promise<number> {
      const row = await db
        .insertInto('alarm_rules')
        .values({
          user_id: r.userId,
          device_id: r.deviceId,
          definition: r.definition,
          lang: r.lang,
          created_at_ms: r.nowMs,
          updated_at_ms: r.nowMs,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    /** Changes a rule of this user and device; false when there is none. */
    async updateRule(r: {
      id: number;
      userId: number;
      deviceId: number;
      definition: string;
      lang: string;
      nowMs: number;
    }): Promise<boolean> {
      const res = await db
        .updateTable('alarm_rules')
        .set({ definition: r.definition, lang: r.lang, updated_at_ms: r.nowMs })
        .where('id', '=', r.id)
        .where('user_id', '=', r.userId)
        .where('device_id', '=', r.deviceId)
        .executeTakeFirst();
      return res.numUpdatedRows > 0n;
    },
    /** Deletes a rule of this user and device and clears its open alarms; false when there is none. */
    deleteRule(id: number, userId: number, deviceId: number, nowMs: number): Promise<boolean> {
      return db.transaction().execute(async (tx) => {
        const res = await tx
          .deleteFrom('alarm_rules')
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .where('device_id', '=', deviceId)
          .executeTakeFirst();
        if (res.numDeletedRows === 0n) return false;
        await tx
          .updateTable('alarms')
          .set({ state: 'cleared', cleared_at_ms: nowMs })
          .where('rule_id', '=', id)
          .where('state', '!=', 'cleared')
          .execute();
        return true;
      });
    },
    async insertAlarm(a: {
      ruleId: number;
      userId: number;
      deviceId: number;
      name: string;
      severity: string;
      value: number | null;
      atMs: number;
    }): Promise<number> {
      const row = await db
        .insertInto('alarms')
        .values({
          rule_id: a.ruleId,
          user_id: a.userId,
          device_id: a.deviceId,
          name: a.name,
          severity: a.severity,
          state: 'raised',
          value: a.value,
          raised_at_ms: a.atMs,
          acked_at_ms: null,
          acked_by: null,
          ack_note: null,
          cleared_at_ms: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async clearAlarm(id: number, atMs: number): Promise<void> {
      await db
        .updateTable('alarms')
        .set({ state: 'cleared', cleared_at_ms: atMs })
        .where('id', '=', id)
        .where('state', '!=', 'cleared')
        .execute();
    },
    /** Acknowledges a raised alarm of this user and device; false when there is none. */
    async acknowledge(a: {
      id: number;
      userId: number;
      deviceId: number;
      by: string;
      note: string;
      atMs: number;
    }): Promise<boolean> {
      const res = await db
        .updateTable('alarms')
        .set({ state: 'acknowledged', acked_at_ms: a.atMs, acked_by: a.by, ack_note: a.note })
        .where('id', '=', a.id)
        .where('user_id', '=', a.userId)
        .where('device_id', '=', a.deviceId)
        .where('state', '=', 'raised')
        .executeTakeFirst();
      return res.numUpdatedRows > 0n;
    },
    alarm(id: number, userId: number, deviceId: number) {
      return db
        .selectFrom('alarms')
        .select(['id', 'state'])
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('device_id', '=', deviceId)
        .executeTakeFirst();
    },
    list(f: AlarmFilter) {
      return db
        .selectFrom('alarms')
        .selectAll()
        .where('user_id', '=', f.userId)
        .where('device_id', '=', f.deviceId)
        .$if(!!f.states, (q) => q.where('state', 'in', f.states!))
        .$if(f.severity !== undefined, (q) => q.where('severity', '=', f.severity!))
        .$if(f.fromMs !== undefined, (q) => q.where('raised_at_ms', '>=', f.fromMs!))
        .$if(f.toMs !== undefined, (q) => q.where('raised_at_ms', '<', f.toMs!))
        .orderBy('raised_at_ms', 'desc')
        .orderBy('id', 'desc')
        .limit(f.limit)
        .execute();
    },
  };
}
/** SQL for alarm rules and alarms. */
export type AlarmsRepository = ReturnType<typeof alarmsRepository>;
