import { DeviceType, type DeviceListEntry } from '@meterportal/protocol';

/** Path of the appliance screen, kept apart so the sidebar does not load the page. */
export const APPLIANCES_ROUTE = '/appliances';

/** Appliances are the household meter's (type 1), for its owner. */
export function hasAppliances(device: DeviceListEntry | undefined): device is DeviceListEntry {
  return device !== undefined && device.owner && device.type === DeviceType.SmartMeter;
}
