import type { Database } from '../db/database';
import type { AnomalyModelsTable } from '../db/schema';

/** A model row with its device's mac and type. */
export type ModelRow = AnomalyModelsTable & { mac: string; type: number };

/** A model as written. */
export type ModelValues = AnomalyModelsTable;

/** An anomaly as written or updated. */
export interface AnomalyValues {
  deviceId: number;
  startSec: number;
  endSec: number | null;
  hours: number;
  direction: string;
  expectedLowWh: number;
  expectedHighWh: number;
  seenWh: number;
}

const num = (v: unknown) => Number(v);

/** SQL of anomaly models and the anomalies they found. */
export function anomaliesRepository({ db }: Database) {
  const normal = (r: ModelRow): ModelRow => ({
    ...r,
    from_sec: num(r.from_sec),
    to_sec: num(r.to_sec),
    trained_at_ms: num(r.trained_at_ms),
    checked_to_sec: num(r.checked_to_sec),
  });
  const models = () =>
    db
      .selectFrom('anomaly_models as m')
      .innerJoin('devices as d', 'd.id', 'm.device_id')
      .selectAll('m')
      .select(['d.mac', 'd.type']);
  return {
    async model(deviceId: number): Promise<ModelRow | undefined> {
      const r = await models().where('m.device_id', '=', deviceId).executeTakeFirst();
      return r && normal(r);
    },
    async all(): Promise<ModelRow[]> {
      return (await models().orderBy('m.device_id').execute()).map(normal);
    },
    async save(v: ModelValues): Promise<void> {
      await db
        .insertInto('anomaly_models')
        .values(v)
        .onConflict((oc) =>
          oc.column('device_id').doUpdateSet({
            weeks: v.weeks,
            hours_in_row: v.hours_in_row,
            from_sec: v.from_sec,
            to_sec: v.to_sec,
            hours_used: v.hours_used,
            trained_at_ms: v.trained_at_ms,
            scheduled: v.scheduled,
            slots: v.slots,
          }),
        )
        .execute();
    },
    async saveProgress(
      deviceId: number,
      checkedToSec: number,
      runState: string,
      openId: number | null,
    ): Promise<void> {
      await db
        .updateTable('anomaly_models')
        .set({ checked_to_sec: checkedToSec, run_state: runState, open_anomaly_id: openId })
        .where('device_id', '=', deviceId)
        .execute();
    },
    async insertAnomaly(a: AnomalyValues): Promise<number> {
      const r = await db
        .insertInto('anomalies')
        .values({
          device_id: a.deviceId,
          start_sec: a.startSec,
          end_sec: a.endSec,
          hours: a.hours,
          direction: a.direction,
          expected_low_wh: a.expectedLowWh,
          expected_high_wh: a.expectedHighWh,
          seen_wh: a.seenWh,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(r.id);
    },
    async updateAnomaly(id: number, a: AnomalyValues): Promise<void> {
      await db
        .updateTable('anomalies')
        .set({
          end_sec: a.endSec,
          hours: a.hours,
          expected_low_wh: a.expectedLowWh,
          expected_high_wh: a.expectedHighWh,
          seen_wh: a.seenWh,
        })
        .where('id', '=', id)
        .execute();
    },
    async latest(deviceId: number, limit: number) {
      const rows = await db
        .selectFrom('anomalies')
        .selectAll()
        .where('device_id', '=', deviceId)
        .orderBy('start_sec', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        ...r,
        start_sec: num(r.start_sec),
        end_sec: r.end_sec === null ? null : num(r.end_sec),
        expected_low_wh: num(r.expected_low_wh),
        expected_high_wh: num(r.expected_high_wh),
        seen_wh: num(r.seen_wh),
      }));
    },
  };
}
/** SQL of anomaly models. */
export type AnomaliesRepository = ReturnType<typeof anomaliesRepository>;
