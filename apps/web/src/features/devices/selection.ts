import type { DeviceListEntry } from '@meterportal/protocol';
import { sessionStore } from '../../api/storage';
import { createStore, useStore } from '../../app/store';
import { useDeviceList } from '../auth/session';

/** The mac of the selected device, remembered across reloads. */
export const selectedMacStore = createStore<string | null>(
  sessionStore.get<string>('selectedDevice') ?? null,
  (mac) => {
    if (mac) sessionStore.set('selectedDevice', mac);
    else sessionStore.remove('selectedDevice');
  },
);

export function selectDevice(mac: string | null): void {
  selectedMacStore.set(mac);
}

/** Picks the selected entry, or the first device by mac when the remembered one is gone. */
export function resolveSelected(
  devices: readonly DeviceListEntry[],
  mac: string | null,
): DeviceListEntry | undefined {
  const found = mac ? devices.find((d) => d.mac === mac) : undefined;
  if (found) return found;
  return [...devices].sort((a, b) => a.mac.localeCompare(b.mac))[0];
}

export function useSelectedDevice(): DeviceListEntry | undefined {
  const devices = useDeviceList();
  const mac = useStore(selectedMacStore);
  return resolveSelected(devices, mac);
}
