// Command: registers real meters and manages their broker credentials.
//   npm run device -w apps/server -- add --mac 02-4D-50-00-10-01 --type 4 --title "Plant main" [--phases 3] [--lora] [--nilm]
//   npm run device -w apps/server -- add --family shelly --prefix shellypro3em-abc --mac A8-03-2A-BE-54-DC --type 4 --title "Board"
//   npm run device -w apps/server -- add --family tasmota --topic plug-kitchen --mac ... --type 5 --title "Kettle" [--tz Europe/Berlin]
//   npm run device -w apps/server -- add --family p1 --topic house --mac ... --type 1 --title "House" [--tz Europe/Amsterdam]
//   npm run device -w apps/server -- secret --mac 02-4D-50-00-10-01     (a new secret; the old one stops working)
//   npm run device -w apps/server -- revoke --mac 02-4D-50-00-10-01     (the meter can no longer connect)
//   npm run device -w apps/server -- list
// add and secret print {mac, type, username, password} as JSON: the only time the secret is shown.
// For a Shelly, Tasmota or P1 meter they then print the settings to enter on the device (server
// from MQTT_URL, else --server or this host's name, and MQTT_PORT).
// Uses the server's configuration (DATA_DIR / DATABASE_URL), so it works on the same store as a
// running server; a meter registered here may connect at once. With MQTT_DYNSEC=true and
// MQTT_URL, the meter's account on the external Mosquitto is created, changed or removed too.
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { deviceSettings } from '../adapters/settings';
import { createDeviceCredentials } from '../broker/credentials';
import { connectBrokerAccounts } from '../broker/dynsec';
import { systemClock } from '../clock';
import { loadConfig } from '../config/config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrations/index';
import { ProvisioningError, deviceProvisioning, type IssuedCredentials } from './provisioning';

const USAGE =
  'usage: device add --mac M --type 1..6 --title T [--phases 1..3] [--lora] [--nilm] [--family shelly|tasmota|p1 (--prefix P | --topic T) [--tz ZONE] [--server HOST]] | device secret --mac M [--server HOST] | device revoke --mac M | device list';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    mac: { type: 'string' },
    type: { type: 'string' },
    title: { type: 'string' },
    phases: { type: 'string' },
    lora: { type: 'boolean', default: false },
    nilm: { type: 'boolean', default: false },
    family: { type: 'string' },
    prefix: { type: 'string' },
    topic: { type: 'string' },
    tz: { type: 'string' },
    server: { type: 'string' },
  },
});

const config = loadConfig();
const database = await openDatabase({
  url: config.DATABASE_URL,
  sqliteFile: path.join(config.dataDir, 'portal.db'),
});
await migrateToLatest(database);
// With MQTT_DYNSEC the external Mosquitto's device accounts follow every change made here.
// Nothing is changed when the broker cannot be reached.
const brokerAccounts =
  config.MQTT_DYNSEC && config.MQTT_URL && positionals[0] !== 'list'
    ? await connectBrokerAccounts(config.MQTT_URL).catch(async (e: unknown) => {
        console.error(
          `cannot reach the broker at MQTT_URL for its device accounts: ${e instanceof Error ? e.message : String(e)}`,
        );
        await database.close();
        process.exit(1);
      })
    : undefined;
const credentials = createDeviceCredentials({ database, clock: systemClock });
const provisioning = deviceProvisioning({
  database,
  credentials,
  clock: systemClock,
  ...(brokerAccounts ? { brokerAccounts } : {}),
});

/** Prints the credentials, and for a family meter the settings to enter on it. */
function show(issued: IssuedCredentials): void {
  const { family, ...credentials } = issued;
  console.log(
    JSON.stringify(family ? { ...credentials, family: family.family, topic: family.topic } : credentials),
  );
  if (!family) return;
  const external = config.MQTT_URL ? new URL(config.MQTT_URL) : null;
  const host = external?.hostname ?? values.server ?? os.hostname();
  const port = external ? Number(external.port || 1883) : config.MQTT_PORT;
  console.log('');
  for (const line of deviceSettings(family, {
    host,
    port,
    username: issued.username,
    password: issued.password,
  }))
    console.log(line);
}

let code = 0;
try {
  const mac = values.mac ?? '';
  switch (positionals[0] ?? '') {
    case 'add':
      show(
        await provisioning.register({
          mac,
          type: values.type ?? '',
          title: values.title ?? '',
          phases: values.phases,
          lora: values.lora,
          nilm: values.nilm,
          ...(values.family !== undefined ? { family: values.family } : {}),
          // A Shelly names it a prefix, Tasmota and P1 bridges a topic.
          ...((values.prefix ?? values.topic) !== undefined ? { topic: values.prefix ?? values.topic } : {}),
          ...(values.tz !== undefined ? { tz: values.tz } : {}),
        }),
      );
      break;
    case 'secret':
      show(await provisioning.rotate(mac));
      break;
    case 'revoke':
      await provisioning.revoke(mac);
      console.log(`${mac}: credentials revoked`);
      break;
    case 'list':
      for (const d of await provisioning.list())
        console.log(
          `${d.mac}\ttype ${d.type}\t${d.family}${d.topic ? ` ${d.topic}` : ''}\t${d.credentials ? 'credentials' : 'no credentials'}\t${d.title}`,
        );
      break;
    default:
      console.error(USAGE);
      code = 2;
  }
} catch (e) {
  if (!(e instanceof ProvisioningError)) throw e;
  console.error(e.message);
  code = 1;
}
await brokerAccounts?.close();
await database.close();
process.exit(code);
