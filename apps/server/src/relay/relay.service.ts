import {
  DeviceType,
  NotificationData,
  RELAY_CAUSES,
  RELAY_HISTORY_LIMIT,
  type DeviceMessage,
  type RelayCause,
  type RelayState,
  type RouteAnswer,
} from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { DevicesService, SessionUser } from '../devices/devices.service';
import { InvalidRequest, NotFound } from '../http/errors';
import type { CommandsService } from '../precision/commands.service';
import type { RelayRepository } from './relay.repository';

/**
 * Relay control of disconnectors (type 2), for their owners: switching through the device
 * command, and the history of switchings, whether a user or the device moved the relay.
 */
export function relayService(deps: {
  repo: RelayRepository;
  devices: DevicesService;
  commands: CommandsService;
  clock: Clock;
}) {
  const { repo, devices, commands, clock } = deps;

  /** The disconnector behind a token, when the caller owns it; anything else looks like absence. */
  async function ownDisconnector(user: SessionUser, token: string) {
    const d = await devices.resolve(user, token);
    if (d.owner !== 1) throw new NotFound();
    if (d.type !== DeviceType.Disconnector) throw new InvalidRequest('Device has no relay');
    return d;
  }

  return {
    /** Switches the relay, and records who did it once the device has confirmed. */
    async switchRelay(user: SessionUser, token: string, state: RelayState): Promise<RelayState> {
      const d = await ownDisconnector(user, token);
      const answered = await commands.relay(user, token, state);
      await repo.insert({
        deviceId: d.id,
        state: answered,
        cause: 'USER',
        userId: user.userId,
        atMs: clock.nowMs(),
      });
      return answered;
    },

    /** State, switchings and DISCONNECTOR notifications of an owned disconnector. */
    async history(user: SessionUser, token: string): Promise<RouteAnswer<'relayHistory'>['data']> {
      const d = await ownDisconnector(user, token);
      const [rows, notes] = await Promise.all([
        repo.latest(d.id, RELAY_HISTORY_LIMIT),
        repo.disconnectorNotifications(d.id, RELAY_HISTORY_LIMIT),
      ]);
      const switchings = rows.map((r) => ({
        atMs: Number(r.at_ms),
        state: r.state === 'OPEN' ? ('OPEN' as const) : ('CLOSED' as const),
        cause: (RELAY_CAUSES as readonly string[]).includes(r.cause) ? (r.cause as RelayCause) : 'COMMAND',
        login: r.login ?? null,
      }));
      return {
        state: switchings[0]?.state ?? null,
        switchings,
        notifications: notes.map((n) => ({
          id: n.id,
          type: 'DISCONNECTOR' as const,
          mac: d.mac,
          data: NotificationData.parse(JSON.parse(n.data)),
        })),
      };
    },

    /**
     * Records a switching the device reports on its own (overload trip, switched by hand). A
     * COMMAND event answers a user's switching, which is already recorded with its user.
     */
    async onDeviceMessage(message: DeviceMessage, deviceId: number): Promise<void> {
      if (message.kind !== 'event' || message.payload.type !== 'DISCONNECTOR') return;
      const { event, message: why, timestamp } = message.payload.data;
      if (why === 'COMMAND') return;
      await repo.insert({ deviceId, state: event, cause: why, userId: null, atMs: timestamp * 1000 });
    },
  };
}
/** Relay control. */
export type RelayService = ReturnType<typeof relayService>;
