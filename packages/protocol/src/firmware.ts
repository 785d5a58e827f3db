import { z } from 'zod';
import { DEVICE_TYPES } from './constants';
import { DeviceTokenString, UserToken, okWith } from './common';
import { UPGRADE_STATES } from './mqtt-messages';

/** Largest firmware image a user manager may upload, bytes. */
export const FIRMWARE_IMAGE_MAX_BYTES = 2_000_000;

/** Seconds without a word from an upgrading device before the portal declares a timeout (default). */
export const FIRMWARE_UPGRADE_TIMEOUT_SEC = 300;

/** How many past upgrades of a device the status answers. */
export const FIRMWARE_HISTORY_LIMIT = 20;

/** A firmware version name: letters, digits, dot, dash, underscore; 1 to 40 characters. */
export const FirmwareVersionName = z
  .string()
  .regex(/^[0-9A-Za-z._-]{1,40}$/, 'a version is 1 to 40 letters, digits, dots, dashes or underscores');

/** States an upgrade passes through (seed 000 section 4, plus DONE). */
export const UpgradeState = z.enum(UPGRADE_STATES);
/** A state of an upgrade. */
export type UpgradeState = z.infer<typeof UpgradeState>;
/** States after which an upgrade is over. */
export const FINAL_UPGRADE_STATES: readonly UpgradeState[] = ['DONE', 'FAILED', 'TIMEOUT', 'NOT_AVAILABLE'];

/** A firmware version registered for a device type. */
export const FirmwareVersionEntry = z.object({
  id: z.number().int(),
  deviceType: z.number().int(),
  version: z.string(),
  /** File name of the uploaded image; null when only the version was registered. */
  imageName: z.string().nullable(),
  sizeBytes: z.number().int().nullable(),
  /** SHA-256 of the image, lower-case hex. */
  sha256: z.string().nullable(),
  createdAtMs: z.number().int(),
});
/** A registered firmware version. */
export type FirmwareVersionEntry = z.infer<typeof FirmwareVersionEntry>;

/** Body of POST /firmware/versions (read door). */
export const FirmwareVersionsRequest = z.object({ user_token: UserToken });
/** Answer: every registered version, by device type and newest first. */
export const FirmwareVersionsResponse = okWith(z.array(FirmwareVersionEntry));

/** Text fields of the multipart POST /firmware/versions (write door); the image file is optional. */
export const FirmwareVersionAddFields = z.object({
  user_token: UserToken,
  device_type: z.coerce
    .number()
    .int()
    .refine((t) => (DEVICE_TYPES as readonly number[]).includes(t), 'unknown device type'),
  version: FirmwareVersionName,
});
/** Answer: the registered version. */
export const FirmwareVersionAddResponse = okWith(FirmwareVersionEntry);

/** One upgrade of a device. */
export const UpgradeEntry = z.object({
  id: z.number().int(),
  state: UpgradeState,
  /** Progress, %. */
  progress: z.number(),
  /** Version before the upgrade. */
  fromFw: z.string().nullable(),
  /** Version asked for. */
  toFw: z.string(),
  /** Version the device reported after it. */
  fwAfter: z.string().nullable(),
  /** Who started it; null for a removed user. */
  login: z.string().nullable(),
  startedAtMs: z.number().int(),
  updatedAtMs: z.number().int(),
  finishedAtMs: z.number().int().nullable(),
});
/** One upgrade of a device. */
export type UpgradeEntry = z.infer<typeof UpgradeEntry>;

/** Answer of POST /devices/firmware-upgrade: the upgrade as it started (or was refused by the device). */
export const FirmwareUpgradeResponse = okWith(UpgradeEntry);

/** Body of POST /devices/firmware (read door). */
export const FirmwareStatusRequest = z.object({ token: DeviceTokenString });
/** Answer: the version the device reports, whether it is online, and its upgrades newest first. */
export const FirmwareStatusResponse = okWith(
  z.object({ fw: z.string().nullable(), online: z.boolean(), upgrades: z.array(UpgradeEntry) }),
);
