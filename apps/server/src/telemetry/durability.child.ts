// Child process of the durability test: a bare ingest server that the test kills with SIGKILL.
// Configured by DUR_SQLITE or DUR_PG_URL + DUR_PG_SCHEMA, and either DUR_MQTT_URL + DUR_CLIENT_ID
// (an external broker) or DUR_EMBEDDED_PORT (the embedded broker). Prints "ready" once it takes
// messages, and its metrics as one "metrics {json}" line on SIGUSR2.
import { openDatabase } from '../db/database';
import { startDeviceLink } from '../broker/device-link';

const env = process.env;
const database = await openDatabase(
  env.DUR_PG_URL
    ? { url: env.DUR_PG_URL, pgSchema: env.DUR_PG_SCHEMA!, poolSize: 2 }
    : { sqliteFile: env.DUR_SQLITE! },
);
const quiet = () => undefined;
const link = await startDeviceLink({
  database,
  logger: { debug: quiet, info: quiet, warn: quiet, error: (o, m) => console.error(m, o) },
  clock: { nowMs: () => Date.now() },
  ...(env.DUR_MQTT_URL ? { mqttUrl: env.DUR_MQTT_URL, mqttClientId: env.DUR_CLIENT_ID! } : {}),
  mqttPort: Number(env.DUR_EMBEDDED_PORT ?? 0),
  flushIntervalMs: 200,
});
console.log('ready');
process.on('SIGUSR2', () => {
  void link.metrics.registry.getMetricsAsJSON().then((m) => console.log(`metrics ${JSON.stringify(m)}`));
});
process.on('SIGTERM', () => {
  void link
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
