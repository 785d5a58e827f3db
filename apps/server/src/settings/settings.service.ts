import {
  OnlineStatus,
  type DeviceSettings,
  type SettingsWrite,
  type SettingsWriteRequest,
} from '@meterportal/protocol';
import type { DevicesService, SessionUser } from '../devices/devices.service';
import type { AssignedDevice } from '../devices/devices.repository';
import { DeviceNotResponding, InvalidRequest, NotFound } from '../http/errors';
import type { CommandsService } from '../precision/commands.service';
import type { DevicesRepository } from '../devices/devices.repository';

/**
 * Why a section cannot go to this device, or null: LoRa needs a LoRa radio, and a measuring
 * channel must be one of the phases the device has wired.
 */
export function sectionProblem(
  device: Pick<AssignedDevice, 'lora' | 'phase_use'>,
  write: SettingsWrite,
): string | null {
  if (write.section === 'lora' && device.lora !== 1) return 'This device has no LoRa radio';
  if (write.section === 'measurement') {
    const phases = Math.min(Math.max(device.phase_use, 1), 3);
    const beyond = write.measurement.activeChannels.find((c) => Number(c.slice(1)) > phases);
    if (beyond)
      return `Invalid request at measurement.activeChannels: ${beyond} is not wired on this device (${phases} phase${phases === 1 ? '' : 's'})`;
  }
  return null;
}

/**
 * LoRa, WiFi and measurement settings of owned devices, read from the device and written back
 * through the device command. Keys and the WiFi password only ever travel towards the device.
 */
export function settingsService(deps: {
  repo: Pick<DevicesRepository, 'onlineStatus'>;
  devices: DevicesService;
  commands: CommandsService;
}) {
  const { repo, devices, commands } = deps;

  /** The device behind a token, when the caller owns it; anything else looks like absence. */
  async function ownDevice(user: SessionUser, token: string) {
    const d = await devices.resolve(user, token);
    if (d.owner !== 1) throw new NotFound();
    return d;
  }

  /** An offline device is not asked at all: it answers like a device that stays silent. */
  async function requireOnline(d: AssignedDevice) {
    if ((await repo.onlineStatus(d.id)) !== OnlineStatus.Online) throw new DeviceNotResponding();
  }

  /** What the browser sees: LoRa only for a LoRa-capable device, whatever the device sent. */
  const view = (d: AssignedDevice, s: DeviceSettings): DeviceSettings => ({
    lora: d.lora === 1 ? s.lora : null,
    wifi: { ssid: s.wifi.ssid, passwordSet: s.wifi.passwordSet, ip: s.wifi.ip },
    measurement: s.measurement,
  });

  return {
    /** The settings the device reports now; 604 when it is offline or does not answer. */
    async read(user: SessionUser, token: string, signal?: AbortSignal): Promise<DeviceSettings> {
      const d = await ownDevice(user, token);
      await requireOnline(d);
      const reply = await commands.call(d.mac, { cmd: 'SETTINGS_READ' }, signal);
      if (reply.ok && reply.cmd === 'SETTINGS_READ') return view(d, reply.result);
      throw new DeviceNotResponding();
    },

    /**
     * Writes one section; answers the settings the device confirmed having applied. Nothing is
     * sent when the section does not fit the device or the device is offline.
     */
    async write(user: SessionUser, body: SettingsWriteRequest): Promise<DeviceSettings> {
      const d = await ownDevice(user, body.token);
      const settings: SettingsWrite =
        body.section === 'lora'
          ? { section: 'lora', lora: body.lora }
          : body.section === 'wifi'
            ? { section: 'wifi', wifi: body.wifi }
            : { section: 'measurement', measurement: body.measurement };
      const problem = sectionProblem(d, settings);
      if (problem) throw new InvalidRequest(problem);
      await requireOnline(d);
      const reply = await commands.call(d.mac, { cmd: 'SETTINGS_WRITE', settings });
      if (reply.ok && reply.cmd === 'SETTINGS_WRITE') return view(d, reply.result);
      throw new DeviceNotResponding();
    },
  };
}
/** Device settings. */
export type SettingsService = ReturnType<typeof settingsService>;
