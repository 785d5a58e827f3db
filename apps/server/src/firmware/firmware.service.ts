import {
  Application,
  DeviceType,
  FINAL_UPGRADE_STATES,
  FIRMWARE_HISTORY_LIMIT,
  OnlineStatus,
  UPGRADE_STATES,
  type DeviceMessage,
  type FirmwareVersionEntry,
  type UpgradeEntry,
  type UpgradeState,
} from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { Session } from '../auth/auth.service';
import type { DevicesService, SessionUser } from '../devices/devices.service';
import { Conflict, DeviceNotResponding, Forbidden, InvalidRequest, NotFound } from '../http/errors';
import type { LiveBus } from '../live/bus';
import type { DeviceCommander } from '../precision/commands.service';
import type { MultipartFile } from '../http/multipart';
import { isUniqueViolation } from '../db/unique-violation';
import { checkedImage } from './firmware-fns';
import type { FirmwareRepository, UpgradeRow } from './firmware.repository';

/** How often running upgrades are checked for a silent device, ms. */
const SWEEP_INTERVAL_MS = 1000;

const stateOf = (s: string): UpgradeState =>
  (UPGRADE_STATES as readonly string[]).includes(s) ? (s as UpgradeState) : 'FAILED';

function toEntry(r: UpgradeRow): UpgradeEntry {
  return {
    id: r.id,
    state: stateOf(r.state),
    progress: r.progress,
    fromFw: r.from_fw,
    toFw: r.to_fw,
    fwAfter: r.fw_after,
    login: r.login,
    startedAtMs: Number(r.started_at_ms),
    updatedAtMs: Number(r.updated_at_ms),
    finishedAtMs: r.finished_at_ms === null ? null : Number(r.finished_at_ms),
  };
}

/**
 * Firmware versions per device type (registered by user managers, optionally with an image) and
 * upgrades of owned devices: started by the device command, followed through the device's
 * Upgrade messages, timed out when the device goes silent, and kept as history.
 */
export function firmwareService(deps: {
  repo: FirmwareRepository;
  devices: DevicesService;
  commander: DeviceCommander;
  bus: LiveBus;
  clock: Clock;
  /** Silence after which a running upgrade times out, ms. */
  timeoutMs: number;
  /** Where a failed update of an upgrade row is reported. */
  onError: (err: unknown) => void;
}) {
  const { repo, devices, commander, bus, clock, timeoutMs } = deps;
  // The version each device last reported in its state, so an upgrade's outcome names it.
  const reportedFw = new Map<number, string>();
  // Device messages change rows in the order they arrived.
  let chain: Promise<void> = Promise.resolve();

  async function ownDevice(user: SessionUser, token: string) {
    const d = await devices.resolve(user, token);
    if (d.owner !== 1) throw new NotFound();
    return d;
  }

  async function entry(id: number): Promise<UpgradeEntry> {
    const row = await repo.upgrade(id);
    if (!row) throw new NotFound();
    return toEntry(row);
  }

  async function onUpgradeMessage(deviceId: number, state: UpgradeState, progress: number, fw: string) {
    const active = await repo.activeUpgrade(deviceId);
    if (!active || active.to_fw !== fw) return;
    const finished = FINAL_UPGRADE_STATES.includes(state);
    await repo.updateUpgrade(active.id, {
      state,
      // A step without progress (rebooting, failed) keeps the bar where it was.
      progress: state === 'DONE' ? 100 : Math.max(progress, state === 'FAILED' ? 0 : active.progress),
      atMs: clock.nowMs(),
      finished,
      ...(finished ? { fwAfter: reportedFw.get(deviceId) ?? (state === 'DONE' ? fw : active.from_fw) } : {}),
    });
  }

  async function onStateMessage(deviceId: number, fw: string | undefined) {
    if (fw) reportedFw.set(deviceId, fw);
    // A device that comes back from its reboot is alive: its upgrade is not silent.
    const active = await repo.activeUpgrade(deviceId);
    if (active) await repo.touchUpgrade(active.id, clock.nowMs());
  }

  /** Times out running upgrades whose device has said nothing for the timeout. */
  async function sweep(): Promise<number> {
    const now = clock.nowMs();
    const silent = await repo.silentUpgrades(now - timeoutMs);
    for (const u of silent) {
      await repo.updateUpgrade(u.id, {
        state: 'TIMEOUT',
        progress: u.progress,
        atMs: now,
        finished: true,
        fwAfter: reportedFw.get(u.device_id) ?? null,
      });
      bus.publish(u.mac, {
        kind: 'data',
        topic: 'Upgrade',
        payload: { id: `upgrade-${u.id}`, state: 'TIMEOUT', progress: u.progress, fw: u.to_fw },
      });
    }
    return silent.length;
  }

  return {
    /** Every registered version; any signed-in user (owners choose from them), as the route declares. */
    async versions(): Promise<FirmwareVersionEntry[]> {
      const rows = await repo.listVersions();
      return rows.map((r) => ({
        id: r.id,
        deviceType: r.device_type,
        version: r.version,
        imageName: r.image_name,
        sizeBytes: r.size_bytes,
        sha256: r.sha256,
        createdAtMs: Number(r.created_at_ms),
      }));
    },

    /** Registers a version for a device type, with its image when one is sent; user managers only. */
    async addVersion(
      user: Session,
      fields: { device_type: number; version: string },
      files: readonly MultipartFile[],
    ): Promise<FirmwareVersionEntry> {
      const s = user;
      if (!s.applications.includes(Application.UserManager))
        throw new Forbidden('User manager right required');
      const image = checkedImage(files);
      const atMs = clock.nowMs();
      let id: number;
      try {
        id = await repo.insertVersion({
          deviceType: fields.device_type,
          version: fields.version,
          image,
          createdBy: s.userId,
          atMs,
        });
      } catch (err) {
        if (isUniqueViolation(err))
          throw new Conflict(
            `Version ${fields.version} is already registered for device type ${fields.device_type}`,
          );
        throw err;
      }
      return {
        id,
        deviceType: fields.device_type,
        version: fields.version,
        imageName: image?.name ?? null,
        sizeBytes: image?.bytes.length ?? null,
        sha256: image?.sha256 ?? null,
        createdAtMs: atMs,
      };
    },

    /** Version, online state and upgrades of an owned device. */
    async status(user: SessionUser, token: string) {
      const d = await ownDevice(user, token);
      const [state, rows] = await Promise.all([
        repo.deviceState(d.id),
        repo.upgradesOf(d.id, FIRMWARE_HISTORY_LIMIT),
      ]);
      return {
        fw: state?.fw ?? null,
        online: state?.status === OnlineStatus.Online,
        upgrades: rows.map(toEntry),
      };
    },

    /**
     * Starts an upgrade of an owned, online device to a version registered for its type. The
     * device's refusal NOT_AVAILABLE is kept as the outcome; no answer is 604 and leaves nothing.
     */
    async start(user: SessionUser, token: string, fw: string): Promise<UpgradeEntry> {
      const d = await ownDevice(user, token);
      if (d.type === DeviceType.Plug || !(await repo.findVersion(d.type, fw)))
        throw new InvalidRequest(
          `Firmware upgrade not available for this device: no version ${fw} for its type`,
        );
      const state = await repo.deviceState(d.id);
      if (state?.status !== OnlineStatus.Online) throw new DeviceNotResponding();
      if (await repo.activeUpgrade(d.id)) throw new Conflict('An upgrade of this device is already running');
      // The row exists before the command goes out: the device's first progress may beat its reply.
      const id = await repo.insertUpgrade({
        deviceId: d.id,
        userId: user.userId,
        fromFw: state.fw,
        toFw: fw,
        atMs: clock.nowMs(),
      });
      try {
        const reply = await commander.send(d.mac, { cmd: 'FIRMWARE_UPGRADE', fw });
        if (!reply.ok) {
          if (reply.error !== 'NOT_AVAILABLE')
            throw new Conflict(`Device refused the command: ${reply.error}`);
          await repo.updateUpgrade(id, {
            state: 'NOT_AVAILABLE',
            progress: 0,
            atMs: clock.nowMs(),
            finished: true,
            fwAfter: state.fw,
          });
        }
      } catch (err) {
        await repo.deleteUpgrade(id);
        throw err instanceof Conflict ? err : new DeviceNotResponding();
      }
      return entry(id);
    },

    /** Follows upgrades through the device's messages (its progress and its state after reboot). */
    onDeviceMessage(message: DeviceMessage, deviceId: number): Promise<void> {
      if (message.kind !== 'upgrade' && message.kind !== 'state') return chain;
      chain = chain
        .then(() =>
          message.kind === 'upgrade'
            ? onUpgradeMessage(deviceId, message.payload.state, message.payload.progress, message.payload.fw)
            : onStateMessage(deviceId, message.payload.fw),
        )
        .catch(deps.onError);
      return chain;
    },

    sweep,

    /** Checks for silent devices every second; answers the stop function. */
    startTimeouts(onError: (err: unknown) => void): () => void {
      const timer = setInterval(() => void sweep().catch(onError), SWEEP_INTERVAL_MS);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
/** Firmware versions and upgrades. */
export type FirmwareService = ReturnType<typeof firmwareService>;
