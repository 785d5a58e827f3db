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
import { sessionsRepository, type SessionsRepository } from './auth/sessions.repository';
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
import { smtpMailer, type Mailer } from './tools/mailer';
import { localLiveBus, type LiveBus } from './live/bus';
import { createLiveHub, type LiveHub } from './live/hub';
import { liveRepository } from './live/live.repository';
import { commandsService, type CommandsService, type DeviceCommander } from './precision/commands.service';
import { createDeviceCommands, type DeviceCommands } from './broker/commands';
import { metersRepository } from './precision/meters.repository';
import { relayRepository } from './relay/relay.repository';
import { relayService, type RelayService } from './relay/relay.service';
import { powerQualityService, type PowerQualityService } from './powerquality/power-quality.service';
import { powerQualityRepository } from './powerquality/power-quality.repository';
import { harmonicsRepository } from './powerquality/harmonics.repository';
import { harmonicsPoller, type HarmonicsPoller } from './powerquality/harmonics-poller';
import { firmwareRepository } from './firmware/firmware.repository';
import { firmwareService, type FirmwareService } from './firmware/firmware.service';
import { settingsService, type SettingsService } from './settings/settings.service';
import { metersService, type MetersService } from './precision/meters.service';
import { monitoringService, type MonitoringService } from './tools/monitoring.service';
import { alarmEngine, type AlarmEngine } from './tools/alarms.engine';
import { alarmsRepository } from './tools/alarms.repository';
import { alarmsService, type AlarmsService } from './tools/alarms.service';
import { userManagerRepository } from './usermanager/usermanager.repository';
import { userManagerService, type UserManagerService } from './usermanager/usermanager.service';
import { ensureDayRollup } from './telemetry/day-rollup.repository';
import { integrationRepository } from './integration/integration.repository';
import { integrationService, type IntegrationService } from './integration/integration.service';
import { integrationTokensService, type IntegrationTokensService } from './integration/tokens.service';
import { meterCapacityRepository } from './tariffs/meter-capacity.repository';
import { tariffsRepository } from './tariffs/tariffs.repository';
import { tariffsService, type TariffsService } from './tariffs/tariffs.service';
import { exportsService, type ExportsService } from './exports/exports.service';
import { registrationService, type RegistrationService } from './usermanager/registration.service';
import { createDeviceCredentials } from './broker/credentials';
import { connectBrokerAccounts } from './broker/dynsec';
import { appliancesRepository } from './appliances/appliances.repository';
import { appliancesService, type AppliancesService } from './appliances/appliances.service';
import { anomaliesRepository } from './anomalies/anomalies.repository';
import { anomaliesService, type AnomaliesService } from './anomalies/anomalies.service';
import { siteMapsRepository } from './sitemaps/sitemaps.repository';
import { siteMapsService, type SiteMapsService } from './sitemaps/sitemaps.service';
import { reportsRepository } from './reports/reports.repository';
import { reportsService, type ReportsService } from './reports/reports.service';
import { reportModels } from './reports/report-model';

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
  /** Tariff versions, cost of energy and capacity peaks. */
  tariffs: TariffsService;
  monitoring: MonitoringService;
  notifications: NotificationsService;
  alarms: AlarmsService;
  /** Evaluates alarm rules on live frames; the runtime feeds it where ingest runs. */
  alarmEngine: AlarmEngine;
  webex: WebexClient;
  /** E-mail through SMTP_URL; not configured when it is unset. */
  mailer: Mailer;
  live: { bus: LiveBus; hub: LiveHub };
  commands: CommandsService;
  meters: MetersService;
  /** Integration tokens: made and revoked by their users, checked on each integration API call. */
  integrationTokens: IntegrationTokensService;
  /** Reads of the integration API. */
  integration: IntegrationService;
  relay: RelayService;
  firmware: FirmwareService;
  /** Profiles and energy totals of one or more devices as CSV or XLSX files. */
  exports: ExportsService;
  /** Registering devices and their broker credentials from the user manager. */
  registration: RegistrationService;
  /** LoRa, WiFi and measurement settings of devices. */
  settings: SettingsService;
  /** Appliances (NILM) of household meters. */
  appliances: AppliancesService;
  /** EN 50160 weekly compliance of analyzers. */
  powerQuality: PowerQualityService;
  /** Polls the online analyzers' harmonic spectra; the runtime starts it where ingest runs. */
  harmonicsPoller: HarmonicsPoller;
  /** Anomaly models of household meters and their detection. */
  anomalies: AnomaliesService;
  /** Site maps: plans with the user's devices pinned on them. */
  siteMaps: SiteMapsService;
  /** PDF reports, downloaded or made on schedules. */
  reports: ReportsService;
  /** Command client to devices; the device link connects it to the broker when ingest runs. */
  deviceCommands: DeviceCommands;
  /** The installation's log, shared by the HTTP server, the hub and the background parts. */
  logger: FastifyBaseLogger;
  /** Prometheus registry served at /metrics. */
  metrics: Registry;
  repos: {
    users: UsersRepository;
    /** The session store every signed-in request reads once. */
    sessions: SessionsRepository;
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

/** Analyzers asked for their harmonic spectrum at the same time. */
const HARMONICS_POLL_CONCURRENCY = 8;

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
  const tariffs = tariffsService({
    repo: tariffsRepository(database),
    history: historyRepo,
    devices,
    devicesRepo,
    meterCapacity: meterCapacityRepository(database),
    clock,
    tz: config.TZ,
  });
  const monitoring = monitoringService({ repo: historyRepo, devices, clock, tz: config.TZ });
  const webex = webexClient({ baseUrl: config.WEBEX_BASE_URL, token: config.WEBEX_BOT_TOKEN });
  const notificationsRepo = notificationsRepository(database);
  const mailer = smtpMailer({ url: config.SMTP_URL, from: config.SMTP_FROM });
  const notifications = notificationsService({
    repo: notificationsRepo,
    devices,
    webex,
    mailer,
    clock,
  });
  const deviceCommands = createDeviceCommands(
    deps.commandTimeoutMs ? { timeoutMs: deps.commandTimeoutMs } : {},
  );
  const bus = deps.bus ?? localLiveBus();
  notifications.onRecorded((n) =>
    bus.publish(n.entry.mac, { kind: 'notification', entry: n.entry, inAppUserIds: n.inAppUserIds }),
  );
  const alarmsRepo = alarmsRepository(database);
  const engine = alarmEngine({ repo: alarmsRepo, notifier: notifications, clock, log: logger });
  const alarms = alarmsService({
    repo: alarmsRepo,
    devices,
    clock,
    onRulesChanged: (deviceId) => engine.reload(deviceId),
  });
  const commander = deps.commander ?? deviceCommands;
  const commands = commandsService({ devices, commander });
  const meters = metersService({ repo: metersRepository(database), devices, commands, clock });
  const relay = relayService({ repo: relayRepository(database), devices, commands, clock });
  const firmware = firmwareService({
    repo: firmwareRepository(database),
    devices,
    commander,
    bus,
    clock,
    timeoutMs: config.FIRMWARE_UPGRADE_TIMEOUT_SEC * 1000,
    onError: (err) => logger.error({ err }, 'firmware upgrade not updated'),
  });
  const metrics = new Registry();
  const harmonics = harmonicsRepository(database);
  const powerQuality = powerQualityService({
    repo: historyRepo,
    pq: powerQualityRepository(database),
    harmonics,
    devices,
    clock,
    tz: config.TZ,
    nominalV: config.NOMINAL_VOLTAGE_V,
  });
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
    tariffs,
    monitoring,
    notifications,
    alarms,
    alarmEngine: engine,
    webex,
    mailer,
    live: { bus, hub },
    commands,
    meters,
    integrationTokens: integrationTokensService({
      repo: integrationRepository(database),
      users,
      devices,
      clock,
    }),
    integration: integrationService({ devices, history, clock }),
    relay,
    firmware,
    exports: exportsService({ devices, history, tariffs, tz: config.TZ }),
    registration: registrationService({
      config,
      database,
      clock,
      users,
      devices: devicesRepo,
      repo: userManagerRepository(database),
      credentials: createDeviceCredentials({ database, clock }),
      connectAccounts: connectBrokerAccounts,
    }),
    settings: settingsService({ repo: devicesRepo, devices, commands }),
    appliances: appliancesService({ repo: appliancesRepository(database), devices, commands, clock }),
    powerQuality,
    harmonicsPoller: harmonicsPoller({
      repo: harmonics,
      send: (mac, command) => commands.call(mac, command),
      clock,
      registry: metrics,
      periodMs: config.HARMONICS_POLL_SEC * 1000,
      concurrency: HARMONICS_POLL_CONCURRENCY,
    }),
    anomalies: anomaliesService({
      repo: anomaliesRepository(database),
      history: historyRepo,
      devices,
      notifier: notifications,
      clock,
      tz: config.TZ,
      retrainMs: config.ANOMALY_RETRAIN_DAYS * 86_400_000,
    }),
    siteMaps: siteMapsService({ repo: siteMapsRepository(database), devices, clock }),
    reports: reportsService({
      repo: reportsRepository(database),
      models: reportModels({
        devices,
        history,
        tariffs,
        monitoring,
        powerQuality,
        tz: config.TZ,
        nowMs: () => clock.nowMs(),
      }),
      devices,
      users,
      mailer,
      clock,
      tz: config.TZ,
    }),
    deviceCommands,
    logger,
    metrics,
    repos: {
      users,
      sessions,
      devices: devicesRepo,
      notifications: notificationsRepo,
      health: healthRepository(database),
    },
  };
}
