import type { DeviceListEntry } from '@meterportal/protocol';
import { sessionStore } from '../../api/storage';
import { createStore, useStore } from '../../app/store';
import { authStore, useDeviceList } from '../auth/session';
import { lastDevices } from './lastDevice';

/** The mac of the selected device, remembered across reloads. */
export const selectedMacStore = createStore<string | null>(
  sessionStore.get<string>('selectedDevice') ?? null,
  (mac) => {
    if (mac) sessionStore.set('selectedDevice', mac);
    else sessionStore.remove('selectedDevice');
  },
);

/** Selects a device; the signed-in person's choice is also kept as their last device. */
export function selectDevice(mac: string | null): void {
  selectedMacStore.set(mac);
  const login = authStore.get().user?.user;
  if (mac && login) lastDevices.remember(login, mac);
}

/** The device to start from after sign-in: this tab's selection, else the person's last one. */
export function rememberedDevice(login: string | undefined): string | null {
  return selectedMacStore.get() ?? (login ? lastDevices.recall(login) : null);
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

/**
 * The device selected after sign-in: the last one used while it is still assigned, else the
 * first in the tree's order that has data (`hasData` asks the server), else the first by mac.
 */
export async function initialSelection(
  devices: readonly DeviceListEntry[],
  treeOrder: readonly string[],
  remembered: string | null,
  hasData: (device: DeviceListEntry) => Promise<boolean>,
): Promise<string | undefined> {
  if (remembered && devices.some((d) => d.mac === remembered)) return remembered;
  const byMac = new Map(devices.map((d) => [d.mac, d]));
  const ordered = [
    ...treeOrder.flatMap((m) => byMac.get(m) ?? []),
    ...[...devices].filter((d) => !treeOrder.includes(d.mac)).sort((a, b) => a.mac.localeCompare(b.mac)),
  ];
  for (const d of ordered) if (await hasData(d).catch(() => false)) return d.mac;
  return resolveSelected(devices, null)?.mac;
}

/**
 * Works out the selection once a tree load has finished, unless the person chose a device while it
 * loaded: a load that started before the choice (a refetch after the device list changed, say)
 * never takes it back. `pick` runs only when the selection is still what it was at the start.
 */
export async function selectUnlessChosen(
  startedWith: string | null,
  pick: () => Promise<string | undefined>,
): Promise<void> {
  if (selectedMacStore.get() !== startedWith) return;
  const mac = (await pick()) ?? null;
  if (selectedMacStore.get() !== startedWith) return;
  selectDevice(mac);
}

/**
 * The selection after a device was removed: the first remaining leaf when the removed device was
 * the selected one, otherwise the selected device stays (and with it the screen).
 */
export function selectionAfterRemoval(
  devicesBefore: readonly DeviceListEntry[],
  storedMac: string | null,
  removedMac: string,
  firstLeafAfter: string | undefined,
): string | null {
  const selected = resolveSelected(devicesBefore, storedMac)?.mac;
  if (selected === removedMac) return firstLeafAfter ?? null;
  return selected ?? null;
}
