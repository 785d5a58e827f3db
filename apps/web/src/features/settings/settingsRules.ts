import type { enSettings } from '../../i18n/en.settings';
import { LORA_KEY_PATTERN, SETTINGS_LIMITS, isIpv4, staticIpProblem } from '@meterportal/protocol';

/** A text of the settings table. */
export type SettingsKey = `settings.${keyof (typeof enSettings)['settings']}`;

/** A form message: a translation key of the settings table and its values. */
export interface Problem {
  key: SettingsKey;
  values?: Record<string, number>;
}

/** A LoRa key as typed: empty keeps the device's key, otherwise 32 hexadecimal digits. */
export function keyProblem(v: string | undefined): Problem | null {
  if (!v) return null;
  return LORA_KEY_PATTERN.test(v.replace(/\s+/g, '')) ? null : { key: 'settings.err_key' };
}

/** A number within its bounds, whole when asked. */
export function rangeProblem(
  v: number | null | undefined,
  { min, max }: { min: number; max: number },
  whole: boolean,
): Problem | null {
  if (v === null || v === undefined) return { key: 'settings.err_required' };
  if (whole && !Number.isInteger(v)) return { key: 'settings.err_whole' };
  if (v < min || v > max) return { key: 'settings.err_range', values: { min, max } };
  return null;
}

/** An IPv4 address field. */
export function ipProblem(v: string | undefined): Problem | null {
  if (!v) return { key: 'settings.err_required' };
  return isIpv4(v) ? null : { key: 'settings.err_ip' };
}

/** The rule a static address, mask and gateway break together, against the field it concerns. */
export function staticProblem(ip: {
  address?: string;
  mask?: string;
  gateway?: string;
}): { field: 'address' | 'mask' | 'gateway'; problem: Problem } | null {
  if (!ip.address || !ip.mask || !ip.gateway || !isIpv4(ip.mask)) return null;
  const p = staticIpProblem({ address: ip.address, mask: ip.mask, gateway: ip.gateway });
  return p ? { field: p.field, problem: { key: `settings.err_ip_${p.reason}` } } : null;
}

/** The WiFi password as typed: empty keeps the device's, otherwise 8 to 63 printable characters. */
export function passwordProblem(v: string | undefined): Problem | null {
  if (!v) return null;
  const { min, max } = SETTINGS_LIMITS.wifiPassword;
  return /^[\x20-\x7e]*$/.test(v) && v.length >= min && v.length <= max
    ? null
    : { key: 'settings.err_password', values: { min, max } };
}

/** The network name: 1 to 32 characters. */
export function ssidProblem(v: string | undefined): Problem | null {
  if (!v) return { key: 'settings.err_required' };
  return v.length <= SETTINGS_LIMITS.ssidMaxChars
    ? null
    : { key: 'settings.err_ssid', values: { max: SETTINGS_LIMITS.ssidMaxChars } };
}
