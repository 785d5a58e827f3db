// Registering Shelly, Tasmota and P1 meters: what is stored, what is refused (each field named,
// nothing changed), and what the device command prints for the installer.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDeviceCredentials } from '../broker/credentials';
import { openTestDatabase } from '../telemetry/testing';
import { DIALECTS } from '../test/dialects';
import { ProvisioningError, deviceProvisioning } from './provisioning';

const MAC = '02-4D-50-00-50-01';

describe.each(DIALECTS)('registering family meters on $name', ({ name: dialect }) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let provisioning: ReturnType<typeof deviceProvisioning>;
  const clock = { nowMs: () => Date.now() };
  const devices = () =>
    database.db
      .selectFrom('devices')
      .select(['mac', 'family', 'family_topic', 'family_tz'])
      .orderBy('mac')
      .execute();

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    provisioning = deviceProvisioning({
      database,
      credentials: createDeviceCredentials({ database, clock }),
      clock,
    });
  });
  afterEach(() => database.dispose());

  it('keeps the family, its topic and the zone of its clock', async () => {
    const shelly = await provisioning.register({
      mac: MAC,
      type: 4,
      title: 'Board',
      family: 'shelly',
      topic: 'shellypro3em-abc',
    });
    expect(shelly).toMatchObject({
      mac: MAC,
      username: MAC,
      family: { family: 'shelly', topic: 'shellypro3em-abc' },
    });
    await provisioning.register({
      mac: '02-4D-50-00-50-02',
      type: 5,
      title: 'Plug',
      family: 'tasmota',
      topic: 'plug',
      tz: 'Europe/Berlin',
    });
    await provisioning.register({ mac: '02-4D-50-00-50-03', type: 4, title: 'Portal meter' });
    expect(await devices()).toEqual([
      { mac: MAC, family: 'shelly', family_topic: 'shellypro3em-abc', family_tz: null },
      { mac: '02-4D-50-00-50-02', family: 'tasmota', family_topic: 'plug', family_tz: 'Europe/Berlin' },
      { mac: '02-4D-50-00-50-03', family: 'portal', family_topic: null, family_tz: null },
    ]);
    // A new secret keeps the family.
    expect((await provisioning.rotate(MAC)).family).toEqual({ family: 'shelly', topic: 'shellypro3em-abc' });
  });

  it.each([
    [
      'every field at fault, named',
      { mac: 'nope', type: 9, title: '', family: 'shelly', topic: 'a/b' },
      ['mac: not a device mac', 'type: type must be 1 to 6', 'title:', 'topic: one topic level'],
    ],
    ['a family that does not exist', { mac: MAC, type: 4, title: 'T', family: 'modbus' }, ['family:']],
    [
      'a family without its topic',
      { mac: MAC, type: 4, title: 'T', family: 'p1' },
      ['topic: required for the p1 family'],
    ],
    [
      'a Shelly prefix of other topics',
      { mac: MAC, type: 4, title: 'T', family: 'shelly', topic: 'tele' },
      ['topic: "tele"'],
    ],
    [
      'a topic with a wildcard',
      { mac: MAC, type: 4, title: 'T', family: 'tasmota', topic: 'plug+' },
      ['topic:'],
    ],
    [
      'a topic for the portal protocol',
      { mac: MAC, type: 4, title: 'T', topic: 'x', tz: 'Europe/Berlin' },
      ['topic: only for', 'tz: only for'],
    ],
    [
      'a zone the server does not know',
      { mac: MAC, type: 4, title: 'T', family: 'tasmota', topic: 'plug', tz: 'Mars/Olympus' },
      ['tz: not a time zone'],
    ],
  ])('refuses %s and changes nothing', async (_name, input, named) => {
    const failed = provisioning.register(input);
    await expect(failed).rejects.toBeInstanceOf(ProvisioningError);
    const message = await failed.catch((e: Error) => e.message);
    for (const n of named) expect(message).toContain(n);
    expect(await devices()).toEqual([]);
  });

  it('refuses a topic another meter of the family holds', async () => {
    await provisioning.register({ mac: MAC, type: 1, title: 'House', family: 'p1', topic: 'house' });
    await expect(
      provisioning.register({
        mac: '02-4D-50-00-50-09',
        type: 1,
        title: 'Other',
        family: 'p1',
        topic: 'house',
      }),
    ).rejects.toThrow(`topic: "house" is already the p1 topic of ${MAC}`);
    // Another family may use the same word.
    await provisioning.register({
      mac: '02-4D-50-00-50-09',
      type: 5,
      title: 'Plug',
      family: 'tasmota',
      topic: 'house',
    });
    expect(await devices()).toHaveLength(2);
  });
});

describe('the device command for family meters', () => {
  const run = promisify(execFile);
  let dir: string;
  const cli = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, 'device.main.ts'), ...args], {
      env: {
        ...process.env,
        DATA_DIR: dir,
        DATABASE_URL: '',
        LOG_LEVEL: 'silent',
        MQTT_PORT: '1884',
        MQTT_URL: '',
      },
    });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'device-cli-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints the credentials once and the settings to enter on each kind of device', async () => {
    const shelly = (
      await cli(
        'add',
        '--family',
        'shelly',
        '--prefix',
        'shellypro3em-abc',
        '--mac',
        MAC,
        '--type',
        '4',
        '--title',
        'Board',
        '--server',
        'portal.example.com',
      )
    ).stdout.split('\n');
    const creds = JSON.parse(shelly[0]!) as { username: string; password: string };
    expect(creds).toMatchObject({ mac: MAC, username: MAC, family: 'shelly', topic: 'shellypro3em-abc' });
    expect(shelly).toEqual(
      expect.arrayContaining([
        '  Server: portal.example.com:1884',
        `  Client ID: meter-${MAC}`,
        '  MQTT prefix: shellypro3em-abc',
        `  Username: ${MAC}`,
        `  Password: ${creds.password}`,
      ]),
    );

    const tasmota = (
      await cli(
        'add',
        '--family',
        'tasmota',
        '--topic',
        'plug',
        '--mac',
        '02-4D-50-00-50-02',
        '--type',
        '5',
        '--title',
        'Kettle',
        '--server',
        'portal.example.com',
      )
    ).stdout;
    const password = (JSON.parse(tasmota.split('\n')[0]!) as { password: string }).password;
    expect(tasmota).toContain(
      `Backlog MqttHost portal.example.com; MqttPort 1884; MqttUser 02-4D-50-00-50-02; MqttPassword ${password}; MqttClient meter-02-4D-50-00-50-02; Topic plug; FullTopic %prefix%/%topic%/; TelePeriod 10`,
    );

    const p1 = (
      await cli(
        'add',
        '--family',
        'p1',
        '--topic',
        'house',
        '--mac',
        '02-4D-50-00-50-03',
        '--type',
        '1',
        '--title',
        'House',
        '--tz',
        'Europe/Amsterdam',
      )
    ).stdout;
    expect(p1).toContain('  Topic: p1/house');
    // A new secret shows the settings again with it.
    const rotated = (await cli('secret', '--mac', '02-4D-50-00-50-03')).stdout;
    expect(rotated).toContain(
      `  Password: ${(JSON.parse(rotated.split('\n')[0]!) as { password: string }).password}`,
    );

    await expect(
      cli('add', '--family', 'shelly', '--prefix', 'tele', '--mac', 'bad', '--type', '4', '--title', 'X'),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/^mac: .*; topic: "tele"/) });
  }, 60_000);
});
