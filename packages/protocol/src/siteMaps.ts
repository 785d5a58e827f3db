import { z } from 'zod';
import { DeviceTokenString, Mac, UserToken, okWith } from './common';

/** Largest site plan image: 1 MB, as every image upload of the portal. */
export const SITE_MAP_MAX_BYTES = 1_000_000;
/** Most site maps a user keeps. */
export const SITE_MAP_MAX_MAPS = 50;
/** Longest map or group name. */
export const SITE_MAP_NAME_MAX = 60;

const Name = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(SITE_MAP_NAME_MAX)
  .regex(/^[^<>\p{Cc}]*$/u, 'must not hold < > or control characters');

/** A map's name ("map name"). */
export const SiteMapName = Name;
/** The group a pinned device belongs to on its map ("group name"); empty for none. */
export const SiteGroupName = z.union([z.literal(''), Name]);
/** A position across the image, 0 at the left or top edge, 1 at the right or bottom one. */
export const ImageFraction = z.number().finite().min(0).max(1);

/** The live state a pin shows: an open alarm outranks online or offline. */
export const SITE_PIN_STATES = ['ONLINE', 'OFFLINE', 'ALARM'] as const;
/** The live state a pin shows. */
export type SitePinState = (typeof SITE_PIN_STATES)[number];

/** A device placed on a site map. */
export const SitePin = z.object({
  mac: Mac,
  title: z.string(),
  type: z.number().int(),
  group: z.string(),
  x: ImageFraction,
  y: ImageFraction,
  state: z.enum(SITE_PIN_STATES),
});
/** A device placed on a site map. */
export type SitePin = z.infer<typeof SitePin>;

/** One site map of a user, with its pins (only devices assigned to the user right now). */
export const SiteMap = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  type: z.enum(['image/png', 'image/jpeg']),
  sizeBytes: z.number().int().nonnegative(),
  pins: z.array(SitePin),
});
/** One site map of a user. */
export type SiteMap = z.infer<typeof SiteMap>;

/** Body of POST (read) /site-maps/list. */
export const SiteMapListRequest = z.object({ user_token: UserToken });
/** Answer of POST (read) /site-maps/list: the user's maps, oldest first. */
export const SiteMapListResponse = okWith(z.array(SiteMap));

/** Path of GET (read) /site-maps/:id/image. */
export const SiteMapImageParams = z.object({
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1),
});

/** Text fields of the multipart upload to POST (write) /site-maps. */
export const SiteMapUploadFields = z.object({ user_token: UserToken, name: SiteMapName });
/** Answer of the upload: the new map's id. */
export const SiteMapUploadResponse = okWith(z.object({ id: z.number().int().positive() }));

const MapId = z
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1);

/** Body of PUT (write) /site-maps: a new name. */
export const SiteMapRenameRequest = z.object({ user_token: UserToken, id: MapId, name: SiteMapName });
/** Body of DELETE (write) /site-maps. */
export const SiteMapDeleteRequest = z.object({ user_token: UserToken, id: MapId });
/** Body of POST (write) /site-maps/pins: places (or moves) a device on a map. */
export const SitePinSaveRequest = z.object({
  user_token: UserToken,
  id: MapId,
  token: DeviceTokenString,
  group: SiteGroupName,
  x: ImageFraction,
  y: ImageFraction,
});
/** Body of DELETE (write) /site-maps/pins: takes a device off a map. */
export const SitePinRemoveRequest = z.object({ user_token: UserToken, id: MapId, token: DeviceTokenString });
