// `npm run simulate`: runs virtual meters against a broker until Ctrl-C.
//   --broker mqtt://host:1883   broker URL (SIM_BROKER_URL; default mqtt://127.0.0.1:1883)
//   --credentials file.json     [{mac, type, username, password}] as issued by the portal (SIM_CREDENTIALS)
//   --per-type N                without credentials: N meters of each type, username = mac (SIM_PER_TYPE)
//   --speed X                   simulated seconds per second, default 1 (SIM_SPEED)
//   --no-outages                no power cuts or trips
//   --accutest-period S         simulated seconds between accuracy tests of precision meters,
//                               default 300; 0 runs none (SIM_ACCUTEST_PERIOD)
// From the repository root, npm swallows flags of nested scripts, so use the variables there:
//   SIM_PER_TYPE=3 npm run simulate
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { DEVICE_TYPES, Mac } from '@meterportal/protocol';
import { createFleet, demoMacs, type FleetDevice } from './fleet';

function readCredentials(file: string): FleetDevice[] {
  const list: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!Array.isArray(list)) throw new Error(`${file}: expected an array of {mac, type, username, password}`);
  return list.map((d: Partial<FleetDevice>, i) => {
    if (
      !Mac.safeParse(d.mac).success ||
      !DEVICE_TYPES.includes(d.type as FleetDevice['type']) ||
      typeof d.username !== 'string' ||
      typeof d.password !== 'string'
    ) {
      throw new Error(`${file}: entry ${i} is not {mac, type 1..6, username, password}`);
    }
    return d as FleetDevice;
  });
}

const { values } = parseArgs({
  options: {
    broker: { type: 'string', default: process.env.SIM_BROKER_URL ?? 'mqtt://127.0.0.1:1883' },
    credentials: { type: 'string', default: process.env.SIM_CREDENTIALS },
    'per-type': { type: 'string', default: process.env.SIM_PER_TYPE ?? '1' },
    speed: { type: 'string', default: process.env.SIM_SPEED ?? '1' },
    'no-outages': { type: 'boolean', default: false },
    'accutest-period': { type: 'string', default: process.env.SIM_ACCUTEST_PERIOD ?? '300' },
  },
});

const devices: FleetDevice[] = values.credentials
  ? readCredentials(values.credentials)
  : demoMacs(Number(values['per-type'])).map((d) => ({
      ...d,
      username: d.mac,
      password: process.env.SIM_PASSWORD ?? '',
    }));

const fleet = createFleet({
  brokerUrl: values.broker,
  devices,
  speed: Number(values.speed),
  outages: !values['no-outages'],
  accuTest: Number(values['accutest-period']) > 0 ? { periodSec: Number(values['accutest-period']) } : false,
  log: (line) => console.log(line),
});
console.log(`simulating ${devices.length} meters on ${values.broker}`);

const report = setInterval(() => {
  const frames = fleet.devices.reduce((s, d) => s + d.framesSent, 0);
  console.log(`${frames} frames sent`);
}, 10_000);

const shutdown = () => {
  clearInterval(report);
  void fleet.stop().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
