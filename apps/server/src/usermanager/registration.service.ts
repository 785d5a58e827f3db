// Registering real meters from the user manager: the same provisioning as the `device` command,
// with the settings to enter on the device answered once beside the new secret.
import {
  Application,
  ErrorCode,
  MAX_DEVICES_PER_USER,
  OWNER_LIFETIME_SEC,
  type DeviceConnectionSettings,
  type RegisteredDevice,
  type RegistrationAddRequest,
} from '@meterportal/protocol';
import { connectionSettings } from '../adapters/settings';
import type { Session } from '../auth/auth.service';
import type { UsersRepository } from '../auth/users.repository';
import type { DeviceCredentials } from '../broker/credentials';
import type { BrokerAccounts } from '../broker/dynsec';
import type { Clock } from '../clock';
import type { Config } from '../config/config';
import type { Database } from '../db/database';
import { ProvisioningError, deviceProvisioning, type IssuedCredentials } from '../devices/provisioning';
import type { DevicesRepository } from '../devices/devices.repository';
import { AppError, Conflict, Forbidden, InvalidRequest, NotFound } from '../http/errors';
import type { UserManagerRepository } from './usermanager.repository';

/** Where the request came from: the host a device reaches the embedded broker on. */
export interface RequestOrigin {
  hostname: string;
}

/** The embedded broker as registration needs it: its port, and closing a device's connection. */
export interface EmbeddedBrokerHandle {
  port: number | null;
  disconnect(mac: string): void;
}

/** Maps a provisioning refusal to the portal's error codes. */
function refusal(e: unknown): never {
  if (!(e instanceof ProvisioningError)) throw e;
  switch (e.refusal) {
    case 'invalid':
      throw new InvalidRequest(`Invalid request at ${e.message}`);
    case 'duplicate':
      throw new Conflict(e.message);
    case 'missing':
      throw new NotFound('Device not found');
    case 'broker':
      throw new AppError(ErrorCode.Internal, e.message);
  }
}

/** Registering devices and their broker credentials, for holders of USER_MANAGER only. */
export function registrationService(deps: {
  config: Config;
  database: Database;
  clock: Clock;
  users: UsersRepository;
  devices: DevicesRepository;
  repo: UserManagerRepository;
  credentials: DeviceCredentials;
  /** The external broker's account administration (MQTT_DYNSEC); connected for each change. */
  connectAccounts?: (url: string) => Promise<BrokerAccounts>;
}) {
  const { config, database, clock, users, devices, repo, credentials } = deps;
  // The embedded broker in this process, once it listens (it may have taken a free port).
  let embedded: EmbeddedBrokerHandle | null = null;

  function requireManager(s: Session): void {
    if (!s.applications.includes(Application.UserManager)) throw new Forbidden('User manager right required');
  }

  /** Runs one provisioning change, telling the external broker's accounts when they are kept there. */
  async function provision<T>(change: (p: ReturnType<typeof deviceProvisioning>) => Promise<T>): Promise<T> {
    let accounts: BrokerAccounts | undefined;
    if (config.MQTT_DYNSEC && config.MQTT_URL && deps.connectAccounts) {
      accounts = await deps.connectAccounts(config.MQTT_URL).catch((e: unknown) => {
        throw new AppError(
          ErrorCode.Internal,
          `The broker's device accounts cannot be reached (${e instanceof Error ? e.message : String(e)}); nothing was changed`,
        );
      });
    }
    try {
      return await change(
        deviceProvisioning({
          database,
          credentials,
          clock,
          ...(accounts ? { brokerAccounts: accounts } : {}),
        }),
      ).catch(refusal);
    } finally {
      await accounts?.close();
    }
  }

  function settings(issued: IssuedCredentials, origin: RequestOrigin): DeviceConnectionSettings {
    const external = config.MQTT_URL ? new URL(config.MQTT_URL) : null;
    return connectionSettings(issued.mac, issued.family ?? null, {
      host: external?.hostname ?? origin.hostname,
      port: external ? Number(external.port || 1883) : (embedded?.port ?? config.MQTT_PORT),
      username: issued.username,
      password: issued.password,
    });
  }

  return {
    /** The embedded broker of this process, told once it listens. */
    useEmbeddedBroker(broker: EmbeddedBrokerHandle): void {
      embedded = broker;
    },

    async list(user: Session): Promise<RegisteredDevice[]> {
      requireManager(user);
      return deviceProvisioning({ database, credentials, clock }).list();
    },

    /** Registers a device; its owner (when another user) is assigned as owner too. */
    async add(
      user: Session,
      input: RegistrationAddRequest,
      origin: RequestOrigin,
    ): Promise<DeviceConnectionSettings> {
      requireManager(user);
      // The owner is checked first so that a refusal changes nothing.
      let ownerId: number | null = null;
      if (input.owner !== undefined && input.owner.trim() !== '') {
        const owner = await users.findByLogin(input.owner.trim());
        if (!owner) throw new InvalidRequest('Invalid request at owner: no such user');
        if (!owner.applications.includes(Application.UserManager)) {
          const nowSec = Math.floor(clock.nowMs() / 1000);
          if ((await repo.countActiveAssignments(owner.id, nowSec)) >= MAX_DEVICES_PER_USER)
            throw new InvalidRequest(
              `Invalid request at owner: a user may hold at most ${MAX_DEVICES_PER_USER} devices`,
            );
          ownerId = owner.id;
        }
      }
      const issued = await provision((p) =>
        p.register({
          mac: input.mac,
          type: input.type,
          title: input.title,
          family: input.family,
          ...(input.topic !== undefined && input.family !== 'portal' ? { topic: input.topic } : {}),
          ...(input.tz !== undefined && input.tz.trim() !== '' ? { tz: input.tz.trim() } : {}),
          ...(input.mapping !== undefined ? { mapping: input.mapping } : {}),
        }),
      );
      if (ownerId !== null) {
        const row = await devices.findByMac(issued.mac);
        if (row)
          await devices.assign({
            userId: ownerId,
            deviceId: row.id,
            owner: true,
            lifeTimeSec: OWNER_LIFETIME_SEC,
            nowMs: clock.nowMs(),
          });
      }
      return settings(issued, origin);
    },

    /** A new secret; the old one is refused from now on. */
    async rotate(user: Session, mac: string, origin: RequestOrigin): Promise<DeviceConnectionSettings> {
      requireManager(user);
      const issued = await provision((p) => p.rotate(mac));
      // A connection made with the old secret ends now, not at its next reconnect.
      embedded?.disconnect(issued.mac);
      return settings(issued, origin);
    },

    /** Changes which JSON paths of a generic JSON meter carry which quantities. */
    async setMapping(user: Session, mac: string, mapping: unknown): Promise<void> {
      requireManager(user);
      await deviceProvisioning({ database, credentials, clock }).setMapping(mac, mapping).catch(refusal);
    },

    /** The device can no longer connect; its data and assignments stay. */
    async revoke(user: Session, mac: string): Promise<void> {
      requireManager(user);
      await provision((p) => p.revoke(mac));
      embedded?.disconnect(mac.toUpperCase());
    },
  };
}

/** Registering devices from the user manager. */
export type RegistrationService = ReturnType<typeof registrationService>;
