import { SettingsReadRequest, SettingsResponse, SettingsWriteRequest } from './settings';
import type { RouteDef } from './routes';

/** LoRa, WiFi and measurement settings of a device, read from it and written back (owners). */
export const settingsRoutes = {
  settingsRead: {
    door: 'read',
    method: 'POST',
    path: '/devices/settings',
    session: 'cookie',
    tag: 'devices',
    summary:
      'LoRa, WiFi and measurement settings read from the device now; keys and the WiFi password are never answered (owners)',
    body: SettingsReadRequest,
    response: SettingsResponse,
  },
  settingsWrite: {
    door: 'write',
    method: 'POST',
    path: '/devices/settings',
    session: 'cookie',
    tag: 'devices',
    summary:
      'Write one section of the settings (lora, wifi or measurement) to the device; answers once the device confirmed (owners)',
    body: SettingsWriteRequest,
    response: SettingsResponse,
  },
} as const satisfies Record<string, RouteDef>;
