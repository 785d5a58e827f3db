import type { DeviceListEntry } from '@meterportal/protocol';

/** Path of the settings screen, kept apart so the sidebar does not load the area. */
export const SETTINGS_ROUTE = '/devices/settings';

/** Settings are for the owners of a device (the server checks again). */
export function settingsDevices(devices: readonly DeviceListEntry[]): DeviceListEntry[] {
  return devices.filter((d) => d.owner);
}
