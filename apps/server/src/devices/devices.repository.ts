import type { Insertable, Selectable } from 'kysely';
import { Application } from '@meterportal/protocol';
import type { Database } from '../db/database';
import type { DevicesTable } from '../db/schema';
import type { TelemetryDB } from '../db/schema.telemetry';
import { toUserRow } from '../auth/users.repository';

/** A stored device. */
export type DeviceRow = Selectable<DevicesTable>;
/** A device as one user may see it. */
export type AssignedDevice = DeviceRow & { owner: number; life_time_sec: number };

/** SQL for devices, assignments, details and hierarchies. */
export function devicesRepository({ db }: Database) {
  const assigned = () =>
    db
      .selectFrom('assignments as a')
      .innerJoin('devices as d', 'd.id', 'a.device_id')
      .selectAll('d')
      .select(['a.owner', 'a.life_time_sec']);
  return {
    listForUser(userId: number, nowSec: number): Promise<AssignedDevice[]> {
      return assigned()
        .where('a.user_id', '=', userId)
        .where('a.life_time_sec', '>', nowSec)
        .orderBy('d.mac')
        .execute();
    },
    findAssigned(userId: number, mac: string, nowSec: number): Promise<AssignedDevice | undefined> {
      return assigned()
        .where('a.user_id', '=', userId)
        .where('d.mac', '=', mac)
        .where('a.life_time_sec', '>', nowSec)
        .executeTakeFirst();
    },
    findByMac(mac: string): Promise<DeviceRow | undefined> {
      return db.selectFrom('devices').selectAll().where('mac', '=', mac).executeTakeFirst();
    },
    listAll(): Promise<DeviceRow[]> {
      return db.selectFrom('devices').selectAll().orderBy('mac').execute();
    },
    createDevice(row: Insertable<DevicesTable>): Promise<DeviceRow> {
      return db.insertInto('devices').values(row).returningAll().executeTakeFirstOrThrow();
    },
    /** Adds a device and makes every user manager its owner, in one transaction. */
    createOwnedByManagers(
      row: Insertable<DevicesTable>,
      ownerLifeTimeSec: number,
      nowMs: number,
    ): Promise<DeviceRow> {
      return db.transaction().execute(async (trx) => {
        const created = await trx.insertInto('devices').values(row).returningAll().executeTakeFirstOrThrow();
        const users = await trx.selectFrom('users').select(['id', 'applications']).execute();
        for (const m of users
          .map(toUserRow)
          .filter((u) => u.applications.includes(Application.UserManager))) {
          await trx
            .insertInto('assignments')
            .values({
              user_id: m.id,
              device_id: created.id,
              owner: 1,
              life_time_sec: ownerLifeTimeSec,
              created_at_ms: nowMs,
            })
            .execute();
        }
        return created;
      });
    },
    /** Every device with its family, the broker username it holds credentials under, and its state. */
    listWithCredentials(): Promise<
      {
        mac: string;
        type: number;
        title: string;
        family: string;
        family_topic: string | null;
        family_tz: string | null;
        family_mapping: string | null;
        username: string | null;
        status: number | null;
      }[]
    > {
      return db
        .withTables<TelemetryDB>()
        .selectFrom('devices')
        .leftJoin('device_credentials', 'device_credentials.device_id', 'devices.id')
        .leftJoin('device_states', 'device_states.device_id', 'devices.id')
        .select([
          'devices.mac',
          'devices.type',
          'devices.title',
          'devices.family',
          'devices.family_topic',
          'devices.family_tz',
          'devices.family_mapping',
          'device_credentials.username',
          'device_states.status',
        ])
        .orderBy('devices.mac')
        .execute();
    },
    async assign(a: {
      userId: number;
      deviceId: number;
      owner: boolean;
      lifeTimeSec: number;
      nowMs: number;
    }) {
      await db
        .insertInto('assignments')
        .values({
          user_id: a.userId,
          device_id: a.deviceId,
          owner: a.owner ? 1 : 0,
          life_time_sec: a.lifeTimeSec,
          created_at_ms: a.nowMs,
        })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'device_id'])
            .doUpdateSet({ owner: a.owner ? 1 : 0, life_time_sec: a.lifeTimeSec }),
        )
        .execute();
    },
    async unassign(userId: number, deviceId: number): Promise<void> {
      await db
        .deleteFrom('assignments')
        .where('user_id', '=', userId)
        .where('device_id', '=', deviceId)
        .execute();
    },
    getDetails(deviceId: number) {
      return db.selectFrom('device_details').selectAll().where('device_id', '=', deviceId).executeTakeFirst();
    },
    /** The device's online status code from its last state message; null when it never reported. */
    async onlineStatus(deviceId: number): Promise<number | null> {
      const r = await db
        .withTables<Pick<TelemetryDB, 'device_states'>>()
        .selectFrom('device_states')
        .select('status')
        .where('device_id', '=', deviceId)
        .executeTakeFirst();
      return r?.status ?? null;
    },
    /** The meter's clock error while its frames are refused for their time, else null. */
    async getClockSkew(deviceId: number): Promise<number | null> {
      const r = await db
        .withTables<Pick<TelemetryDB, 'device_states'>>()
        .selectFrom('device_states')
        .select('clock_skew_sec')
        .where('device_id', '=', deviceId)
        .executeTakeFirst();
      return r?.clock_skew_sec ?? null;
    },
    async saveDetails(deviceId: number, mrkW: number, rkW: number, nowMs: number): Promise<void> {
      await db
        .insertInto('device_details')
        .values({ device_id: deviceId, mrk_w: mrkW, rk_w: rkW, updated_at_ms: nowMs })
        .onConflict((oc) =>
          oc.column('device_id').doUpdateSet({ mrk_w: mrkW, rk_w: rkW, updated_at_ms: nowMs }),
        )
        .execute();
    },
    async getHierarchy(userId: number): Promise<string | undefined> {
      const r = await db
        .selectFrom('hierarchies')
        .select('menu')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return r?.menu;
    },
    async saveHierarchy(userId: number, menu: string, nowMs: number): Promise<void> {
      await db
        .insertInto('hierarchies')
        .values({ user_id: userId, menu, updated_at_ms: nowMs })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ menu, updated_at_ms: nowMs }))
        .execute();
    },
  };
}
/** SQL for devices, assignments, details and hierarchies. */
export type DevicesRepository = ReturnType<typeof devicesRepository>;
