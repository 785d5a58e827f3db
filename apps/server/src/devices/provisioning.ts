// Registering real meters: a device row, ownership for every user manager, and the device's own
// broker credentials (username = mac, a 256-bit secret shown once). Used by the `device` command
// and by the user manager's registration calls, so both register, rotate and revoke alike.
// A meter of an adapted family (Shelly, Tasmota, P1) is registered with its topic or prefix, and
// may use exactly its family's topics for that topic (adapters/families.ts).
import type { Insertable } from 'kysely';
import { z } from 'zod';
import {
  DEVICE_TYPES,
  JsonMapping,
  Mac,
  jsonMappingProblems,
  OWNER_LIFETIME_SEC,
  OnlineStatus,
  type DeviceTypeId,
} from '@meterportal/protocol';
import {
  DEVICE_FAMILIES,
  familyAcl,
  familyTopicProblem,
  isAdapterFamily,
  type AdapterFamily,
  type DeviceFamily,
  type FamilyDevice,
} from '../adapters/families';
import { familyDevicesRepository } from '../adapters/family-devices.repository';
import { storedMapping } from '../adapters/json';
import { knownTimeZone } from '../adapters/local-time';
import type { DeviceCredentials } from '../broker/credentials';
import type { BrokerAccounts } from '../broker/dynsec';
import type { Clock } from '../clock';
import type { Database } from '../db/database';
import type { DevicesTable } from '../db/schema';
import { devicesRepository, type DeviceRow } from './devices.repository';

/** What registering a meter needs. */
export const DeviceRegistration = z.object({
  /** Kept in capitals, as meters write it in their topics and username. */
  mac: Mac.transform((m) => m.toUpperCase()),
  type: z.coerce
    .number()
    .int()
    .refine((t) => DEVICE_TYPES.includes(t as DeviceTypeId), 'type must be 1 to 6')
    .transform((t) => t as DeviceTypeId),
  title: z.string().trim().min(1).max(100),
  phases: z.coerce.number().int().min(1).max(3).default(3),
  lora: z.boolean().default(false),
  nilm: z.boolean().default(false),
  /** How it speaks MQTT; `portal` unless it is a Shelly, Tasmota or P1 meter. */
  family: z.string().default('portal').pipe(z.enum(DEVICE_FAMILIES, 'portal, shelly, tasmota, p1 or json')),
  /** Shelly prefix, Tasmota topic or P1 topic (for those families only). */
  topic: z.string().optional(),
  /** Which JSON paths carry which quantities (generic JSON meters only). */
  mapping: JsonMapping.optional(),
  /** Zone of the device's clock when it is not the installation's (Tasmota, P1). */
  tz: z
    .string()
    .optional()
    .refine((tz) => tz === undefined || knownTimeZone(tz), 'not a time zone this server knows'),
});

/** What registering a meter needs. */
export type DeviceRegistration = z.input<typeof DeviceRegistration>;

/**
 * What is wrong with a registration's family, topic and zone, each named; checked beside the
 * other fields so one answer names every field at fault.
 */
function familyIssues(input: DeviceRegistration): string[] {
  const family = DEVICE_FAMILIES.find((f) => f === (input.family ?? 'portal'));
  if (!family) return []; // named by the schema
  const mappingIssues =
    family !== 'json'
      ? input.mapping !== undefined
        ? ['mapping: only for the json family']
        : []
      : input.mapping === undefined
        ? ['mapping: required for the json family']
        : mappingProblems(input.mapping);
  if (family === 'portal') {
    const only = 'only for the shelly, tasmota, p1 and json families';
    return [
      ...(input.topic !== undefined ? [`topic: ${only}`] : []),
      ...(input.tz !== undefined ? [`tz: ${only}`] : []),
      ...mappingIssues,
    ];
  }
  const problem =
    input.topic === undefined
      ? `required for the ${family} family`
      : familyTopicProblem(family, input.topic.trim());
  return [...(problem ? [`topic: ${problem}`] : []), ...mappingIssues];
}

/** What is wrong with a mapping as sent, each named under `mapping.`. */
function mappingProblems(mapping: unknown): string[] {
  const parsed = JsonMapping.safeParse(mapping);
  if (!parsed.success)
    return parsed.error.issues.map((i) => `mapping.${i.path.join('.')}: ${i.message}`.replace(/\.:/, ':'));
  return jsonMappingProblems(parsed.data).map((p) => `mapping.${p}`);
}

/** A mapping as stored: trimmed paths, no empty time path. */
function mappingText(m: JsonMapping): string {
  const timePath = m.timePath?.trim();
  return JSON.stringify({
    rows: m.rows.map((r) => ({ quantity: r.quantity, phase: r.phase, path: r.path.trim(), scale: r.scale })),
    ...(timePath && m.timeFormat ? { timePath, timeFormat: m.timeFormat } : {}),
  });
}

/** Credentials of one meter as the simulator's --credentials file and the device take them. */
export interface IssuedCredentials {
  mac: string;
  type: DeviceTypeId;
  username: string;
  password: string;
  /** The family and topic of a Shelly, Tasmota or P1 meter. */
  family?: FamilyDevice;
}

/** The devices row of a new meter. */
export function newDeviceRow(
  d: {
    mac: string;
    type: DeviceTypeId;
    title: string;
    description?: string;
    phaseUse: number;
    lora?: boolean;
    nilm?: boolean;
    family?: { family: DeviceFamily; topic: string | null; tz: string | null };
    mapping?: JsonMapping;
  },
  nowMs: number,
): Insertable<DevicesTable> {
  return {
    ...(d.family ? { family: d.family.family, family_topic: d.family.topic, family_tz: d.family.tz } : {}),
    ...(d.mapping ? { family_mapping: mappingText(d.mapping) } : {}),
    mac: d.mac,
    type: d.type,
    title: d.title,
    description: d.description ?? null,
    phase_use: d.phaseUse,
    lora: d.lora ? 1 : 0,
    nilm_process: d.nilm ? 1 : 0,
    nilm_autolearn: d.nilm ? 1 : 0,
    fw: null,
    created_at_ms: nowMs,
  };
}

/** The family and topic of a stored device; null for one of the portal's own protocol. */
function familyOf(row: DeviceRow): FamilyDevice | null {
  return isAdapterFamily(row.family) && row.family_topic
    ? { family: row.family satisfies AdapterFamily, topic: row.family_topic }
    : null;
}

/**
 * Why a change was refused: bad input, a mac or topic already held, no such device, or a broker
 * that could not be told (the store already holds the change then).
 */
export type ProvisioningRefusal = 'invalid' | 'duplicate' | 'missing' | 'broker';

/** A refusal that names what was wrong; nothing was changed (except for `broker`, as its text says). */
export class ProvisioningError extends Error {
  constructor(
    message: string,
    readonly refusal: ProvisioningRefusal = 'invalid',
  ) {
    super(message);
  }
}

/** A registered meter as the registration list shows it. */
export interface RegisteredMeter {
  mac: string;
  type: number;
  title: string;
  family: DeviceFamily;
  topic: string | null;
  tz: string | null;
  credentials: boolean;
  online: boolean;
  /** A generic JSON meter's mapping. */
  mapping?: JsonMapping;
}

/** Registering meters, rotating and revoking their broker secrets. */
export function deviceProvisioning(deps: {
  database: Database;
  credentials: DeviceCredentials;
  clock: Clock;
  brokerAccounts?: BrokerAccounts;
}) {
  const { database, credentials, clock, brokerAccounts } = deps;

  // The store holds the secret first; a broker that could not be told is named, with the way out.
  async function toBroker(
    mac: string,
    change: (a: BrokerAccounts) => Promise<void>,
    retry: string,
  ): Promise<void> {
    if (!brokerAccounts) return;
    try {
      await change(brokerAccounts);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw new ProvisioningError(
        `${mac}: stored, but the broker's accounts were not updated (${why}); run "device ${retry} --mac ${mac}" again`,
        'broker',
      );
    }
  }
  const devices = devicesRepository(database);
  const families = familyDevicesRepository(database);

  async function find(mac: string): Promise<DeviceRow> {
    const parsed = Mac.safeParse(mac);
    const row = parsed.success ? await devices.findByMac(parsed.data.toUpperCase()) : undefined;
    if (!row) throw new ProvisioningError(`no device ${mac}`, 'missing');
    return row;
  }

  return {
    /** Adds a meter, makes every user manager its owner and issues its credentials. */
    async register(input: DeviceRegistration): Promise<IssuedCredentials> {
      const parsed = DeviceRegistration.safeParse(input);
      const issues = [
        ...(parsed.success
          ? []
          : parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`)),
        ...familyIssues(input),
      ];
      if (!parsed.success || issues.length) throw new ProvisioningError(issues.join('; '));
      const d = parsed.data;
      if (await devices.findByMac(d.mac))
        throw new ProvisioningError(`device ${d.mac} is already registered`, 'duplicate');
      const family: FamilyDevice | null =
        d.family !== 'portal' && d.topic !== undefined ? { family: d.family, topic: d.topic.trim() } : null;
      if (family) {
        const holder = await families.byTopic(family.family, family.topic);
        if (holder)
          throw new ProvisioningError(
            `topic: "${family.topic}" is already the ${family.family} topic of ${holder.mac}`,
            'duplicate',
          );
      }
      const now = clock.nowMs();
      const row = await devices.createOwnedByManagers(
        newDeviceRow(
          {
            mac: d.mac,
            type: d.type,
            title: d.title,
            phaseUse: d.phases,
            lora: d.lora,
            nilm: d.nilm,
            ...(family ? { family: { ...family, tz: d.tz ?? null } } : {}),
            ...(family?.family === 'json' && d.mapping ? { mapping: d.mapping } : {}),
          },
          now,
        ),
        OWNER_LIFETIME_SEC,
        now,
      );
      const issued = await credentials.issue(row.id, row.mac);
      await toBroker(
        row.mac,
        (a) => a.set(row.mac, issued.password, family ? familyAcl(family) : undefined),
        'secret',
      );
      return { mac: row.mac, type: d.type, ...issued, ...(family ? { family } : {}) };
    },

    /** A new secret for a registered meter; the old one stops working at once. */
    async rotate(mac: string): Promise<IssuedCredentials> {
      const row = await find(mac);
      const issued = await credentials.issue(row.id, row.mac);
      const family = familyOf(row);
      await toBroker(
        row.mac,
        (a) => a.set(row.mac, issued.password, family ? familyAcl(family) : undefined),
        'secret',
      );
      return { mac: row.mac, type: row.type as DeviceTypeId, ...issued, ...(family ? { family } : {}) };
    },

    /** Changes a generic JSON meter's mapping; nothing is changed when it is refused. */
    async setMapping(mac: string, mapping: unknown): Promise<void> {
      const row = await find(mac);
      if (row.family !== 'json') throw new ProvisioningError('mapping: only for the json family');
      const problems = mappingProblems(mapping);
      if (problems.length) throw new ProvisioningError(problems.join('; '));
      await database.db
        .updateTable('devices')
        .set({ family_mapping: mappingText(mapping as JsonMapping) })
        .where('id', '=', row.id)
        .execute();
    },

    /** Withdraws a meter's secret: it can no longer connect. Its data and assignments stay. */
    async revoke(mac: string): Promise<void> {
      const row = await find(mac);
      await credentials.revoke(row.id);
      await toBroker(row.mac, (a) => a.remove(row.mac), 'revoke');
    },

    /** Every registered meter: family, topic, whether it holds broker credentials and is online. */
    async list(): Promise<RegisteredMeter[]> {
      const rows = await devices.listWithCredentials();
      return rows.map((r) => ({
        mac: r.mac,
        type: r.type,
        title: r.title,
        family: DEVICE_FAMILIES.find((f) => f === r.family) ?? 'portal',
        topic: r.family_topic,
        tz: r.family_tz,
        credentials: r.username !== null,
        online: r.status === OnlineStatus.Online,
        ...(r.family === 'json' && storedMapping(r.family_mapping)
          ? { mapping: storedMapping(r.family_mapping)! }
          : {}),
      }));
    },
  };
}
