import type { Database } from '../db/database';
import type { TelemetryDB } from '../db/schema.telemetry';

/** SQL of the power-quality assessment beyond the minute reads of the history repository. */
export function powerQualityRepository(database: Database) {
  const db = database.db.withTables<TelemetryDB>();
  return {
    /** Frequency minutes counted in [fromSec, toSec) (quarter-hour rows, both ends on quarters). */
    async frequencyCounts(
      deviceId: number,
      fromSec: number,
      toSec: number,
    ): Promise<{ minutes: number; withinBand: number; withinAlways: number }> {
      const row = await db
        .selectFrom('frequency_quarters')
        .select((eb) => [
          eb.fn.sum<number | string | null>('minutes').as('minutes'),
          eb.fn.sum<number | string | null>('within_band').as('band'),
          eb.fn.sum<number | string | null>('within_always').as('always'),
        ])
        .where('device_id', '=', deviceId)
        .where('quarter_sec', '>=', fromSec)
        .where('quarter_sec', '<', toSec)
        .executeTakeFirst();
      return {
        minutes: Number(row?.minutes ?? 0),
        withinBand: Number(row?.band ?? 0),
        withinAlways: Number(row?.always ?? 0),
      };
    },
  };
}
/** SQL of the power-quality assessment. */
export type PowerQualityRepository = ReturnType<typeof powerQualityRepository>;
