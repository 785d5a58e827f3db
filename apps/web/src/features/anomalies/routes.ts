import { DeviceType, type DeviceListEntry } from '@meterportal/protocol';

/** Path of the anomaly models screen, kept apart so the sidebar does not load the page. */
export const ANOMALIES_ROUTE = '/anomalies';

/** Anomaly models are for owners of a household meter (type 1). */
export function ownedHouseholdMeters(devices: readonly DeviceListEntry[]): DeviceListEntry[] {
  return devices.filter((d) => d.owner && d.type === DeviceType.SmartMeter);
}

/** Whether the hourly energy chart of this device can show an expected band. */
export function hasAnomalyBand(device: DeviceListEntry | undefined, period: string): boolean {
  return !!device && device.owner && device.type === DeviceType.SmartMeter && period === 'HOUR';
}
