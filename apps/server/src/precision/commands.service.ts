import {
  DeviceType,
  type CommandReply,
  type HarmonicsResult,
  type MeterRecord,
  type SettingsWrite,
  type WaveformResult,
} from '@meterportal/protocol';
import type { DevicesService, SessionUser } from '../devices/devices.service';
import { AppError, DeviceNotResponding, Forbidden, InvalidRequest } from '../http/errors';
import { ErrorCode } from '@meterportal/protocol';

/** A command as the device link takes it (without correlation id). */
export type DeviceCommand =
  | { cmd: 'HARMONICS' }
  | { cmd: 'WAVEFORM' }
  | { cmd: 'METERS_UPLOAD' }
  | { cmd: 'METERS_DOWNLOAD'; meters: MeterRecord[] }
  | { cmd: 'FIRMWARE_UPGRADE'; fw: string }
  | { cmd: 'RELAY'; state: 'OPEN' | 'CLOSED' }
  | { cmd: 'SETTINGS_READ' }
  | { cmd: 'SETTINGS_WRITE'; settings: SettingsWrite }
  | { cmd: 'NILM_TEACH_START'; name: string }
  | { cmd: 'NILM_TEACH_STOP'; name: string }
  | { cmd: 'NILM_FORGET'; name: string; imprintOnly: boolean }
  | { cmd: 'NILM_SETTINGS'; process: boolean; autoLearn: boolean };

/** Sends commands to devices over the broker and waits for the reply. */
export interface DeviceCommander {
  /** Rejects with a 604 error when the device does not answer in time; the signal drops the wait. */
  send(mac: string, command: DeviceCommand, signal?: AbortSignal): Promise<CommandReply>;
}

/** The device refused the command (busy, not supported, not available). */
class DeviceRefused extends AppError {
  constructor(reason: string) {
    super(ErrorCode.Conflict, `Device refused the command: ${reason}`);
  }
}

/** Request/reply commands to a user's devices. */
export function commandsService(deps: { devices: DevicesService; commander: DeviceCommander }) {
  const { devices, commander } = deps;

  async function send(mac: string, command: DeviceCommand, signal?: AbortSignal) {
    let reply: CommandReply;
    try {
      reply = await commander.send(mac, command, signal);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new DeviceNotResponding();
    }
    if (!reply.ok) throw new DeviceRefused(reply.error);
    return reply;
  }

  async function precision(user: SessionUser, token: string) {
    const device = await devices.resolve(user, token);
    if (device.type !== DeviceType.Precision) throw new InvalidRequest('Device is not a precision analyzer');
    return device;
  }

  return {
    /**
     * Sends a command to a device the caller has already authorized; answers the device's ok
     * reply, 604 when it does not answer, 608 when it refuses.
     */
    call: send,
    async harmonics(user: SessionUser, token: string, signal?: AbortSignal): Promise<HarmonicsResult> {
      const d = await precision(user, token);
      const reply = await send(d.mac, { cmd: 'HARMONICS' }, signal);
      if (reply.ok && reply.cmd === 'HARMONICS') return reply.result;
      throw new DeviceNotResponding();
    },
    async waveform(user: SessionUser, token: string, signal?: AbortSignal): Promise<WaveformResult> {
      const d = await precision(user, token);
      const reply = await send(d.mac, { cmd: 'WAVEFORM' }, signal);
      if (reply.ok && reply.cmd === 'WAVEFORM') return reply.result;
      throw new DeviceNotResponding();
    },
    /** Switches the load relay of a disconnector (type 2). Owners only. */
    async relay(user: SessionUser, token: string, state: 'OPEN' | 'CLOSED'): Promise<'OPEN' | 'CLOSED'> {
      const d = await devices.resolve(user, token);
      if (d.type !== DeviceType.Disconnector) throw new InvalidRequest('Device has no relay');
      if (d.owner !== 1) throw new Forbidden('Only the device owner may switch its relay');
      const reply = await send(d.mac, { cmd: 'RELAY', state });
      return reply.ok && reply.cmd === 'RELAY' ? reply.result.state : state;
    },
  };
}
/** Request/reply commands. */
export type CommandsService = ReturnType<typeof commandsService>;
