// Command: registers real meters and manages their broker credentials.
//   npm run device -w apps/server -- add --mac 02-4D-50-00-10-01 --type 4 --title "Plant main" [--phases 3] [--lora] [--nilm]
//   npm run device -w apps/server -- secret --mac 02-4D-50-00-10-01     (a new secret; the old one stops working)
//   npm run device -w apps/server -- revoke --mac 02-4D-50-00-10-01     (the meter can no longer connect)
//   npm run device -w apps/server -- list
// add and secret print {mac, type, username, password} as JSON: the only time the secret is shown.
// Uses the server's configuration (DATA_DIR / DATABASE_URL), so it works on the same store as a
// running server; a meter registered here may connect at once. With MQTT_DYNSEC=true and
// MQTT_URL, the meter's account on the external Mosquitto is created, changed or removed too.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDeviceCredentials } from '../broker/credentials';
import { connectBrokerAccounts } from '../broker/dynsec';
import { systemClock } from '../clock';
import { loadConfig } from '../config/config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrations/index';
import { ProvisioningError, deviceProvisioning } from './provisioning';

const USAGE =
  'usage: device add --mac M --type 1..6 --title T [--phases 1..3] [--lora] [--nilm] | device secret --mac M | device revoke --mac M | device list';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    mac: { type: 'string' },
    type: { type: 'string' },
    title: { type: 'string' },
    phases: { type: 'string' },
    lora: { type: 'boolean', default: false },
    nilm: { type: 'boolean', default: false },
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

let code = 0;
try {
  const mac = values.mac ?? '';
  switch (positionals[0] ?? '') {
    case 'add':
      console.log(
        JSON.stringify(
          await provisioning.register({
            mac,
            type: values.type ?? '',
            title: values.title ?? '',
            phases: values.phases,
            lora: values.lora,
            nilm: values.nilm,
          }),
        ),
      );
      break;
    case 'secret':
      console.log(JSON.stringify(await provisioning.rotate(mac)));
      break;
    case 'revoke':
      await provisioning.revoke(mac);
      console.log(`${mac}: credentials revoked`);
      break;
    case 'list':
      for (const d of await provisioning.list())
        console.log(
          `${d.mac}\ttype ${d.type}\t${d.credentials ? 'credentials' : 'no credentials'}\t${d.title}`,
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
