import type { Database } from '../db/database';
import type { TelemetryDB } from '../db/schema.telemetry';
import { deleteMatching, updateMatching } from '../db/keyed';

/** A site map without its image bytes. */
export interface SiteMapRow {
  id: number;
  name: string;
  content_type: string;
  size_bytes: number;
}

/** A pin as stored. */
export interface SitePinRow {
  map_id: number;
  device_id: number;
  group_name: string;
  x: number;
  y: number;
}

/** SQL of site maps and their pins; every read and write is scoped to the map's user. */
export function siteMapsRepository(database: Database) {
  const { db } = database;
  return {
    list(userId: number): Promise<SiteMapRow[]> {
      return db
        .selectFrom('site_maps')
        .select(['id', 'name', 'content_type', 'size_bytes'])
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
    },
    async count(userId: number): Promise<number> {
      const r = await db
        .selectFrom('site_maps')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    find(userId: number, id: number): Promise<SiteMapRow | undefined> {
      return db
        .selectFrom('site_maps')
        .select(['id', 'name', 'content_type', 'size_bytes'])
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    image(userId: number, id: number): Promise<{ content_type: string; bytes: Uint8Array } | undefined> {
      return db
        .selectFrom('site_maps')
        .select(['content_type', 'bytes'])
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    async insert(m: {
      userId: number;
      name: string;
      type: string;
      bytes: Buffer;
      nowMs: number;
    }): Promise<number> {
      const r = await db
        .insertInto('site_maps')
        .values({
          user_id: m.userId,
          name: m.name,
          content_type: m.type,
          size_bytes: m.bytes.length,
          bytes: m.bytes,
          created_at_ms: m.nowMs,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },
    async rename(userId: number, id: number, name: string): Promise<boolean> {
      return updateMatching(db, 'site_maps', { name }, { user_id: userId, id });
    },
    /** Deletes the map and its pins together. */
    remove(userId: number, id: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const owned = await trx
          .selectFrom('site_maps')
          .select('id')
          .where('user_id', '=', userId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!owned) return false;
        await trx.deleteFrom('site_map_pins').where('map_id', '=', id).execute();
        await trx.deleteFrom('site_maps').where('id', '=', id).execute();
        return true;
      });
    },
    pins(mapIds: number[]): Promise<SitePinRow[]> {
      if (mapIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('site_map_pins')
        .select(['map_id', 'device_id', 'group_name', 'x', 'y'])
        .where('map_id', 'in', mapIds)
        .orderBy('map_id')
        .orderBy('device_id')
        .execute();
    },
    /** Places a device on a map, or moves it when it is already there. */
    savePin(p: SitePinRow): Promise<void> {
      return db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('site_map_pins')
          .set({ group_name: p.group_name, x: p.x, y: p.y })
          .where('map_id', '=', p.map_id)
          .where('device_id', '=', p.device_id)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) await trx.insertInto('site_map_pins').values(p).execute();
      });
    },
    async removePin(mapId: number, deviceId: number): Promise<boolean> {
      return deleteMatching(db, 'site_map_pins', { map_id: mapId, device_id: deviceId });
    },
    /** Devices among these that report themselves online. */
    async online(deviceIds: number[]): Promise<Set<number>> {
      if (deviceIds.length === 0) return new Set();
      const rows = await db
        .withTables<TelemetryDB>()
        .selectFrom('device_states')
        .select('device_id')
        .where('device_id', 'in', deviceIds)
        .where('status', 'in', [1, 2])
        .execute();
      return new Set(rows.map((r) => r.device_id));
    },
    /** Devices among these with an alarm of this user that is not cleared. */
    async alarmed(userId: number, deviceIds: number[]): Promise<Set<number>> {
      if (deviceIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('alarms')
        .select('device_id')
        .distinct()
        .where('user_id', '=', userId)
        .where('device_id', 'in', deviceIds)
        .where('state', '!=', 'cleared')
        .execute();
      return new Set(rows.map((r) => r.device_id));
    },
  };
}
/** SQL of site maps. */
export type SiteMapsRepository = ReturnType<typeof siteMapsRepository>;
