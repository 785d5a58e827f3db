// A set of virtual meters sharing one broker, for `npm run simulate` and the server's demo mode.
import type { DeviceTypeId } from '@meterportal/protocol';
import { startDevice, type DeviceOptions, type SimDevice } from './device';

/** Identity and credentials of one virtual meter. */
export interface FleetDevice {
  mac: string;
  type: DeviceTypeId;
  username: string;
  password: string;
  /** Phases wired; default by type. */
  phases?: 1 | 2 | 3;
}

/** How to run a fleet. */
export interface FleetOptions extends Pick<
  DeviceOptions,
  'speed' | 'outages' | 'nowMs' | 'log' | 'accuTest'
> {
  brokerUrl: string;
  devices: readonly FleetDevice[];
}

/** A running fleet. */
export interface Fleet {
  readonly devices: readonly SimDevice[];
  stop(): Promise<void>;
}

/** Starts every device of the fleet. */
export function createFleet(opts: FleetOptions): Fleet {
  const { devices, brokerUrl, ...rest } = opts;
  const running = devices.map((d) => startDevice({ ...rest, ...d, brokerUrl }));
  return {
    devices: running,
    async stop() {
      await Promise.all(running.map((d) => d.stop()));
    },
  };
}

/** Macs for a demo fleet: `count` devices of each type, stable from run to run. */
export function demoMacs(countPerType: number): { mac: string; type: DeviceTypeId }[] {
  const out: { mac: string; type: DeviceTypeId }[] = [];
  for (const type of [1, 2, 3, 4, 5, 6] as const) {
    for (let i = 0; i < countPerType; i++) {
      const hex = (n: number) => n.toString(16).toUpperCase().padStart(2, '0');
      out.push({ mac: `EM-70-B3-D5-${hex(type)}-${hex(i >> 8)}-${hex(i & 255)}`, type });
    }
  }
  return out;
}
