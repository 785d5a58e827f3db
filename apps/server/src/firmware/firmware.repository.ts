import type { Selectable } from 'kysely';
import type { Database } from '../db/database';
import type { FirmwareUpgradesTable } from '../db/schema';
import type { TelemetryDB } from '../db/schema.telemetry';

/** An upgrade row with the login of who started it. */
export type UpgradeRow = Omit<Selectable<FirmwareUpgradesTable>, 'user_id'> & { login: string | null };

/** States after which an upgrade is over, as stored. */
const FINAL = ['DONE', 'FAILED', 'TIMEOUT', 'NOT_AVAILABLE'];

/** SQL of firmware versions and upgrades. */
export function firmwareRepository(database: Database) {
  const { db } = database;
  const upgrades = () =>
    db
      .selectFrom('firmware_upgrades as f')
      .leftJoin('users as u', 'u.id', 'f.user_id')
      .select([
        'f.id',
        'f.device_id',
        'f.from_fw',
        'f.to_fw',
        'f.fw_after',
        'f.state',
        'f.progress',
        'f.started_at_ms',
        'f.updated_at_ms',
        'f.finished_at_ms',
        'u.login',
      ]);
  const versionColumns = [
    'id',
    'device_type',
    'version',
    'image_name',
    'size_bytes',
    'sha256',
    'created_at_ms',
  ] as const;

  return {
    listVersions() {
      return db
        .selectFrom('firmware_versions')
        .select(versionColumns)
        .orderBy('device_type')
        .orderBy('created_at_ms', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },
    findVersion(deviceType: number, version: string) {
      return db
        .selectFrom('firmware_versions')
        .select(versionColumns)
        .where('device_type', '=', deviceType)
        .where('version', '=', version)
        .executeTakeFirst();
    },
    async insertVersion(v: {
      deviceType: number;
      version: string;
      image: { name: string; bytes: Buffer; sha256: string } | null;
      createdBy: number;
      atMs: number;
    }): Promise<number> {
      const r = await db
        .insertInto('firmware_versions')
        .values({
          device_type: v.deviceType,
          version: v.version,
          image_name: v.image?.name ?? null,
          size_bytes: v.image?.bytes.length ?? null,
          sha256: v.image?.sha256 ?? null,
          image: v.image?.bytes ?? null,
          created_by: v.createdBy,
          created_at_ms: v.atMs,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },

    /** What the device last reported: online status code and firmware version. */
    async deviceState(deviceId: number): Promise<{ status: number; fw: string | null } | null> {
      const r = await db
        .withTables<TelemetryDB>()
        .selectFrom('device_states')
        .select(['status', 'fw'])
        .where('device_id', '=', deviceId)
        .executeTakeFirst();
      return r ?? null;
    },

    async insertUpgrade(u: {
      deviceId: number;
      userId: number;
      fromFw: string | null;
      toFw: string;
      atMs: number;
    }): Promise<number> {
      const r = await db
        .insertInto('firmware_upgrades')
        .values({
          device_id: u.deviceId,
          user_id: u.userId,
          from_fw: u.fromFw,
          to_fw: u.toFw,
          fw_after: null,
          state: 'STARTING',
          progress: 0,
          started_at_ms: u.atMs,
          updated_at_ms: u.atMs,
          finished_at_ms: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },
    async deleteUpgrade(id: number): Promise<void> {
      await db.deleteFrom('firmware_upgrades').where('id', '=', id).execute();
    },
    async updateUpgrade(
      id: number,
      u: { state: string; progress: number; atMs: number; finished: boolean; fwAfter?: string | null },
    ): Promise<void> {
      await db
        .updateTable('firmware_upgrades')
        .set({
          state: u.state,
          progress: Math.round(u.progress),
          updated_at_ms: u.atMs,
          ...(u.finished ? { finished_at_ms: u.atMs } : {}),
          ...(u.fwAfter !== undefined ? { fw_after: u.fwAfter } : {}),
        })
        .where('id', '=', id)
        .execute();
    },
    /** Marks a running upgrade alive without changing its state. */
    async touchUpgrade(id: number, atMs: number): Promise<void> {
      await db.updateTable('firmware_upgrades').set({ updated_at_ms: atMs }).where('id', '=', id).execute();
    },
    upgrade(id: number): Promise<UpgradeRow | undefined> {
      return upgrades().where('f.id', '=', id).executeTakeFirst();
    },
    /** The running upgrade of a device, if any. */
    activeUpgrade(deviceId: number): Promise<UpgradeRow | undefined> {
      return upgrades()
        .where('f.device_id', '=', deviceId)
        .where('f.state', 'not in', FINAL)
        .orderBy('f.id', 'desc')
        .executeTakeFirst();
    },
    upgradesOf(deviceId: number, limit: number): Promise<UpgradeRow[]> {
      return upgrades()
        .where('f.device_id', '=', deviceId)
        .orderBy('f.started_at_ms', 'desc')
        .orderBy('f.id', 'desc')
        .limit(limit)
        .execute();
    },
    /** Running upgrades whose device has been silent since before `beforeMs`, with the device's mac. */
    silentUpgrades(beforeMs: number) {
      return db
        .selectFrom('firmware_upgrades as f')
        .innerJoin('devices as d', 'd.id', 'f.device_id')
        .select(['f.id', 'f.device_id', 'f.to_fw', 'f.progress', 'd.mac'])
        .where('f.state', 'not in', FINAL)
        .where('f.updated_at_ms', '<', beforeMs)
        .execute();
    },
  };
}
/** SQL of firmware versions and upgrades. */
export type FirmwareRepository = ReturnType<typeof firmwareRepository>;
