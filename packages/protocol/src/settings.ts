// Device settings: LoRa radio, WiFi network and measurement, read from the device and written back.
import { z } from 'zod';
import { DeviceTokenString, okWith } from './common';

/** Bounds of the numeric settings, shared by the server, the form and the simulated device. */
export const SETTINGS_LIMITS = {
  echoIntervalSec: { min: 10, max: 86_400 },
  aliveIntervalSec: { min: 60, max: 86_400 },
  timeScaleSec: { min: 1, max: 3600 },
  energyOffsetWh: { min: 0, max: 1_000_000_000_000 },
  transformationRatio: { min: 1, max: 10_000 },
  activePowerThresholdW: { min: 0, max: 100_000 },
  ssidMaxChars: 32,
  wifiPassword: { min: 8, max: 63 },
} as const;

/** A LoRaWAN root key (application or network key): 128 bits written as 32 hexadecimal digits. */
export const LORA_KEY_PATTERN = /^[0-9A-Fa-f]{32}$/;

/** Units a device can show power in on its own display; live frames stay in W. */
export const POWER_SCALES = ['W', 'kW', 'MW'] as const;
/** Unit a device shows power in. */
export type PowerScale = (typeof POWER_SCALES)[number];

/** Accuracy classes a meter can be set to (IEC 62053). */
export const ACCURACY_CLASSES = ['0.2S', '0.5S', '1', '2'] as const;
/** Accuracy class of a meter. */
export type AccuracyClass = (typeof ACCURACY_CLASSES)[number];

/** Measuring channels (phases) of a device. */
export const CHANNELS = ['L1', 'L2', 'L3'] as const;
/** One measuring channel. */
export type Channel = (typeof CHANNELS)[number];

const whole = (name: string, { min, max }: { min: number; max: number }, unit: string) =>
  z
    .number({ error: `${name} must be a number` })
    .int({ error: `${name} must be a whole number of ${unit}` })
    .min(min, { error: `${name} must be at least ${min} ${unit}` })
    .max(max, { error: `${name} must be at most ${max} ${unit}` });

const loraKey = (name: string) =>
  z.string().regex(LORA_KEY_PATTERN, { error: `${name} must be 32 hexadecimal digits (128 bits)` });

const octets = (ip: string): number[] | null => {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
};
/** Whether a text is an IPv4 address in dotted form. */
export const isIpv4 = (s: string): boolean => octets(s) !== null;
const toInt = (parts: number[]) => parts.reduce((a, p) => a * 256 + p, 0);

/** An IPv4 address in dotted form, each part 0 to 255. */
export const Ipv4 = z
  .string()
  .max(15)
  .refine((s) => octets(s) !== null, { error: 'must be an IPv4 address such as 192.168.1.20' });

/** Prefix length of a subnet mask, or null when the ones are not contiguous. */
export function maskBits(mask: string): number | null {
  const p = octets(mask);
  if (!p) return null;
  const bits = toInt(p).toString(2).padStart(32, '0');
  return /^1*0*$/.test(bits) ? (bits.indexOf('0') === -1 ? 32 : bits.indexOf('0')) : null;
}

/**
 * Why a static address does not work with its mask and gateway, or null when it does: the mask
 * must be contiguous (/1 to /30), the address a host of its subnet, the gateway another host of it.
 */
export function staticIpProblem(ip: { address: string; mask: string; gateway: string }): {
  field: 'address' | 'mask' | 'gateway';
  /** Which rule failed, for texts in other languages. */
  reason: 'mask' | 'edge' | 'subnet' | 'host';
  message: string;
} | null {
  const bits = maskBits(ip.mask);
  if (bits === null || bits < 1 || bits > 30)
    return {
      field: 'mask',
      reason: 'mask',
      message: 'Subnet mask must be contiguous, from 128.0.0.0 to 255.255.255.252',
    };
  const a = octets(ip.address);
  const g = octets(ip.gateway);
  if (!a || !g) return null;
  const size = 2 ** (32 - bits);
  const host = (n: number) => n % size;
  const net = (n: number) => Math.floor(n / size);
  const ai = toInt(a);
  const gi = toInt(g);
  if (host(ai) === 0 || host(ai) === size - 1)
    return {
      field: 'address',
      reason: 'edge',
      message: 'IP address is the network or broadcast address of its subnet',
    };
  if (net(gi) !== net(ai))
    return {
      field: 'gateway',
      reason: 'subnet',
      message: 'Gateway must lie in the subnet of the IP address',
    };
  if (gi === ai || host(gi) === 0 || host(gi) === size - 1)
    return {
      field: 'gateway',
      reason: 'host',
      message: 'Gateway must be another host of the subnet',
    };
  return null;
}

/** How the device gets its IP settings: from DHCP, or a static address with mask, gateway and DNS. */
export const IpSettings = z
  .discriminatedUnion('mode', [
    z.object({ mode: z.literal('DHCP') }).strict(),
    z.object({ mode: z.literal('STATIC'), address: Ipv4, mask: Ipv4, gateway: Ipv4, dns: Ipv4 }).strict(),
  ])
  .superRefine((ip, ctx) => {
    if (ip.mode !== 'STATIC') return;
    const problem = staticIpProblem(ip);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });
/** IP settings. */
export type IpSettings = z.infer<typeof IpSettings>;

/** LoRa settings as written: keys are optional (left out, the device keeps its own). */
export const LoraSettingsWrite = z
  .object({
    appKey: loraKey('Application key').optional(),
    netKey: loraKey('Network key').optional(),
    echoIntervalSec: whole('Echo interval', SETTINGS_LIMITS.echoIntervalSec, 's'),
    aliveIntervalSec: whole('Alive interval', SETTINGS_LIMITS.aliveIntervalSec, 's'),
  })
  .strict();
/** LoRa settings as written. */
export type LoraSettingsWrite = z.infer<typeof LoraSettingsWrite>;

/** LoRa settings as read: the keys are write-only, so only whether each one is set. */
export const LoraSettingsView = z.object({
  appKeySet: z.boolean(),
  netKeySet: z.boolean(),
  echoIntervalSec: z.number().int(),
  aliveIntervalSec: z.number().int(),
});
/** LoRa settings as read. */
export type LoraSettingsView = z.infer<typeof LoraSettingsView>;

const Ssid = z
  .string()
  .min(1, { error: 'WiFi network name is required' })
  .max(SETTINGS_LIMITS.ssidMaxChars, {
    error: `WiFi network name must be at most ${SETTINGS_LIMITS.ssidMaxChars} characters`,
  })
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]*$/, { error: 'WiFi network name must not hold control characters' });

/** WiFi settings as written: the password is optional (left out, the device keeps its own). */
export const WifiSettingsWrite = z
  .object({
    ssid: Ssid,
    password: z
      .string()
      .regex(/^[\x20-\x7e]{8,63}$/, { error: 'WiFi password must be 8 to 63 printable ASCII characters' })
      .optional(),
    ip: IpSettings,
  })
  .strict();
/** WiFi settings as written. */
export type WifiSettingsWrite = z.infer<typeof WifiSettingsWrite>;

/** WiFi settings as read: the password is write-only, so only whether it is set. */
export const WifiSettingsView = z.object({ ssid: z.string(), passwordSet: z.boolean(), ip: IpSettings });
/** WiFi settings as read. */
export type WifiSettingsView = z.infer<typeof WifiSettingsView>;

/** Measurement settings, read and written alike. */
export const MeasurementSettings = z
  .object({
    powerScale: z.enum(POWER_SCALES, { error: `Power scale must be one of ${POWER_SCALES.join(', ')}` }),
    timeScaleSec: whole('Time scale', SETTINGS_LIMITS.timeScaleSec, 's'),
    activeChannels: z
      .array(z.enum(CHANNELS, { error: 'Active channels are L1, L2 and L3' }))
      .min(1, { error: 'At least one channel must be active' })
      .max(3)
      .refine((c) => new Set(c).size === c.length, { error: 'Each channel may be named once' }),
    accuracy: z.enum(ACCURACY_CLASSES, { error: `Accuracy must be one of ${ACCURACY_CLASSES.join(', ')}` }),
    energyOffsetWh: whole('Energy offset', SETTINGS_LIMITS.energyOffsetWh, 'Wh'),
    transformationRatio: z
      .number({ error: 'Transformation ratio must be a number' })
      .min(SETTINGS_LIMITS.transformationRatio.min, {
        error: `Transformation ratio must be at least ${SETTINGS_LIMITS.transformationRatio.min}`,
      })
      .max(SETTINGS_LIMITS.transformationRatio.max, {
        error: `Transformation ratio must be at most ${SETTINGS_LIMITS.transformationRatio.max}`,
      })
      .refine((n) => Math.abs(Math.round(n * 1000) - n * 1000) < 1e-6, {
        error: 'Transformation ratio takes at most 3 decimals',
      }),
    activePowerThresholdW: z
      .number({ error: 'Active power threshold must be a number' })
      .min(SETTINGS_LIMITS.activePowerThresholdW.min, {
        error: 'Active power threshold must not be negative',
      })
      .max(SETTINGS_LIMITS.activePowerThresholdW.max, {
        error: `Active power threshold must be at most ${SETTINGS_LIMITS.activePowerThresholdW.max} W`,
      }),
  })
  .strict();
/** Measurement settings. */
export type MeasurementSettings = z.infer<typeof MeasurementSettings>;

/** Every setting of a device as it reports them; `lora` is null for a device without a LoRa radio. */
export const DeviceSettings = z.object({
  lora: LoraSettingsView.nullable(),
  wifi: WifiSettingsView,
  measurement: MeasurementSettings,
});
/** Every setting of a device as read. */
export type DeviceSettings = z.infer<typeof DeviceSettings>;

/** One section of the settings to write; a section is written whole (keys and password optional). */
export const SettingsWrite = z.discriminatedUnion('section', [
  z.object({ section: z.literal('lora'), lora: LoraSettingsWrite }),
  z.object({ section: z.literal('wifi'), wifi: WifiSettingsWrite }),
  z.object({ section: z.literal('measurement'), measurement: MeasurementSettings }),
]);
/** One section of the settings to write. */
export type SettingsWrite = z.infer<typeof SettingsWrite>;
/** Name of a settings section. */
export type SettingsSection = SettingsWrite['section'];

/** Body of POST /devices/settings (read door). */
export const SettingsReadRequest = z.object({ token: DeviceTokenString });
/** Answer: the settings the device reported just now. */
export const SettingsResponse = okWith(DeviceSettings);
/** Body of POST /devices/settings (write door): the device and one section. */
export const SettingsWriteRequest = z.discriminatedUnion('section', [
  z.object({ token: DeviceTokenString, section: z.literal('lora'), lora: LoraSettingsWrite }),
  z.object({ token: DeviceTokenString, section: z.literal('wifi'), wifi: WifiSettingsWrite }),
  z.object({
    token: DeviceTokenString,
    section: z.literal('measurement'),
    measurement: MeasurementSettings,
  }),
]);
/** Body of the settings write. */
export type SettingsWriteRequest = z.infer<typeof SettingsWriteRequest>;
