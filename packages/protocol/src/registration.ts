import { z } from 'zod';
import { OkEnvelope, UserToken, okWith } from './common';
import { JsonMapping } from './jsonMapping';

/** How a device registered from the browser speaks MQTT: the portal's own topics or an adapted family. */
export const REGISTRATION_FAMILIES = ['portal', 'shelly', 'tasmota', 'p1', 'json'] as const;
/** How a device registered from the browser speaks MQTT. */
export type RegistrationFamily = (typeof REGISTRATION_FAMILIES)[number];
/** Families whose clock runs in local time, so a zone may be given. */
export const LOCAL_TIME_FAMILIES: readonly RegistrationFamily[] = ['tasmota', 'p1'];

/** Body of POST (read) /applications/usermanager/registrations. */
export const RegistrationListRequest = z.object({ user_token: UserToken });

/** One registered device as the user manager's registration list shows it. */
export const RegisteredDevice = z.object({
  mac: z.string(),
  title: z.string(),
  type: z.number().int(),
  family: z.enum(REGISTRATION_FAMILIES),
  /** Shelly prefix, Tasmota or P1 topic; null for the portal protocol. */
  topic: z.string().nullable(),
  /** Zone of the device's clock; null: the installation's. */
  tz: z.string().nullable(),
  /** Whether the device holds broker credentials (false once revoked). */
  credentials: z.boolean(),
  online: z.boolean(),
  /** The JSON paths of a generic JSON meter; absent for the other families. */
  mapping: JsonMapping.optional(),
});
/** One registered device as the user manager's registration list shows it. */
export type RegisteredDevice = z.output<typeof RegisteredDevice>;
/** Answer of the registration list. */
export const RegistrationListResponse = okWith(z.array(RegisteredDevice));

/** Body of POST (write) /applications/usermanager/registrations: the fields are checked by the server, each named. */
export const RegistrationAddRequest = z.object({
  user_token: UserToken,
  family: z.enum(REGISTRATION_FAMILIES),
  /** MAC or serial in the portal's dashed form; also the MQTT username. */
  mac: z.string().max(64),
  title: z.string().max(200),
  /** Device type shown in the portal, 1 to 6. */
  type: z.number().int(),
  /** Shelly prefix, Tasmota or P1 topic (those families only). */
  topic: z.string().max(200).optional(),
  /** Zone of the device's clock (Tasmota, P1), when not the installation's. */
  tz: z.string().max(100).optional(),
  /** Login of the owner; absent: the user manager alone (with every user manager). */
  owner: z.string().max(200).optional(),
  /** Which JSON paths carry which quantities (generic JSON meters only). */
  mapping: JsonMapping.optional(),
});
/** Body of registering a device from the browser. */
export type RegistrationAddRequest = z.input<typeof RegistrationAddRequest>;

/** Body of rotating (PUT) or revoking (DELETE) a device's credentials. */
export const RegistrationDeviceRequest = z.object({ user_token: UserToken, mac: z.string().max(64) });

/** What to enter on the device, with the secret shown this once. */
export const DeviceConnectionSettings = z.object({
  mac: z.string(),
  family: z.enum(REGISTRATION_FAMILIES),
  /** Shelly prefix, Tasmota or P1 topic; null for the portal protocol. */
  topic: z.string().nullable(),
  host: z.string(),
  port: z.number().int(),
  clientId: z.string(),
  username: z.string(),
  password: z.string(),
  /** Where the device publishes: `<prefix>/…`, `tele/<topic>/…`, `p1/<topic>` or `meters/<mac>/…`. */
  publishTopic: z.string(),
  /** The Tasmota console line; null for the other families. */
  command: z.string().nullable(),
});
/** What to enter on the device. */
export type DeviceConnectionSettings = z.output<typeof DeviceConnectionSettings>;
/** Answer of registering a device or rotating its credentials. */
export const RegistrationIssuedResponse = okWith(DeviceConnectionSettings);
/** Answer of revoking a device's credentials. */
export const RegistrationRevokeResponse = OkEnvelope;
