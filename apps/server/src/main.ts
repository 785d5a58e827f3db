import path from 'node:path';
import { ConfigError, loadConfig } from './config/config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrations/index';
import { systemClock } from './clock';
import { createServices } from './services';
import { buildApp } from './http/app';
import { seedIfEmpty } from './seed/seed';

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
  const services = await createServices({ config, database, clock: systemClock });
  const seeded = await seedIfEmpty(services);
  const app = await buildApp(services);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app
      .close()
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
