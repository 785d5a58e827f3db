import {
  FirmwareStatusRequest,
  FirmwareStatusResponse,
  FirmwareVersionAddFields,
  FirmwareVersionAddResponse,
  FirmwareVersionsRequest,
  FirmwareVersionsResponse,
} from './firmware';
import type { RouteDef } from './routes';

/** Firmware versions and the upgrade status of devices; the upgrade itself is `firmwareUpgrade`. */
export const firmwareRoutes = {
  firmwareVersions: {
    door: 'read',
    method: 'POST',
    path: '/firmware/versions',
    session: 'user',
    tag: 'devices',
    summary: 'Firmware versions registered per device type, with image size and SHA-256',
    body: FirmwareVersionsRequest,
    response: FirmwareVersionsResponse,
  },
  firmwareVersionAdd: {
    door: 'write',
    method: 'POST',
    path: '/firmware/versions',
    session: 'user',
    tag: 'devices',
    summary:
      'Register a firmware version for a device type (multipart: user_token, device_type, version, optional image up to 2,000,000 bytes); user managers only',
    body: null,
    response: FirmwareVersionAddResponse,
    multipart: FirmwareVersionAddFields,
  },
  firmwareStatus: {
    door: 'read',
    method: 'POST',
    path: '/devices/firmware',
    session: 'cookie',
    tag: 'devices',
    summary: 'Firmware version of a device, whether it is online, and its upgrades (owners)',
    body: FirmwareStatusRequest,
    response: FirmwareStatusResponse,
  },
} as const satisfies Record<string, RouteDef>;
