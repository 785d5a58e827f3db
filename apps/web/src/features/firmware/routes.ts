import { DeviceType, type DeviceListEntry } from '@meterportal/protocol';

/** Paths of device management, kept apart so the sidebar does not load the area. */
export const RELAY_ROUTE = '/devices/relay';
export const FIRMWARE_ROUTE = '/devices/firmware';

/** Relay control is for owners of a disconnector (type 2). */
export function ownedDisconnectors(devices: readonly DeviceListEntry[]): DeviceListEntry[] {
  return devices.filter((d) => d.owner && d.type === DeviceType.Disconnector);
}

/** Firmware upgrades are for owners; smart plugs have no field upgrade. */
export function upgradableDevices(devices: readonly DeviceListEntry[]): DeviceListEntry[] {
  return devices.filter((d) => d.owner && d.type !== DeviceType.Plug);
}
