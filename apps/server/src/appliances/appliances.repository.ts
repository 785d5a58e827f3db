import type { Database } from '../db/database';
import { deleteMatching, updateMatching } from '../db/keyed';

/** An appliance as stored. */
export interface ApplianceRow {
  name: string;
  phase: string | null;
  origin: string;
  imprint: string | null;
}

/** SQL of household meters' appliances and their NILM notifications. */
export function appliancesRepository({ db }: Database) {
  return {
    list(deviceId: number): Promise<ApplianceRow[]> {
      return db
        .selectFrom('nilm_appliances')
        .select(['name', 'phase', 'origin', 'imprint'])
        .where('device_id', '=', deviceId)
        .orderBy('name')
        .execute();
    },
    async insert(
      deviceId: number,
      a: { name: string; phase: string | null; origin: string; imprint: string | null },
      atMs: number,
    ): Promise<void> {
      await db
        .insertInto('nilm_appliances')
        .values({ device_id: deviceId, ...a, created_at_ms: atMs })
        .execute();
    },
    /** Replaces the imprint (and phase) of a named appliance; answers whether it existed. */
    async setImprint(
      deviceId: number,
      name: string,
      imprint: string | null,
      phase?: string,
    ): Promise<boolean> {
      const values = { imprint, ...(phase ? { phase, origin: 'TAUGHT' } : {}) };
      return updateMatching(db, 'nilm_appliances', values, { device_id: deviceId, name });
    },
    async remove(deviceId: number, name: string): Promise<boolean> {
      return deleteMatching(db, 'nilm_appliances', { device_id: deviceId, name });
    },
    /** NILM notifications of a device received in [fromMs, toMs). */
    nilmEvents(deviceId: number, fromMs: number, toMs: number) {
      return db
        .selectFrom('notifications')
        .select(['data'])
        .where('device_id', '=', deviceId)
        .where('type', '=', 'NILM')
        .where('at_ms', '>=', fromMs)
        .where('at_ms', '<', toMs)
        .execute();
    },
    async setSettings(deviceId: number, process: boolean, autoLearn: boolean): Promise<void> {
      await db
        .updateTable('devices')
        .set({ nilm_process: process ? 1 : 0, nilm_autolearn: autoLearn ? 1 : 0 })
        .where('id', '=', deviceId)
        .execute();
    },
  };
}
/** SQL of appliances. */
export type AppliancesRepository = ReturnType<typeof appliancesRepository>;
