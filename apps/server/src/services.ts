import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import type { Config } from './config/config';
import type { Database } from './db/database';
import type { Clock } from './clock';
import { authService, type AuthService } from './auth/auth.service';
import { authHousekeeping, type AuthHousekeeping } from './auth/housekeeping';
import { oidcVerifier, type OidcVerifier } from './auth/oidc';
import { sessionsRepository } from './auth/sessions.repository';
import { usersRepository, type UsersRepository } from './auth/users.repository';
import { deviceTokens } from './devices/deviceToken';
import { devicesRepository, type DevicesRepository } from './devices/devices.repository';
import { devicesService, type DevicesService } from './devices/devices.service';
import { tokenKeyRepository } from './devices/tokenKey.repository';
import { healthRepository, type HealthRepository } from './http/health.repository';
import { historyRepository } from './history/history.repository';
import { historyService, type HistoryService } from './history/history.service';
import { notificationsRepository, type NotificationsRepository } from './tools/notifications.repository';
import { notificationsService, type NotificationsService } from './tools/notifications.service';
import { webexClient, type WebexClient } from './tools/webex';
import { localLiveBus, type LiveBus } from './live/bus';
import { createLiveHub, type LiveHub } from './live/hub';
import { liveRepository } from './live/live.repository';
import { commandsService, type CommandsService, type DeviceCommander } from './precision/commands.service';
import { createDeviceCommands, type DeviceCommands } from './broker/commands';
import { metersRepository } from './precision/meters.repository';
import { metersService, type MetersService } from './precision/meters.service';
import { monitoringService, type MonitoringService } from './tools/monitoring.service';
import { userManagerRepository } from './usermanager/usermanager.repository';
import { userManagerService, type UserManagerService } from './usermanager/usermanager.service';
import { ensureDayRollup } from './telemetry/day-rollup.repository';

/** Everything a route needs, built once at start-up and passed in. */
export interface Services {
  config: Config;
  database: Database;
  clock: Clock;
  auth: AuthService;
  /** Purges expired sessions and aged sign-in failures on a schedule. */
  authHousekeeping: AuthHousekeeping;
  devices: DevicesService;
  userManager: UserManagerService;
  history: HistoryService;
  monitoring: MonitoringService;
  notifications: NotificationsService;
  webex: WebexClient;
  live: { bus: LiveBus; hub: LiveHub };
  commands: CommandsService;
  meters: MetersService;
  /** Command client to devices; the device link connects it to the broker when ingest runs. */
  deviceCommands: DeviceCommands;
  /** The installation's log, shared by the HTTP server, the hub and the background parts. */
  logger: FastifyBaseLogger;
  /** Prometheus registry served at /metrics. */
  metrics: Registry;
  repos: {
    users: UsersRepository;
    devices: DevicesRepository;
    notifications: NotificationsRepository;
    health: HealthRepository;
  };
}

/**
 * The installation's device-token key: TOKEN_SECRET when configured, else one generated on the
 * first start and kept in the database so every server instance signs alike.
 */
async function tokenSecret(config: Config, database: Database): Promise<string> {
  if (config.TOKEN_SECRET) return config.TOKEN_SECRET;
  return tokenKeyRepository(database).keepFirst(crypto.randomBytes(32).toString('base64url'));
}

/** Builds the services over an opened, migrated database. */
export async function createServices(deps: {
  config: Config;
  database: Database;
  clock: Clock;
  oidc?: OidcVerifier;
  /** Device events for the websocket hub; in-process unless the installation fans out through a broker. */
  bus?: LiveBus;
  /** Where the log goes; standard output at LOG_LEVEL by default. */
  logger?: FastifyBaseLogger;
  /** Sends device commands instead of the broker's command client (tests of device answers). */
  commander?: DeviceCommander;
  /** How long a device command waits for its reply, ms (default COMMAND_TIMEOUT_SEC). */
  commandTimeoutMs?: number;
}): Promise<Services> {
  const { config, database, clock } = deps;
  const logger = deps.logger ?? pino({ level: config.LOG_LEVEL });
  const users = usersRepository(database);
  const devicesRepo = devicesRepository(database);
  const tokens = deviceTokens(await tokenSecret(config, database));
  const devices = devicesService({ devicesRepo, tokens, clock });
  const sessions = sessionsRepository(database);
  const auth = authService({
    usersRepo: users,
    sessionsRepo: sessions,
    devices,
    oidc: deps.oidc ?? oidcVerifier({ issuer: config.OIDC_ISSUER, clientId: config.OIDC_CLIENT_ID, clock }),
    clock,
    demoEnabled: config.DEMO,
    oidcEnabled: config.OIDC_CLIENT_ID !== '',
  });
  const userManager = userManagerService({
    auth,
    users,
    devices: devicesRepo,
    sessions,
    repo: userManagerRepository(database),
    clock,
  });
  // Daily energy sums are kept in the installation's local days; built here on first start.
  await ensureDayRollup(database, config.TZ);
  const historyRepo = historyRepository(database);
  const history = historyService({ repo: historyRepo, devices, tz: config.TZ });
  const monitoring = monitoringService({ repo: historyRepo, devices, clock, tz: config.TZ });
  const webex = webexClient({ baseUrl: config.WEBEX_BASE_URL, token: config.WEBEX_BOT_TOKEN });
  const notificationsRepo = notificationsRepository(database);
  const notifications = notificationsService({ repo: notificationsRepo, auth, devices, webex, clock });
  const deviceCommands = createDeviceCommands(
    deps.commandTimeoutMs ? { timeoutMs: deps.commandTimeoutMs } : {},
  );
  const bus = deps.bus ?? localLiveBus();
  notifications.onRecorded((n) =>
    bus.publish(n.entry.mac, { kind: 'notification', entry: n.entry, inAppUserIds: n.inAppUserIds }),
  );
  const commands = commandsService({ devices, commander: deps.commander ?? deviceCommands });
  const meters = metersService({ repo: metersRepository(database), devices, commands, clock });
  const hub = createLiveHub({
    auth,
    devices,
    bus,
    repo: liveRepository(database),
    recheckMs: config.LIVE_RECHECK_MS,
    log: logger,
  });
  return {
    config,
    database,
    clock,
    auth,
    authHousekeeping: authHousekeeping({ sessionsRepo: sessions, clock }),
    devices,
    userManager,
    history,
    monitoring,
    notifications,
    webex,
    live: { bus, hub },
    commands,
    meters,
    deviceCommands,
    logger,
    metrics: new Registry(),
    repos: {
      users,
      devices: devicesRepo,
      notifications: notificationsRepo,
      health: healthRepository(database),
    },
  };
}
