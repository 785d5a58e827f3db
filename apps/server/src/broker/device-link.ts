// Start-up wiring of the device side: store, metrics, ingest, broker (embedded or external)
// and commands, as one object the server builds once and closes on shutdown.
import type { Registry } from 'prom-client';
import { MQTT_TOPIC_ROOT, type DeviceMessage, type LiveFrame } from '@meterportal/protocol';
import { createFamilyIngest } from '../adapters/family-ingest';
import { familyDevicesRepository } from '../adapters/family-devices.repository';
import { createCapacityRecorder } from '../adapters/p1-capacity';
import { DEFAULT_TZ } from '../config/config';
import type { Database } from '../db/database';
import type { Clock } from '../clock';
import { createBurstLogger, type Logger } from '../telemetry/burst-log';
import { createIngest } from '../telemetry/ingest';
import { createTelemetryMetrics } from '../telemetry/metrics';
import { createTelemetryRepository, type Retention } from '../telemetry/telemetry.repository';
import { meterCapacityRepository } from '../tariffs/meter-capacity.repository';
import type { BrokerLink, MessageSink } from './broker-link';
import { createDeviceCommands, type DeviceCommands } from './commands';
import { createDeviceCredentials } from './credentials';
import { startEmbeddedBroker } from './embedded-broker';
import { connectExternalBroker } from './external-broker';

/** What the device link needs. */
export interface DeviceLinkDeps {
  database: Database;
  logger: Logger;
  clock: Clock;
  /** The host's real clock, that device times are checked against (default Date.now). */
  hostClock?: Clock;
  /** External broker URL (config MQTT_URL); when absent the embedded broker runs. */
  mqttUrl?: string | undefined;
  /** Client id on the external broker; keep it stable so the session survives restarts. */
  mqttClientId?: string;
  /** Port of the embedded broker (config MQTT_PORT); 0 picks a free one. */
  mqttPort: number;
  /** Registry the metrics join (the one served at /metrics); a new one by default. */
  registry?: Registry;
  /** Live frames and other device messages, for the websocket layer. */
  onLive?: (mac: string, deviceId: number, frame: LiveFrame) => void;
  onMessage?: (message: DeviceMessage, deviceId: number) => void;
  /** Ingest transaction interval, ms. */
  flushIntervalMs?: number;
  /** Command reply timeout, ms (for a command client made here). */
  commandTimeoutMs?: number;
  /** The command client the services send through; the link connects it to its broker. */
  commands?: DeviceCommands;
  /** How long each kind of telemetry is kept; pruned hourly. Default DEFAULT_RETENTION. */
  retention?: Retention;
  /** The installation's time zone (config TZ): daily energy sums are kept in its local days. */
  tz?: string;
}

/** Default retention: minute profiles 90 days, quarter-hour energy 10 years, transitions 2 years. */
export const DEFAULT_RETENTION: Retention = {
  minutesSec: 90 * 86400,
  quartersSec: 3650 * 86400,
  statusChangesSec: 730 * 86400,
};

const PRUNE_INTERVAL_MS = 3600_000;

/** Starts ingest and the broker link; close() stops both after the last commit. */
export async function startDeviceLink(deps: DeviceLinkDeps) {
  const { database, logger, clock } = deps;
  const metrics = createTelemetryMetrics(deps.registry);
  const repository = createTelemetryRepository(database, { tz: deps.tz ?? DEFAULT_TZ });
  const credentials = createDeviceCredentials({ database, clock });
  let broker: BrokerLink | null = null;
  const commands =
    deps.commands ?? createDeviceCommands(deps.commandTimeoutMs ? { timeoutMs: deps.commandTimeoutMs } : {});
  const ingest = createIngest({
    repository,
    logger,
    clock,
    // Device clocks are judged against the host's real time, whatever clock the portal runs on.
    hostClock: deps.hostClock ?? { nowMs: () => Date.now() },
    metrics,
    ...(deps.flushIntervalMs ? { flushIntervalMs: deps.flushIntervalMs } : {}),
    listeners: {
      ...(deps.onLive ? { onLive: deps.onLive } : {}),
      onMessage(message, deviceId) {
        commands.onDeviceMessage(message);
        deps.onMessage?.(message, deviceId);
      },
    },
  });
  // Open minutes committed before a restart are rebuilt before any message is taken.
  const recovered = await ingest.recover();
  if (recovered) logger.info({ devices: recovered }, 'open minutes recovered');
  metrics.storeUp.set(1);
  ingest.start();
  const families = familyDevicesRepository(database);
  const capacityRepo = meterCapacityRepository(database);
  const capacityBurst = createBurstLogger(logger, clock);
  // Shelly, Tasmota and P1 topics go through their adapters; everything else is the portal's own.
  const familyIngest = createFamilyIngest({
    repository: families,
    accept: (message, publisher, ack) => ingest.accept(message, publisher, ack),
    clock,
    tz: deps.tz ?? DEFAULT_TZ,
    metrics,
    logger,
    capacity: createCapacityRecorder({
      save: (writes) => capacityRepo.save(writes),
      onError: (e) => capacityBurst('capacity_store', { err: e }, 'P1 capacity-tariff values not stored'),
    }),
  });
  const stopPresence = familyIngest.watchPresence();
  const onMessage: MessageSink = (topic, payload, publisherMac, ack) => {
    if (!topic.startsWith(`${MQTT_TOPIC_ROOT}/`) && familyIngest.handle(topic, payload, publisherMac, ack))
      return;
    ingest.handle(topic, payload, publisherMac, ack);
  };
  const embedded = deps.mqttUrl
    ? null
    : await startEmbeddedBroker({ port: deps.mqttPort, credentials, families, logger, onMessage });
  broker =
    embedded ??
    (await connectExternalBroker({
      url: deps.mqttUrl!,
      logger,
      onMessage,
      metrics,
      ...(deps.mqttClientId ? { clientId: deps.mqttClientId } : {}),
    }));
  commands.connect(broker);

  const retention = deps.retention ?? DEFAULT_RETENTION;
  const prune = () =>
    repository
      .prune(retention, clock.nowMs())
      .then((removed) => logger.info({ ...removed }, 'telemetry retention applied'))
      .catch((e: unknown) => logger.error({ err: e }, 'telemetry retention failed'));
  const pruneTimer = setInterval(() => void prune(), PRUNE_INTERVAL_MS);
  pruneTimer.unref();

  return {
    ingest,
    familyIngest,
    metrics,
    credentials,
    commands,
    repository,
    /** Port of the embedded broker, or null with an external one. */
    embeddedPort: embedded?.port ?? null,
    /** Closes a device's open connection on the embedded broker (after its secret changed). */
    disconnectDevice: (mac: string) => embedded?.disconnect(mac),
    async close(): Promise<void> {
      clearInterval(pruneTimer);
      stopPresence();
      commands.disconnect();
      await broker?.close();
      broker = null;
      await familyIngest.settled();
      await ingest.close();
    },
  };
}

/** The running device link. */
export type DeviceLink = Awaited<ReturnType<typeof startDeviceLink>>;
