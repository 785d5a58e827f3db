import { Tariff } from '@meterportal/protocol';
import type { Database } from '../db/database';
import type { TelemetryDB } from '../db/schema.telemetry';
import { deleteMatching } from '../db/keyed';

/** The highest quarter hour of a range: its start and import energy. */
export interface PeakQuarter {
  tsSec: number;
  importWh: number;
}

/** SQL of tariff versions and of the quarter hours that peaks are read from. */
export function tariffsRepository(database: Database) {
  const db = database.db;
  const quarters = database.db.withTables<Pick<TelemetryDB, 'energy_quarters'>>();

  return {
    /** The device's tariff versions, oldest first. */
    async list(deviceId: number): Promise<Tariff[]> {
      const rows = await db
        .selectFrom('tariffs')
        .select('body')
        .where('device_id', '=', deviceId)
        .orderBy('valid_from')
        .execute();
      return rows.map((r) => Tariff.parse(JSON.parse(r.body)));
    },

    /** Adds a version or replaces the one starting on the same date. */
    async save(deviceId: number, tariff: Tariff, nowMs: number): Promise<void> {
      const body = JSON.stringify(tariff);
      await db
        .insertInto('tariffs')
        .values({ device_id: deviceId, valid_from: tariff.validFrom, body, updated_at_ms: nowMs })
        .onConflict((oc) =>
          oc.columns(['device_id', 'valid_from']).doUpdateSet({ body, updated_at_ms: nowMs }),
        )
        .execute();
    },

    /** Removes the version starting on validFrom; false when there was none. */
    async remove(deviceId: number, validFrom: string): Promise<boolean> {
      return deleteMatching(db, 'tariffs', { device_id: deviceId, valid_from: validFrom });
    },

    /** The quarter hour of [fromSec, toSec) with the most import (the earliest of equals). */
    async peakQuarter(deviceId: number, fromSec: number, toSec: number): Promise<PeakQuarter | null> {
      const r = await quarters
        .selectFrom('energy_quarters')
        .select(['ts_sec', 'e_i_wh'])
        .where('device_id', '=', deviceId)
        .where('ts_sec', '>=', fromSec)
        .where('ts_sec', '<', toSec)
        .orderBy('e_i_wh', 'desc')
        .orderBy('ts_sec')
        .limit(1)
        .executeTakeFirst();
      return r ? { tsSec: Number(r.ts_sec), importWh: Number(r.e_i_wh) } : null;
    },

    /** Import energy of one quarter hour so far (0 when nothing is stored yet). */
    async quarterImportWh(deviceId: number, tsSec: number): Promise<number> {
      const r = await quarters
        .selectFrom('energy_quarters')
        .select('e_i_wh')
        .where('device_id', '=', deviceId)
        .where('ts_sec', '=', tsSec)
        .executeTakeFirst();
      return r ? Number(r.e_i_wh) : 0;
    },
  };
}
/** SQL of tariff versions and peaks. */
export type TariffsRepository = ReturnType<typeof tariffsRepository>;
