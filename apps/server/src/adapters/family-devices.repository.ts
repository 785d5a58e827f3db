import type { JsonMapping } from '@meterportal/protocol';
import type { Database } from '../db/database';
import type { TelemetryDB } from '../db/schema.telemetry';
import { storedMapping } from './json';
import { isAdapterFamily, type AdapterFamily, type FamilyDevice } from './families';

/** A registered device of an adapted family. */
export interface FamilyDeviceRow extends FamilyDevice {
  mac: string;
  /** Zone of its clock; null: the installation's. */
  tz: string | null;
  /** A generic JSON meter's mapping; null for the other families (or one unreadable). */
  mapping?: JsonMapping | null;
}

/** SQL for the family and topic of devices. */
export function familyDevicesRepository(database: Database) {
  const { db } = database;
  return {
    /** The device of a family holding a topic or prefix. */
    async byTopic(family: AdapterFamily, topic: string): Promise<FamilyDeviceRow | null> {
      const row = await db
        .selectFrom('devices')
        .select(['mac', 'family_topic', 'family_tz', 'family_mapping'])
        .where('family', '=', family)
        .where('family_topic', '=', topic)
        .executeTakeFirst();
      return row?.family_topic
        ? {
            family,
            topic: row.family_topic,
            mac: row.mac,
            tz: row.family_tz,
            mapping: storedMapping(row.family_mapping),
          }
        : null;
    },
    /** Macs of the devices of these families whose stored status is online. */
    async onlineOf(families: readonly AdapterFamily[]): Promise<string[]> {
      if (families.length === 0) return [];
      const rows = await db
        .withTables<TelemetryDB>()
        .selectFrom('devices as d')
        .innerJoin('device_states as s', 's.device_id', 'd.id')
        .select('d.mac')
        .where('d.family', 'in', [...families])
        .where('s.status', '=', 1)
        .execute();
      return rows.map((r) => r.mac);
    },
    /** The family device of a mac; null for a device of the portal's own protocol or none. */
    async byMac(mac: string): Promise<FamilyDeviceRow | null> {
      const row = await db
        .selectFrom('devices')
        .select(['mac', 'family', 'family_topic', 'family_tz', 'family_mapping'])
        .where('mac', '=', mac)
        .executeTakeFirst();
      if (!row?.family_topic || !isAdapterFamily(row.family)) return null;
      return {
        family: row.family,
        topic: row.family_topic,
        mac: row.mac,
        tz: row.family_tz,
        mapping: storedMapping(row.family_mapping),
      };
    },
  };
}
/** SQL for the family and topic of devices. */
export type FamilyDevicesRepository = ReturnType<typeof familyDevicesRepository>;
