import crypto from 'node:crypto';
import type { Config } from './config/config';
import type { Database } from './db/database';
import type { Clock } from './clock';
import { authService, type AuthService } from './auth/auth.service';
import { userInfoVerifier, type OidcVerifier } from './auth/oidc';
import { sessionsRepository } from './auth/sessions.repository';
import { usersRepository, type UsersRepository } from './auth/users.repository';
import { deviceTokens } from './devices/deviceToken';
import { devicesRepository, type DevicesRepository } from './devices/devices.repository';
import { devicesService, type DevicesService } from './devices/devices.service';
import { userManagerRepository } from './usermanager/usermanager.repository';
import { userManagerService, type UserManagerService } from './usermanager/usermanager.service';

/** Everything a route needs, built once at start-up and passed in. */
export interface Services {
  config: Config;
  database: Database;
  clock: Clock;
  auth: AuthService;
  devices: DevicesService;
  userManager: UserManagerService;
  repos: { users: UsersRepository; devices: DevicesRepository };
}

/**
 * The installation's device-token key: TOKEN_SECRET when configured, else one generated on the
 * first start and kept in the database so every server instance signs alike.
 */
async function tokenSecret(config: Config, { db }: Database): Promise<string> {
  if (config.TOKEN_SECRET) return config.TOKEN_SECRET;
  await db
    .insertInto('secrets')
    .values({ name: 'device_token_key', value: crypto.randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('secrets').select('value').where('name', '=', 'device_token_key').executeTakeFirstOrThrow();
  return row.value;
}

/** Builds the services over an opened, migrated database. */
export async function createServices(deps: {
  config: Config;
  database: Database;
  clock: Clock;
  oidc?: OidcVerifier;
}): Promise<Services> {
  const { config, database, clock } = deps;
  const users = usersRepository(database);
  const devicesRepo = devicesRepository(database);
  const tokens = deviceTokens(await tokenSecret(config, database));
  const devices = devicesService({ devicesRepo, tokens, clock });
  const sessions = sessionsRepository(database);
  const auth = authService({
    usersRepo: users,
    sessionsRepo: sessions,
    devices,
    oidc: deps.oidc ?? userInfoVerifier(config.OIDC_ISSUER),
    clock,
  });
  const userManager = userManagerService({
    auth,
    users,
    devices: devicesRepo,
    sessions,
    repo: userManagerRepository(database),
    clock,
  });
  return { config, database, clock, auth, devices, userManager, repos: { users, devices: devicesRepo } };
}
