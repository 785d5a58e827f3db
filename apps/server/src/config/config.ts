import { z } from 'zod';
import net from 'node:net';
import path from 'node:path';

const Roles = ['read', 'write', 'ws', 'ingest'] as const;
/** A server role; one process may run any subset. */
export type Role = (typeof Roles)[number];

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A comma-separated list, its items trimmed and empty ones left out. */
const commaList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((s) =>
      s
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    );

/** Address ranges proxy-addr knows by name. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** True for an IPv4/IPv6 address, an address with a prefix length (CIDR), or a named range. */
export function isProxyAddress(s: string): boolean {
  if (PROXY_RANGE_NAMES.has(s)) return true;
  const [addr = '', prefix, ...rest] = s.split('/');
  const family = net.isIP(addr);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** The installation's time zone when TZ is not set. */
export const DEFAULT_TZ = 'Europe/Bratislava';

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  PORTAL_ADMIN_PASSWORD: z.string().min(6, 'must be at least 6 characters').optional(),
  TZ: z
    .string()
    .default(DEFAULT_TZ)
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'is not a known IANA time zone'),
  ROLES: commaList('read,write,ws,ingest').pipe(z.array(z.enum(Roles)).min(1)),
  PUBLIC_READ_BASE: z.string().default('/api/read'),
  PUBLIC_WRITE_BASE: z.string().default('/api/write'),
  PUBLIC_WS_URL: z.string().default('/ws'),
  OIDC_ISSUER: z.string().url().default('https://accounts.google.com'),
  OIDC_CLIENT_ID: z.string().default(''),
  /**
   * Map tiles under the sites view, an https URL template with {z}, {x} and {y} (an installation's
   * own tile server); empty draws the sites without tiles and fetches nothing.
   */
  MAP_TILE_URL: z
    .string()
    .default('')
    .refine(
      (u) =>
        u === '' || (/^https:\/\/[^\s"'<>]+$/.test(u) && ['{z}', '{x}', '{y}'].every((p) => u.includes(p))),
      {
        message: 'must be empty or an https URL holding {z}, {x} and {y}',
      },
    ),
  COOKIE_SECURE: bool.optional(),
  /**
   * Proxies whose X-Forwarded-For is believed: addresses, CIDR ranges or loopback, linklocal,
   * uniquelocal. Empty: the client address is the connection's own.
   */
  TRUST_PROXY: commaList('').pipe(
    z.array(
      z
        .string()
        .refine(isProxyAddress, 'must list IP addresses, CIDR ranges or loopback, linklocal, uniquelocal'),
    ),
  ),
  ALLOWED_ORIGINS: commaList(''),
  COOKIE_SAMESITE: z.enum(['lax', 'strict', 'none']).default('lax'),
  TOKEN_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  DEMO: bool.default(true),
  /** Seconds between the simulated analyzer's accuracy tests in demo mode. */
  DEMO_ACCUTEST_PERIOD_SEC: z.coerce.number().int().min(40).max(86_400).default(300),
  MQTT_URL: z
    .string()
    .regex(/^mqtts?:\/\//, 'must be an mqtt:// URL')
    .optional(),
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1883),
  MQTT_CLIENT_ID: z.string().min(1).max(64).default('meterportal-ingest'),
  /** Keep device accounts in the external Mosquitto's dynamic security plugin (needs MQTT_URL). */
  MQTT_DYNSEC: bool.default(false),
  LIVE_RECHECK_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** Seconds without a word from an upgrading device before its upgrade times out. */
  FIRMWARE_UPGRADE_TIMEOUT_SEC: z.coerce.number().int().min(2).max(3600).default(300),
  /** Seconds between checks of completed hours against the anomaly models. */
  ANOMALY_CHECK_SEC: z.coerce.number().int().min(1).max(3600).default(300),
  /** Days after which the schedule retrains an anomaly model on its latest weeks. */
  ANOMALY_RETRAIN_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  WEBEX_BASE_URL: z.string().url().default('https://webexapis.com/v1'),
  WEBEX_BOT_TOKEN: z.string().min(10).optional(),
  /** SMTP server of e-mail notifications, e.g. smtp://user:pass@host:587; unset: no e-mail. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/]+/, 'must be an smtp:// or smtps:// URL')
    .optional(),
  /** Sender of e-mail notifications. */
  SMTP_FROM: z.string().min(3).default('Meter portal <portal@localhost>'),
  /** Seconds between two polls of each online analyzer's harmonic spectrum (EN 50160 harmonics). */
  HARMONICS_POLL_SEC: z.coerce.number().int().min(10).max(3600).default(600),
  /** Nominal supply voltage Un of the EN 50160 assessment, volts (phase to neutral). */
  NOMINAL_VOLTAGE_V: z.coerce.number().min(50).max(1000).default(230),
});

/** Validated server configuration. */
export type Config = z.infer<typeof EnvSchema> & { roles: ReadonlySet<Role>; dataDir: string };

/** Thrown when the environment holds a bad value; the message names each variable. */
export class ConfigError extends Error {}

/** Reads and validates the configuration from an environment object. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const picked = Object.fromEntries(
    Object.keys(EnvSchema.shape).map((k) => [
      k,
      env[k] === '' && k !== 'OIDC_CLIENT_ID' ? undefined : env[k],
    ]),
  );
  const parsed = EnvSchema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  if (c.MQTT_DYNSEC && !c.MQTT_URL)
    throw new ConfigError(
      'Invalid configuration:\n  MQTT_DYNSEC: needs MQTT_URL (the embedded broker checks device secrets itself)',
    );
  return { ...c, roles: new Set(c.ROLES), dataDir: path.resolve(c.DATA_DIR) };
}
