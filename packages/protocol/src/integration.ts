import { z } from 'zod';
import { Mac, OkEnvelope, UserToken, okWith } from './common';
import { ENERGY_KINDS, ENERGY_PERIODS, HISTORY_MAX_SPAN_SEC, PROFILE_QUANTITIES } from './history';
import { UnixMs, UnixSec } from './units';

/** Most integration tokens one user may hold. */
export const INTEGRATION_TOKENS_MAX = 20;
/** Longest name of an integration token. */
export const INTEGRATION_TOKEN_NAME_MAX = 60;
/** Prefix of every integration token secret, so a leaked one is recognisable. */
export const INTEGRATION_TOKEN_PREFIX = 'mpt_';
/** Length of a token secret: the prefix and 43 base64url characters (256 random bits). */
export const INTEGRATION_TOKEN_LENGTH = INTEGRATION_TOKEN_PREFIX.length + 43;
/** Base of the integration API below the read door. */
export const INTEGRATION_API_PATH = '/v1';

/** Name of an integration token: printable text without angle brackets. */
export const IntegrationTokenName = z
  .string()
  .trim()
  .min(1)
  .max(INTEGRATION_TOKEN_NAME_MAX)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^<>\u0000-\u001f\u007f]+$/, 'may not hold < > or control characters');

/** One integration token as its owner sees it (never its secret). */
export const IntegrationTokenEntry = z.object({
  id: z.number().int(),
  name: z.string(),
  /** MACs the token may read; null: every device assigned to the user at the time of the call. */
  devices: z.array(z.string()).nullable(),
  createdAt: UnixMs,
  /** Last answered call, or null when never used. */
  lastUsedAt: UnixMs.nullable(),
  /** End of validity, or null when the token does not expire. */
  expiresAt: UnixSec.nullable(),
});
/** One integration token as its owner sees it. */
export type IntegrationTokenEntry = z.output<typeof IntegrationTokenEntry>;

/** Body of POST (read) /integration/tokens. */
export const IntegrationTokenListRequest = z.object({ user_token: UserToken });
/** Answer of POST (read) /integration/tokens: the user's tokens, newest first. */
export const IntegrationTokenListResponse = okWith(z.array(IntegrationTokenEntry));

/** Body of POST (write) /integration/tokens. */
export const IntegrationTokenCreateRequest = z.object({
  user_token: UserToken,
  name: IntegrationTokenName,
  /** Limit the token to these devices (among the user's); absent or null: all assigned devices. */
  devices: z.array(Mac).min(1).max(100).nullable().optional(),
  /** End of validity, unix seconds; absent or null: no expiry. */
  expiresAt: UnixSec.nullable().optional(),
});
/** Body of POST (write) /integration/tokens. */
export type IntegrationTokenCreateRequest = z.output<typeof IntegrationTokenCreateRequest>;
/** Answer of creating a token: the entry and its secret, which is never shown again. */
export const IntegrationTokenCreateResponse = okWith(IntegrationTokenEntry.extend({ secret: z.string() }));

/** Body of DELETE (write) /integration/tokens. */
export const IntegrationTokenRevokeRequest = z.object({ user_token: UserToken, id: z.number().int() });
/** Answer of revoking a token. */
export const IntegrationTokenRevokeResponse = OkEnvelope;

/** A moment given as unix seconds or as an ISO 8601 date-time text. */
const Moment = z
  .string()
  .max(40)
  .transform((s, ctx) => {
    const t = /^\d{1,12}$/.test(s) ? Number(s) : Date.parse(s) / 1000;
    if (!Number.isFinite(t) || t < 0) {
      ctx.addIssue({ code: 'custom', message: 'must be unix seconds or an ISO 8601 date-time' });
      return z.NEVER;
    }
    return Math.floor(t);
  });

/** Answer format of a series: JSON rows or CSV text (Accept: text/csv chooses CSV too). */
export const IntegrationFormat = z.enum(['json', 'csv']);

/** A comma list of names, each from the allowed set. */
function names<const T extends readonly [string, ...string[]]>(allowed: T) {
  return z
    .string()
    .max(200)
    .transform((v) => [...new Set(v.split(',').map((s) => s.trim()))].filter(Boolean))
    .pipe(z.array(z.enum(allowed)).min(1));
}

const rangeQuery = {
  /** Range start; default one day before `to`. */
  from: Moment.optional(),
  /** Range end (exclusive); default now. */
  to: Moment.optional(),
  format: IntegrationFormat.optional(),
};

/** Query of GET /v1/devices/:mac/profile. */
export const IntegrationProfileQuery = z.object({
  /** Comma list of profile quantities, e.g. `P,U`. */
  quantity: names(PROFILE_QUANTITIES),
  ...rangeQuery,
});
/** Query of GET /v1/devices/:mac/profile. */
export type IntegrationProfileQuery = z.output<typeof IntegrationProfileQuery>;

/** Query of GET /v1/devices/:mac/energy. */
export const IntegrationEnergyQuery = z.object({
  /** Comma list of E_I, E_E, Q1 to Q4; default `E_I,E_E`. */
  kind: names(ENERGY_KINDS).default(['E_I', 'E_E']),
  period: z.enum(ENERGY_PERIODS).default('HOUR'),
  ...rangeQuery,
});
/** Query of GET /v1/devices/:mac/energy. */
export type IntegrationEnergyQuery = z.output<typeof IntegrationEnergyQuery>;

/** Path of a device's series. */
export const IntegrationDeviceParams = z.object({ mac: Mac });

/** Longest range one integration series may span, seconds (as the history calls). */
export const INTEGRATION_MAX_SPAN_SEC = HISTORY_MAX_SPAN_SEC;

/** A device the token may read. */
export const IntegrationDevice = z.object({
  mac: z.string(),
  serial: z.string(),
  title: z.string(),
  /** Device type, 1 to 6. */
  type: z.number().int(),
  /** Phases in use. */
  phases: z.number().int(),
});
/** Answer of GET /v1/devices. */
export const IntegrationDevicesResponse = okWith(z.array(IntegrationDevice)).extend({
  /** The installation's time zone (local times and calendar periods). */
  timeZone: z.string(),
});

/** A column of a series table: its name and unit ('' for a plain number). */
export const IntegrationColumn = z.object({ name: z.string(), unit: z.string() });
/** A column of a series table. */
export type IntegrationColumn = z.output<typeof IntegrationColumn>;

/**
 * Answer of a series: one row per time, `time` in UTC and `localTime` in the installation's zone
 * (ISO 8601), then one value per column (null where the device stored none).
 */
export const IntegrationSeriesResponse = z.object({
  status: z.literal('OK'),
  device: IntegrationDevice,
  timeZone: z.string(),
  /** MINUTE, QUARTER_HOUR, HOUR, DAY or MONTH: what one row covers. */
  resolution: z.string(),
  /** Energy rows hold the energy of the interval starting at `time`; power rows averages. */
  columns: z.array(IntegrationColumn),
  data: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
});
/** Answer of a series. */
export type IntegrationSeriesResponse = z.input<typeof IntegrationSeriesResponse>;
