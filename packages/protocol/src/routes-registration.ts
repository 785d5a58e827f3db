import {
  RegistrationAddRequest,
  RegistrationDeviceRequest,
  RegistrationIssuedResponse,
  RegistrationListRequest,
  RegistrationListResponse,
  RegistrationRevokeResponse,
} from './registration';
import { RegistrationMappingRequest, RegistrationMappingResponse } from './jsonMapping';
import type { RouteDef } from './routes';

/** Registering real meters from the browser: user managers only. */
export const registrationRoutes = {
  registrationList: {
    door: 'read',
    method: 'POST',
    path: '/applications/usermanager/registrations',
    session: 'user',
    tag: 'usermanager',
    summary: 'Registered devices with family, topic, credentials and online state; user managers only',
    body: RegistrationListRequest,
    response: RegistrationListResponse,
  },
  registrationAdd: {
    door: 'write',
    method: 'POST',
    path: '/applications/usermanager/registrations',
    session: 'user',
    tag: 'usermanager',
    summary:
      'Register a device (portal protocol, Shelly, Tasmota or P1); answers its MQTT credentials and settings this once only',
    body: RegistrationAddRequest,
    response: RegistrationIssuedResponse,
  },
  registrationRotate: {
    door: 'write',
    method: 'PUT',
    path: '/applications/usermanager/registrations',
    session: 'user',
    tag: 'usermanager',
    summary: 'New MQTT credentials for a device, answered once; the old password stops at once',
    body: RegistrationDeviceRequest,
    response: RegistrationIssuedResponse,
  },
  registrationRevoke: {
    door: 'write',
    method: 'DELETE',
    path: '/applications/usermanager/registrations',
    session: 'user',
    tag: 'usermanager',
    summary: 'Revoke the MQTT credentials of a device: it can no longer connect; its data stays',
    body: RegistrationDeviceRequest,
    response: RegistrationRevokeResponse,
  },
  registrationMapping: {
    door: 'write',
    method: 'PUT',
    path: '/applications/usermanager/registrations/mapping',
    session: 'user',
    tag: 'usermanager',
    summary: 'Change which JSON paths of a generic JSON meter carry which quantities; user managers only',
    body: RegistrationMappingRequest,
    response: RegistrationMappingResponse,
  },
} as const satisfies Record<string, RouteDef>;
