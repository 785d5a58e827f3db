import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { DEMO_LOGIN, type DeviceTypeId } from '@meterportal/protocol';
import type { Services } from './services';
import { startDeviceLink, type DeviceLink } from './broker/device-link';
import { startDemoFleet } from './broker/demo-fleet';
import { publishDeviceMessage } from './live/feed';
import { announcer } from './live/brokerBus';
import { emailChannel } from './tools/email';
import { notificationDelivery } from './tools/notificationDelivery';
import { webexChannel } from './tools/webex';
import { deviceEventsService } from './tools/deviceEvents.service';
import { DEMO_DEVICES } from './seed/seed';

/** What runs beside the HTTP server: device link, demo fleet, hub re-checks, Webex delivery. */
export interface Runtime {
  link: DeviceLink | null;
  /** Port of the embedded broker, when it runs. */
  mqttPort: number | null;
  stop(): Promise<void>;
}

/** True when nothing listens on the port yet. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '0.0.0.0', () => srv.close(() => resolve(true)));
  });
}

/** Starts the background parts of the roles this process runs. */
export async function startRuntime(
  s: Services,
  opts: { logger: FastifyBaseLogger; mqttPort?: number },
): Promise<Runtime> {
  const { config, live, notifications } = s;
  const stops: (() => Promise<void> | void)[] = [];
  let link: DeviceLink | null = null;

  stops.push(s.authHousekeeping.start({ log: opts.logger }));
  // Scheduled reports: every instance may pass; a period is claimed once in the database.
  if (config.roles.has('write')) stops.push(s.reports.start({ log: opts.logger }));
  if (config.roles.has('ws')) stops.push(live.hub.start());

  if (config.roles.has('ingest')) {
    // Device events and status changes become notifications at a limited rate per device.
    const events = deviceEventsService({
      notifications,
      clock: s.clock,
      log: opts.logger,
      registry: s.metrics,
    });
    stops.push(events.start());
    // Alarm rules are loaded before the first frame is taken, and checked on every live frame.
    stops.push(await s.alarmEngine.start());
    link = await startDeviceLink({
      database: s.database,
      logger: opts.logger,
      clock: s.clock,
      mqttUrl: config.MQTT_URL,
      mqttClientId: config.MQTT_CLIENT_ID,
      mqttPort: opts.mqttPort ?? config.MQTT_PORT,
      tz: config.TZ,
      registry: s.metrics,
      commands: s.deviceCommands,
      onLive: (mac, deviceId, frame) => {
        s.alarmEngine.onFrame(deviceId, frame);
        live.bus.publish(mac, { kind: 'data', topic: 'Data', payload: frame });
      },
      onMessage: (message, deviceId) => {
        publishDeviceMessage(live.bus, message);
        events.handle(message, deviceId);
        void s.relay
          .onDeviceMessage(message, deviceId)
          .catch((err: unknown) => opts.logger.error({ err }, 'relay switching not recorded'));
        void s.firmware.onDeviceMessage(message, deviceId);
        void s.appliances
          .onDeviceMessage(message, deviceId)
          .catch((err: unknown) => opts.logger.error({ err }, 'appliance not recorded'));
      },
    });
    // Completed hours are checked against the anomaly models; models are retrained on schedule.
    stops.push(
      s.anomalies.start({
        intervalMs: config.ANOMALY_CHECK_SEC * 1000,
        onError: (err) => opts.logger.error({ err }, 'anomaly check failed'),
      }),
    );
    // Online analyzers' harmonic spectra are polled through the command round trip of this link.
    stops.push(s.harmonicsPoller.start({ log: opts.logger }));
    // Upgrades are followed where device messages arrive; a silent device times out here.
    stops.push(s.firmware.startTimeouts((err) => opts.logger.error({ err }, 'upgrade timeout check failed')));
    const started = link;
    stops.push(() => started.close());
    // The settings shown on registration name the port the embedded broker really took.
    s.registration.useEmbeddedBroker({
      port: link.embeddedPort,
      disconnect: (mac) => started.disconnectDevice(mac),
    });

    if (config.MQTT_URL) {
      // Instances that serve websockets without ingesting learn of notifications through the broker.
      const a = announcer(config.MQTT_URL);
      const off = notifications.onRecorded((n) =>
        a.announce(n.entry.mac, { entry: n.entry, inAppUserIds: n.inAppUserIds }),
      );
      stops.push(async () => {
        off();
        await a.close();
      });
    }

    const channels = [
      ...(s.webex.configured ? [webexChannel(s.webex)] : []),
      ...(s.mailer.configured ? [emailChannel(s.mailer, config.TZ)] : []),
    ];
    if (channels.length > 0)
      stops.push(
        notificationDelivery({
          repo: s.repos.notifications,
          channels,
          clock: s.clock,
          log: opts.logger,
        }).start(),
      );

    if (config.DEMO) {
      const demo = await s.repos.users.findByLogin(DEMO_LOGIN);
      const rows = demo ? await s.devices.assigned(demo.id) : [];
      const mine = rows.filter((d) => DEMO_DEVICES.some((x) => x.mac === d.mac));
      if (mine.length > 0) {
        const brokerUrl = config.MQTT_URL ?? `mqtt://127.0.0.1:${link.embeddedPort}`;
        const { fleet, backfill, meters } = await startDemoFleet(
          {
            database: s.database,
            link,
            logger: opts.logger,
            clock: s.clock,
            brokerUrl,
            accuTestPeriodSec: config.DEMO_ACCUTEST_PERIOD_SEC,
            tz: config.TZ,
          },
          mine.map((d) => ({
            id: d.id,
            mac: d.mac,
            type: d.type as DeviceTypeId,
            phases: Math.min(3, Math.max(1, d.phase_use)) as 1 | 2 | 3,
          })),
        );
        opts.logger.info(
          { ...backfill, meters: meters.meters, meterTests: meters.tests },
          'demo history ready',
        );
        stops.unshift(() => fleet.stop());
      }
    }
  }

  return {
    link,
    mqttPort: link?.embeddedPort ?? null,
    async stop() {
      for (const stop of stops) await stop();
    },
  };
}
