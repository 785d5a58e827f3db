import type { Database } from '../db/database';
import type { TelemetryDB } from '../db/schema.telemetry';
import type { CapacityWrite, MeterMonthPeak } from '../adapters/p1-capacity';

/** What a P1 meter recorded of the capacity tariff: its monthly peaks and latest running demand. */
export interface MeterCapacity {
  /** Months oldest first. */
  months: MeterMonthPeak[];
  /** The running quarter hour's average demand last reported, W, and the telegram's time. */
  average: { averageW: number; reportedSec: number } | null;
}

/** SQL of the capacity-tariff values P1 meters record themselves. */
export function meterCapacityRepository(database: Database) {
  const db = database.db.withTables<Pick<TelemetryDB, 'meter_capacity_peaks' | 'meter_capacity_demand'>>();

  return {
    /**
     * Stores meters' reports in one transaction. A value replaces the stored one only when it comes
     * from a telegram at least as recent, so a telegram delivered again changes nothing.
     */
    async save(writes: CapacityWrite[]): Promise<void> {
      if (writes.length === 0) return;
      await db.transaction().execute(async (trx) => {
        for (const w of writes) {
          const device = await trx
            .selectFrom('devices')
            .select('id')
            .where('mac', '=', w.mac)
            .executeTakeFirst();
          if (!device) continue;
          if (w.months.length)
            await trx
              .insertInto('meter_capacity_peaks')
              .values(
                w.months.map((m) => ({
                  device_id: device.id,
                  month: m.month,
                  peak_w: m.peakW,
                  peak_at_sec: m.atSec,
                  reported_sec: m.reportedSec,
                })),
              )
              .onConflict((oc) =>
                oc
                  .columns(['device_id', 'month'])
                  .doUpdateSet((eb) => ({
                    peak_w: eb.ref('excluded.peak_w'),
                    peak_at_sec: eb.ref('excluded.peak_at_sec'),
                    reported_sec: eb.ref('excluded.reported_sec'),
                  }))
                  .where((eb) =>
                    eb('meter_capacity_peaks.reported_sec', '<=', eb.ref('excluded.reported_sec')),
                  ),
              )
              .execute();
          if (w.average)
            await trx
              .insertInto('meter_capacity_demand')
              .values({
                device_id: device.id,
                average_w: w.average.averageW,
                reported_sec: w.average.reportedSec,
              })
              .onConflict((oc) =>
                oc
                  .column('device_id')
                  .doUpdateSet((eb) => ({
                    average_w: eb.ref('excluded.average_w'),
                    reported_sec: eb.ref('excluded.reported_sec'),
                  }))
                  .where((eb) =>
                    eb('meter_capacity_demand.reported_sec', '<=', eb.ref('excluded.reported_sec')),
                  ),
              )
              .execute();
        }
      });
    },

    /** What the device's meter recorded; no months and no average for any other meter. */
    async read(deviceId: number): Promise<MeterCapacity> {
      const rows = await db
        .selectFrom('meter_capacity_peaks')
        .select(['month', 'peak_w', 'peak_at_sec'])
        .where('device_id', '=', deviceId)
        .orderBy('month')
        .execute();
      const avg = await db
        .selectFrom('meter_capacity_demand')
        .select(['average_w', 'reported_sec'])
        .where('device_id', '=', deviceId)
        .executeTakeFirst();
      return {
        months: rows.map((r) => ({ month: r.month, peakW: Number(r.peak_w), atSec: Number(r.peak_at_sec) })),
        average: avg ? { averageW: Number(avg.average_w), reportedSec: Number(avg.reported_sec) } : null,
      };
    },
  };
}
/** SQL of the capacity-tariff values P1 meters record themselves. */
export type MeterCapacityRepository = ReturnType<typeof meterCapacityRepository>;
