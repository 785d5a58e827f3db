// Child process of the durability test: a bare ingest server on an external broker that the
// test kills with SIGKILL. Configured by DUR_SQLITE or DUR_PG_URL + DUR_PG_SCHEMA, DUR_MQTT_URL,
// DUR_CLIENT_ID; prints "ready" once subscribed.
import { openDatabase } from '../db/database';
import { startDeviceLink } from '../broker/device-link';

const env = process.env;
const database = await openDatabase(
  env.DUR_PG_URL ? { url: env.DUR_PG_URL, pgSchema: env.DUR_PG_SCHEMA!, poolSize: 2 } : { sqliteFile: env.DUR_SQLITE! },
);
const quiet = () => undefined;
const link = await startDeviceLink({
  database,
  logger: { debug: quiet, info: quiet, warn: quiet, error: (o, m) => console.error(m, o) },
  clock: { nowMs: () => Date.now() },
  mqttUrl: env.DUR_MQTT_URL!,
  mqttClientId: env.DUR_CLIENT_ID!,
  mqttPort: 0,
  flushIntervalMs: 200,
});
console.log('ready');
process.on('SIGTERM', () => {
  void link.close().then(() => database.close()).then(() => process.exit(0));
});
