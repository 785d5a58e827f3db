import path from 'node:path';
import { ConfigError, loadConfig } from './config/config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrations/index';
import { systemClock } from './clock';
import { createServices } from './services';
import { buildApp } from './http/app';
import { seedIfEmpty } from './seed/seed';
import { portFree, startRuntime } from './runtime';
import { brokerLiveBus } from './live/brokerBus';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  process.env.TZ = config.TZ;
  const database = await openDatabase({
    url: config.DATABASE_URL,
    sqliteFile: path.join(config.dataDir, 'portal.db'),
  });
  await migrateToLatest(database);
  // An instance that serves websockets but does not ingest hears the devices through the broker.
  const bus =
    config.MQTT_URL && config.roles.has('ws') && !config.roles.has('ingest')
      ? await brokerLiveBus(config.MQTT_URL, {
          info: () => undefined,
          warn: console.warn,
          error: console.error,
          debug: () => undefined,
        })
      : undefined;
  const services = await createServices({ config, database, clock: systemClock, ...(bus ? { bus } : {}) });
  const seeded = await seedIfEmpty(services);
  const app = await buildApp(services);

  // The embedded broker takes MQTT_PORT; when that port is already taken and was not asked for
  // explicitly, it takes a free one and says which, so a first start never fails on it.
  let mqttPort = config.MQTT_PORT;
  if (
    !config.MQTT_URL &&
    config.roles.has('ingest') &&
    !process.env.MQTT_PORT &&
    !(await portFree(mqttPort))
  ) {
    app.log.warn({ port: mqttPort }, 'MQTT port in use; the embedded broker takes a free port instead');
    mqttPort = 0;
  }
  const runtime = await startRuntime(services, { logger: app.log, mqttPort });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    services.live.hub.closeAll();
    app
      .close()
      .then(() => runtime.stop())
      .then(() => bus?.close())
      .then(() => database.close())
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const url = `http://localhost:${config.PORT}`;
  const lines = [
    '',
    `  Meter portal is running at ${url}`,
    `  API documentation: ${url}/api/docs`,
    `  Storage: ${database.dialect === 'sqlite' ? path.join(config.dataDir, 'portal.db') : 'PostgreSQL'}`,
    `  Devices: ${config.MQTT_URL ? `broker ${config.MQTT_URL.replace(/\/\/[^@]*@/, '//***@')}` : runtime.mqttPort ? `embedded MQTT broker on port ${runtime.mqttPort}` : 'not ingesting here'}`,
  ];
  if (seeded) {
    lines.push(
      '',
      '  First start: created these logins',
      `    ${seeded.adminLogin} / ${seeded.adminPassword}${seeded.adminPasswordGenerated ? '   (generated; shown only this once)' : ''}`,
      `    ${seeded.demoLogin} / ${seeded.demoPassword}`,
      `  and ${seeded.devices} demo devices assigned to both.`,
    );
  }
  console.log(lines.join('\n') + '\n');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
