import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { startDevice } from '@meterportal/simulator';
import type { TelemetryDB } from '../db/schema.telemetry';
import { startDeviceLink, type DeviceLink } from '../broker/device-link';
import { memoryLogger, openTestDatabase, until } from '../telemetry/testing';
import { ProvisioningError, deviceProvisioning } from './provisioning';
import { DIALECTS } from '../test/dialects';

const MAC = '02-4D-50-00-10-01';

describe.each(DIALECTS)('registering meters on $name', ({ name: dialect }) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let link: DeviceLink;
  let url: string;
  let provisioning: ReturnType<typeof deviceProvisioning>;
  const db = () => database.db.withTables<TelemetryDB>();
  const connect = (username: string, password: string) =>
    mqtt.connectAsync(url, { username, password, clientId: `meter-${username}`, reconnectPeriod: 0 });

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    const user = (login: string, applications: string) =>
      database.db
        .insertInto('users')
        .values({
          login,
          auth_type: 1,
          password_hash: 'x',
          issuer: null,
          subject: null,
          user_name: null,
          avatar: null,
          applications,
          created_at_ms: 0,
        })
        .execute();
    await user('admin', 'USER_MANAGER');
    await user('operator', '');
    link = await startDeviceLink({
      database,
      logger: memoryLogger(),
      clock: { nowMs: () => Date.now() },
      mqttPort: 0,
      flushIntervalMs: 100,
    });
    url = `mqtt://127.0.0.1:${link.embeddedPort}`;
    provisioning = deviceProvisioning({
      database,
      credentials: link.credentials,
      clock: { nowMs: () => Date.now() },
    });
  });
  afterEach(async () => {
    await link.close();
    await database.dispose();
  });

  it('adds a meter owned by the user managers whose issued secret connects and lands frames', async () => {
    const issued = await provisioning.register({ mac: MAC, type: 4, title: 'Plant main', phases: 3 });
    expect(issued).toMatchObject({ mac: MAC, type: 4, username: MAC });
    expect(issued.password).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const owners = await database.db
      .selectFrom('assignments')
      .innerJoin('users', 'users.id', 'assignments.user_id')
      .select(['login', 'owner'])
      .execute();
    expect(owners).toEqual([{ login: 'admin', owner: 1 }]);
    expect(await provisioning.list()).toEqual([
      {
        mac: MAC,
        type: 4,
        title: 'Plant main',
        family: 'portal',
        topic: null,
        tz: null,
        credentials: true,
        online: false,
      },
    ]);

    // The meter connects with what was issued and its frames are stored.
    const sim = startDevice({
      brokerUrl: url,
      mac: MAC,
      type: 4,
      username: issued.username,
      password: issued.password,
      speed: 60,
      // Faster than real time from an hour ago, as a meter sending its buffer: its stamps stay in the past.
      nowMs: () => Date.now() - 3_600_000,
      outages: false,
    });
    await sim.connected;
    await until(
      async () => (await db().selectFrom('telemetry_cursors').select('ts_sec').execute()).length === 1,
    );
    await sim.stop();
  });

  it('refuses bad or repeated registrations and changes nothing', async () => {
    await provisioning.register({ mac: MAC, type: 1, title: 'House' });
    const before = await database.db.selectFrom('devices').selectAll().execute();
    await expect(provisioning.register({ mac: MAC, type: 4, title: 'Again' })).rejects.toThrow(
      `device ${MAC} is already registered`,
    );
    await expect(
      provisioning.register({ mac: MAC.replace('4D', '4d'), type: 4, title: 'Again' }),
    ).rejects.toThrow(`device ${MAC} is already registered`);
    await expect(provisioning.register({ mac: 'not-a-mac', type: 9, title: '' })).rejects.toThrow(
      /mac: not a device mac.*type: type must be 1 to 6.*title/,
    );
    await expect(
      provisioning.register({ mac: '02-4D-50-00-10-02', type: 4, title: 'x', phases: 4 }),
    ).rejects.toBeInstanceOf(ProvisioningError);
    expect(await database.db.selectFrom('devices').selectAll().execute()).toEqual(before);
    await expect(provisioning.rotate('02-4D-50-00-10-09')).rejects.toThrow('no device 02-4D-50-00-10-09');
  });

  it('rotating a secret locks the old one out, revoking locks the meter out', async () => {
    const first = await provisioning.register({ mac: MAC, type: 4, title: 'Plant main' });
    const second = await provisioning.rotate(MAC);
    expect(second.password).not.toBe(first.password);
    await expect(connect(MAC, first.password)).rejects.toThrow();
    const c = await connect(MAC, second.password);
    await c.endAsync();
    await provisioning.revoke(MAC);
    await expect(connect(MAC, second.password)).rejects.toThrow();
    expect(await provisioning.list()).toEqual([
      {
        mac: MAC,
        type: 4,
        title: 'Plant main',
        family: 'portal',
        topic: null,
        tz: null,
        credentials: false,
        online: false,
      },
    ]);
  });
});

describe('the device command', () => {
  const run = promisify(execFile);
  let dir: string;
  let extraEnv: Record<string, string> = {};
  const cli = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, 'device.main.ts'), ...args], {
      env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', LOG_LEVEL: 'silent', ...extraEnv },
    });
  beforeEach(() => {
    extraEnv = {};
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'device-cli-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('adds, lists, rotates and revokes, and reports bad input with exit code 1', async () => {
    const added = JSON.parse(
      (await cli('add', '--mac', MAC, '--type', '3', '--title', 'Test bench', '--phases', '1')).stdout,
    );
    expect(added).toMatchObject({ mac: MAC, type: 3, username: MAC });
    expect((await cli('list')).stdout).toBe(`${MAC}\ttype 3\tportal\tcredentials\tTest bench\n`);
    const rotated = JSON.parse((await cli('secret', '--mac', MAC)).stdout);
    expect(rotated.password).not.toBe(added.password);
    expect((await cli('revoke', '--mac', MAC)).stdout).toBe(`${MAC}: credentials revoked\n`);
    await expect(cli('add', '--mac', MAC, '--type', '3', '--title', 'Again')).rejects.toMatchObject({
      code: 1,
      stderr: `device ${MAC} is already registered\n`,
    });
    await expect(cli('frobnicate')).rejects.toMatchObject({ code: 2 });
  }, 60_000);

  it('changes nothing when the broker that keeps device accounts cannot be reached', async () => {
    extraEnv = { MQTT_DYNSEC: 'true', MQTT_URL: 'mqtt://127.0.0.1:9' };
    await expect(cli('add', '--mac', MAC, '--type', '3', '--title', 'Test bench')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^cannot reach the broker at MQTT_URL for its device accounts/),
    });
    expect((await cli('list')).stdout).toBe('');
  }, 60_000);
});
