import {
  HISTORY_MAX_SPAN_SEC,
  phasesInUse,
  serialFromMac,
  type IntegrationEnergyQuery,
  type IntegrationProfileQuery,
} from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { AssignedDevice } from '../devices/devices.repository';
import type { DevicesService } from '../devices/devices.service';
import type { HistoryService } from '../history/history.service';
import { InvalidRequest, NotFound } from '../http/errors';
import { energyTable, profileTable, type SeriesTable } from './integration-fns';
import type { TokenCaller } from './tokens.service';

/** A device as the integration API lists it. */
export interface IntegrationDeviceEntry {
  mac: string;
  serial: string;
  title: string;
  type: number;
  phases: number;
}

/** A series read for one device. */
export interface DeviceSeries {
  device: IntegrationDeviceEntry;
  resolution: string;
  table: SeriesTable;
}

const toEntry = (d: AssignedDevice): IntegrationDeviceEntry => ({
  mac: d.mac,
  serial: serialFromMac(d.mac),
  title: d.title,
  type: d.type,
  phases: phasesInUse(d.type, d.phase_use),
});

/** The range of a query: `to` defaults to now and `from` to one day before `to`. */
function rangeOf(q: { from?: number; to?: number }, nowMs: number): { from: number; to: number } {
  const to = q.to ?? Math.floor(nowMs / 1000);
  const from = q.from ?? to - 86400;
  if (to <= from || to - from > HISTORY_MAX_SPAN_SEC)
    throw new InvalidRequest('Invalid request at to: to must be after from, at most 367 days later');
  return { from, to };
}

/**
 * Reads of the integration API: the devices a token may read (assigned to its user right now,
 * and among the token's devices when it is limited) and their profiles and energy, through the
 * same history reads as the portal's own charts.
 */
export function integrationService(deps: { devices: DevicesService; history: HistoryService; clock: Clock }) {
  const { devices, history, clock } = deps;

  async function readable(caller: TokenCaller): Promise<AssignedDevice[]> {
    const assigned = await devices.assigned(caller.userId);
    return caller.deviceIds ? assigned.filter((d) => caller.deviceIds!.has(d.id)) : assigned;
  }

  /** The device and a device token for the history reads; a device out of reach answers as missing. */
  async function device(
    caller: TokenCaller,
    mac: string,
  ): Promise<{ entry: IntegrationDeviceEntry; token: string }> {
    const d = (await readable(caller)).find((x) => x.mac === mac);
    const listed = d && (await devices.deviceList(caller.userId)).find((x) => x.mac === mac);
    if (!d || !listed) throw new NotFound('Device not found');
    return { entry: toEntry(d), token: listed.token };
  }

  const user = (caller: TokenCaller) => ({ userId: caller.userId, login: caller.login });

  return {
    async devices(caller: TokenCaller): Promise<IntegrationDeviceEntry[]> {
      return (await readable(caller)).map(toEntry);
    },

    async profile(caller: TokenCaller, mac: string, q: IntegrationProfileQuery): Promise<DeviceSeries> {
      const { entry, token } = await device(caller, mac);
      const { from, to } = rangeOf(q, clock.nowMs());
      const { resolution, data } = await history.profile(user(caller), {
        token,
        data: q.quantity,
        phase: 'L1,L2,L3',
        from,
        to,
        format: 'H',
        cumulative: true,
      });
      return { device: entry, resolution, table: profileTable(q.quantity, data) };
    },

    async energy(caller: TokenCaller, mac: string, q: IntegrationEnergyQuery): Promise<DeviceSeries> {
      const { entry, token } = await device(caller, mac);
      const { from, to } = rangeOf(q, clock.nowMs());
      const data = await history.energy(user(caller), {
        token,
        data: q.kind,
        phase: 'CUM',
        from,
        to,
        period: q.period,
        format: 'H',
        maximum: false,
      });
      return { device: entry, resolution: q.period, table: energyTable(data) };
    },
  };
}
/** Reads of the integration API. */
export type IntegrationService = ReturnType<typeof integrationService>;
