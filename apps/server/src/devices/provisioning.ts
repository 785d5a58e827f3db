// Registering real meters: a device row, ownership for every user manager, and the device's own
// broker credentials (username = mac, a 256-bit secret shown once). Used by the `device` command.
import type { Insertable } from 'kysely';
import { z } from 'zod';
import { DEVICE_TYPES, Mac, OWNER_LIFETIME_SEC, type DeviceTypeId } from '@meterportal/protocol';
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
});
/** What registering a meter needs. */
export type DeviceRegistration = z.input<typeof DeviceRegistration>;

/** Credentials of one meter as the simulator's --credentials file and the device take them. */
export interface IssuedCredentials {
  mac: string;
  type: DeviceTypeId;
  username: string;
  password: string;
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
  },
  nowMs: number,
): Insertable<DevicesTable> {
  return {
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

/** A refusal that names what was wrong; nothing was changed. */
export class ProvisioningError extends Error {}

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
      );
    }
  }
  const devices = devicesRepository(database);

  async function find(mac: string): Promise<DeviceRow> {
    const parsed = Mac.safeParse(mac);
    const row = parsed.success ? await devices.findByMac(parsed.data.toUpperCase()) : undefined;
    if (!row) throw new ProvisioningError(`no device ${mac}`);
    return row;
  }

  return {
    /** Adds a meter, makes every user manager its owner and issues its credentials. */
    async register(input: DeviceRegistration): Promise<IssuedCredentials> {
      const parsed = DeviceRegistration.safeParse(input);
      if (!parsed.success)
        throw new ProvisioningError(
          parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '),
        );
      const d = parsed.data;
      if (await devices.findByMac(d.mac))
        throw new ProvisioningError(`device ${d.mac} is already registered`);
      const now = clock.nowMs();
      const row = await devices.createOwnedByManagers(
        newDeviceRow(
          { mac: d.mac, type: d.type, title: d.title, phaseUse: d.phases, lora: d.lora, nilm: d.nilm },
          now,
        ),
        OWNER_LIFETIME_SEC,
        now,
      );
      const issued = await credentials.issue(row.id, row.mac);
      await toBroker(row.mac, (a) => a.set(row.mac, issued.password), 'secret');
      return { mac: row.mac, type: d.type, ...issued };
    },

    /** A new secret for a registered meter; the old one stops working at once. */
    async rotate(mac: string): Promise<IssuedCredentials> {
      const row = await find(mac);
      const issued = await credentials.issue(row.id, row.mac);
      await toBroker(row.mac, (a) => a.set(row.mac, issued.password), 'secret');
      return { mac: row.mac, type: row.type as DeviceTypeId, ...issued };
    },

    /** Withdraws a meter's secret: it can no longer connect. Its data and assignments stay. */
    async revoke(mac: string): Promise<void> {
      const row = await find(mac);
      await credentials.revoke(row.id);
      await toBroker(row.mac, (a) => a.remove(row.mac), 'revoke');
    },

    /** Every registered meter and whether it holds broker credentials. */
    async list(): Promise<{ mac: string; type: number; title: string; credentials: boolean }[]> {
      const rows = await devices.listWithCredentials();
      return rows.map((r) => ({
        mac: r.mac,
        type: r.type,
        title: r.title,
        credentials: r.username !== null,
      }));
    },
  };
}
