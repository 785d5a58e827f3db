import type { Kysely } from 'kysely';
import type { Database } from '../db/database';
import { devicesRepository } from '../devices/devices.repository';
import type { DB } from '../db/schema';

/** A meter as stored (fields still as canonical JSON). */
export interface StoredMeter {
  id: number;
  device_id: number;
  idn: string;
  fields: string;
  crc: string;
  mtime_sec: number;
}

/** A meter to write: canonical fields, their CRC and the change time. */
export interface MeterWrite {
  idn: string;
  fields: string;
  crc: string;
  mtimeSec: number;
}

/** A test result to store. */
export interface TestWrite {
  deviceId: number;
  idn: string;
  mtimeSec: number;
  /** JSON of the result as received. */
  result: string;
  receivedAtMs: number;
}

/** The meter_tests row of a test result. */
export const meterTestRow = (t: TestWrite) => ({
  device_id: t.deviceId,
  idn: t.idn,
  mtime_sec: t.mtimeSec,
  result: t.result,
  received_at_ms: t.receivedAtMs,
});

/** SQL of the meter database, meter images and meter tests. */
export function metersRepository(database: Database) {
  const devices = devicesRepository(database);
  const { db } = database;

  /** Stored tests per IDN of one device. */
  async function testCounts(q: Kysely<DB>, deviceId: number): Promise<Map<string, number>> {
    const rows = await q
      .selectFrom('meter_tests')
      .select(['idn', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('device_id', '=', deviceId)
      .groupBy('idn')
      .execute();
    return new Map(rows.map((r) => [r.idn, Number(r.n)]));
  }

  async function deleteMeters(q: Kysely<DB>, deviceId: number, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await q.deleteFrom('meter_images').where('meter_id', 'in', ids).execute();
    await q.deleteFrom('meters').where('device_id', '=', deviceId).where('id', 'in', ids).execute();
  }

  return {
    /** The device's meters, last changed first, with their stored test counts. */
    async list(deviceId: number): Promise<(StoredMeter & { tests: number })[]> {
      const rows = await db
        .selectFrom('meters')
        .selectAll()
        .where('device_id', '=', deviceId)
        .orderBy('mtime_sec', 'desc')
        .orderBy('id', 'desc')
        .execute();
      const counts = await testCounts(db, deviceId);
      return rows.map((r) => ({ ...r, mtime_sec: Number(r.mtime_sec), tests: counts.get(r.idn) ?? 0 }));
    },

    /** One meter of one device, or undefined (a meter of another device is not found). */
    async find(deviceId: number, meterId: number): Promise<StoredMeter | undefined> {
      const r = await db
        .selectFrom('meters')
        .selectAll()
        .where('device_id', '=', deviceId)
        .where('id', '=', meterId)
        .executeTakeFirst();
      return r ? { ...r, mtime_sec: Number(r.mtime_sec) } : undefined;
    },

    /** Every IDN the device has used, by a meter or a stored test. */
    async usedIdns(deviceId: number): Promise<string[]> {
      const [m, t] = await Promise.all([
        db.selectFrom('meters').select('idn').where('device_id', '=', deviceId).execute(),
        db.selectFrom('meter_tests').select('idn').distinct().where('device_id', '=', deviceId).execute(),
      ]);
      return [...m, ...t].map((r) => r.idn);
    },

    async insert(deviceId: number, m: MeterWrite): Promise<number> {
      const r = await db
        .insertInto('meters')
        .values({ device_id: deviceId, idn: m.idn, fields: m.fields, crc: m.crc, mtime_sec: m.mtimeSec })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },

    /** New fields and CRC of a meter; its MTIME stays. */
    async update(deviceId: number, meterId: number, m: Pick<MeterWrite, 'fields' | 'crc'>): Promise<boolean> {
      const r = await db
        .updateTable('meters')
        .set({ fields: m.fields, crc: m.crc })
        .where('device_id', '=', deviceId)
        .where('id', '=', meterId)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** Deletes a meter and its images (its tests stay with the device's history). */
    async remove(deviceId: number, meterId: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const found = await trx
          .selectFrom('meters')
          .select('id')
          .where('device_id', '=', deviceId)
          .where('id', '=', meterId)
          .executeTakeFirst();
        if (!found) return false;
        await deleteMeters(trx, deviceId, [meterId]);
        return true;
      });
    },

    /**
     * Makes the device's meter list exactly `meters`, in one transaction: a meter whose IDN is
     * already stored keeps its id and images, new IDNs are added, the rest are deleted.
     */
    async replaceAll(deviceId: number, meters: readonly MeterWrite[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom('meters')
          .select(['id', 'idn'])
          .where('device_id', '=', deviceId)
          .execute();
        const byIdn = new Map(existing.map((r) => [r.idn, r.id]));
        const keep = new Set(meters.map((m) => m.idn));
        await deleteMeters(
          trx,
          deviceId,
          existing.filter((r) => !keep.has(r.idn)).map((r) => r.id),
        );
        for (const m of meters) {
          const id = byIdn.get(m.idn);
          if (id === undefined) {
            await trx
              .insertInto('meters')
              .values({
                device_id: deviceId,
                idn: m.idn,
                fields: m.fields,
                crc: m.crc,
                mtime_sec: m.mtimeSec,
              })
              .execute();
          } else {
            await trx
              .updateTable('meters')
              .set({ fields: m.fields, crc: m.crc, mtime_sec: m.mtimeSec })
              .where('id', '=', id)
              .execute();
          }
        }
      });
    },

    /** Tests of one meter of a device, newest first. */
    tests(deviceId: number, idn: string) {
      return db
        .selectFrom('meter_tests')
        .select(['id', 'result'])
        .where('device_id', '=', deviceId)
        .where('idn', '=', idn)
        .orderBy('mtime_sec', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },

    /** Stores test results; one already stored (same device, IDN and time) is left as it is. */
    async insertTests(tests: readonly TestWrite[]): Promise<void> {
      for (const t of tests) {
        await db
          .insertInto('meter_tests')
          .values(meterTestRow(t))
          .onConflict((oc) => oc.columns(['device_id', 'idn', 'mtime_sec']).doNothing())
          .execute();
      }
    },

    /** Adds images to a meter, all or none. */
    async addImages(
      meterId: number,
      images: readonly { name: string; type: string; bytes: Buffer }[],
      nowMs: number,
    ): Promise<number[]> {
      return db.transaction().execute(async (trx) => {
        const ids: number[] = [];
        for (const img of images) {
          const r = await trx
            .insertInto('meter_images')
            .values({
              meter_id: meterId,
              name: img.name,
              content_type: img.type,
              size_bytes: img.bytes.length,
              bytes: img.bytes,
              created_at_ms: nowMs,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          ids.push(r.id);
        }
        return ids;
      });
    },

    listImages(meterId: number) {
      return db
        .selectFrom('meter_images')
        .select(['id', 'name', 'content_type', 'size_bytes'])
        .where('meter_id', '=', meterId)
        .orderBy('id')
        .execute();
    },

    /** An image with its bytes, when it belongs to a meter of this device. */
    image(deviceId: number, imageId: number) {
      return db
        .selectFrom('meter_images as i')
        .innerJoin('meters as m', 'm.id', 'i.meter_id')
        .select(['i.id', 'i.name', 'i.content_type', 'i.bytes'])
        .where('i.id', '=', imageId)
        .where('m.device_id', '=', deviceId)
        .executeTakeFirst();
    },

    /** Online status code of a device (OnlineStatus), null when it never reported. */
    status: (deviceId: number): Promise<number | null> => devices.onlineStatus(deviceId),
  };
}
/** SQL of the meter database, meter images and meter tests. */
export type MetersRepository = ReturnType<typeof metersRepository>;
