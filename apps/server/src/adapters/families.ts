// Device families and their MQTT topics: which topic belongs to which family and device, and
// exactly which topics each device may publish, subscribe to and leave its last will on.
//   shelly   <prefix>/…           publishes under its prefix, subscribes under it (rpc, command)
//   tasmota  tele/<topic>/…, stat/<topic>/…; subscribes cmnd/<topic>/…
//   p1       p1/<topic>           (one raw telegram or DSMR-reader JSON per message)
//   json     json/<topic>         (one JSON object per message, read through the device's mapping)
// A topic or prefix is one topic level; a Shelly prefix cannot be a word the other families use.
import { z } from 'zod';
import type { ENERGY_KINDS, ProfileQuantity } from '@meterportal/protocol';
import { storedMapping } from './json';

/** How a device speaks MQTT: the portal's own topics, or a family the portal adapts. */
export const DEVICE_FAMILIES = ['portal', 'shelly', 'tasmota', 'p1', 'json'] as const;
/** How a device speaks MQTT. */
export type DeviceFamily = (typeof DEVICE_FAMILIES)[number];
/** A family whose payloads the portal adapts. */
export type AdapterFamily = Exclude<DeviceFamily, 'portal'>;

/** Whether a stored family word is one of an adapted family. */
export const isAdapterFamily = (f: string): f is AdapterFamily =>
  f === 'shelly' || f === 'tasmota' || f === 'p1' || f === 'json';

/** First topic levels of the other families and of the portal, never a Shelly prefix. */
const RESERVED = new Set(['tele', 'stat', 'cmnd', 'p1', 'meters', 'portal', 'tasmotas', 'shellies', 'json']);

/** A family topic or prefix: one level of letters, digits, `-`, `_` and `.`. */
export const FamilyTopic = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'one topic level of letters, digits, "-", "_" or "."');

/** The topic of a family device: refuses a Shelly prefix that another family's topics begin with. */
export function familyTopicProblem(family: AdapterFamily, topic: string): string | null {
  const parsed = FamilyTopic.safeParse(topic);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? 'invalid';
  if (family === 'shelly' && RESERVED.has(topic.toLowerCase()))
    return `"${topic}" is taken by other topics; choose another prefix`;
  return null;
}

/** A device of an adapted family, as its topics name it. */
export interface FamilyDevice {
  family: AdapterFamily;
  topic: string;
}

/** Which family device a topic belongs to, and the rest of the topic after its own part. */
export function parseFamilyTopic(topic: string): (FamilyDevice & { sub: string }) | null {
  const levels = topic.split('/');
  const [first, second] = levels;
  if (!first || levels.some((l) => l === '')) return null;
  if (first === 'tele' || first === 'stat') {
    if (levels.length !== 3 || !second) return null;
    // The reply to `Status 8` is read like a SENSOR message; other stat replies are not.
    const last = levels[2]!;
    return {
      family: 'tasmota',
      topic: second,
      sub: first === 'tele' || last === 'STATUS8' ? last : `stat/${last}`,
    };
  }
  if (first === 'p1') return levels.length === 2 && second ? { family: 'p1', topic: second, sub: '' } : null;
  if (first === 'json')
    return levels.length === 2 && second ? { family: 'json', topic: second, sub: '' } : null;
  if (RESERVED.has(first.toLowerCase()) || levels.length < 2) return null;
  return { family: 'shelly', topic: first, sub: levels.slice(1).join('/') };
}

/** What a family device may do on the broker, as MQTT topic filters. */
export interface FamilyAcl {
  /** Filters of the topics it may publish (its last will among them). */
  publish: string[];
  /** Filters below which it may subscribe. */
  subscribe: string[];
}

/** The topics one family device may use: its own, nothing of another device. */
export function familyAcl(d: FamilyDevice): FamilyAcl {
  switch (d.family) {
    case 'shelly':
      return { publish: [`${d.topic}/#`], subscribe: [`${d.topic}/#`] };
    case 'tasmota':
      return { publish: [`tele/${d.topic}/#`, `stat/${d.topic}/#`], subscribe: [`cmnd/${d.topic}/#`] };
    case 'p1':
      return { publish: [`p1/${d.topic}`], subscribe: [] };
    case 'json':
      return { publish: [`json/${d.topic}`], subscribe: [] };
  }
}

/** Whether a topic (no wildcards) matches an MQTT filter. */
export function topicMatches(filter: string, topic: string): boolean {
  if (topic.includes('+') || topic.includes('#')) return false;
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length) return false;
    if (f[i] !== '+' && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}

/**
 * Whether a subscription filter stays within one of the allowed filters: every topic it can match
 * is one the allowed filter matches (wildcards only where the allowed filter has them).
 */
export function filterWithin(allowed: string, requested: string): boolean {
  const a = allowed.split('/');
  const r = requested.split('/');
  for (let i = 0; i < a.length; i++) {
    if (a[i] === '#') return i < r.length;
    if (i >= r.length) return false;
    if (r[i] === '#') return false;
    if (a[i] === '+') continue;
    if (r[i] !== a[i]) return false;
  }
  return a.length === r.length;
}

/** What the portal subscribes to on an external broker to hear every family device. */
export const FAMILY_SUBSCRIPTIONS: readonly string[] = [
  'tele/+/SENSOR',
  'tele/+/LWT',
  'stat/+/STATUS8',
  '+/status/+',
  '+/online',
  '+/events/rpc',
  'p1/+',
  'json/+',
];

/**
 * Quantities each adapted family's payloads carry. The history of a family device answers only
 * these, beside its type's own limits: a quantity the device lacks is absent from its charts
 * (like a quantity its type lacks), never a line of zeros.
 */
export const FAMILY_QUANTITIES: Readonly<Record<AdapterFamily, readonly ProfileQuantity[]>> = {
  shelly: ['U', 'I', 'P', 'S', 'E_I', 'E_E', 'F', 'PF'],
  tasmota: ['U', 'I', 'P', 'Q', 'S', 'E_I', 'E_E', 'F', 'PF'],
  // DSMR defines no frequency or power factor; the frequency a few national variants add
  // (1-0:14.7.0) is still carried in the live frame, but no P1 meter is charted by it.
  p1: ['U', 'I', 'P', 'E_I', 'E_E'],
  // What a JSON meter carries is what its mapping names (jsonMeasures narrows it per device).
  json: ['U', 'I', 'P', 'Q', 'S', 'E_I', 'E_E', 'F', 'PF'],
};

/**
 * Whether a device of this family (stored word) reports the quantity; the portal's own: every one.
 * A generic JSON meter reports what its stored mapping names.
 */
export function familyMeasures(family: string, quantity: ProfileQuantity, mapping?: string | null): boolean {
  if (family === 'json' && mapping !== undefined)
    return storedMapping(mapping)?.rows.some((r) => r.quantity === quantity) ?? false;
  return !isAdapterFamily(family) || FAMILY_QUANTITIES[family].includes(quantity);
}

/** Whether a device of this family keeps the register behind an energy series. */
export function familyHasEnergy(
  family: string,
  kind: (typeof ENERGY_KINDS)[number],
  mapping?: string | null,
): boolean {
  return familyMeasures(family, kind === 'E_I' || kind === 'E_E' ? kind : 'Q_E', mapping);
}
