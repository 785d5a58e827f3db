// Registering from the user manager with the device accounts kept in Mosquitto's dynamic security
// plugin (MQTT_DYNSEC): the issued settings connect to the real broker, a new password locks the
// old one out there, revocation removes the account, and a broker that cannot be reached changes
// nothing.
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceConnectionSettings } from '@meterportal/protocol';
import { DYNSEC_PLUGIN, startPrivateMosquitto, type PrivateMosquitto } from '../broker/private-mosquitto';
import { backendAvailable } from '../test/backends';
import {
  DIALECTS,
  addUser,
  call,
  createTestApp,
  quickSession,
  snapshot,
  type Client,
  type TestApp,
} from '../test/harness';

const WRITE = '/api/write/applications/usermanager/registrations';
const SHELLY = { mac: 'A8-03-2A-BE-54-DD', prefix: 'shellypro3em-cellar' };

/** Connects to the broker as the settings say; answers how the connection ended up. */
async function connects(s: DeviceConnectionSettings, password = s.password): Promise<boolean> {
  try {
    const c = await mqtt.connectAsync(`mqtt://${s.host}:${s.port}`, {
      username: s.username,
      password,
      clientId: s.clientId,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    // Its own topics are open to it.
    await c.publishAsync(`${SHELLY.prefix}/online`, 'true', { qos: 1 });
    await c.endAsync();
    return true;
  } catch {
    return false;
  }
}

describe.runIf(backendAvailable('registration with Mosquitto dynamic security', 'TEST_MQTT_URL'))(
  'registering devices with accounts in Mosquitto',
  () => {
    let broker: PrivateMosquitto;
    beforeAll(async () => {
      expect(DYNSEC_PLUGIN, 'the Mosquitto installation has its dynamic security plugin').toBeDefined();
      broker = await startPrivateMosquitto();
    });
    afterAll(() => broker?.stop());

    describe.each(DIALECTS)('on $name', (dialect) => {
      let t: TestApp;
      let boss: Client;
      beforeAll(async () => {
        t = await createTestApp(dialect, { env: { MQTT_URL: broker.adminUrl, MQTT_DYNSEC: 'true' } });
        boss = await quickSession(
          t.services,
          await addUser(t.services, 'boss', 'boss-secret', 'USER_MANAGER'),
        );
      });
      afterAll(() => t.close());

      it('keeps the account in Mosquitto through registration, a new password and revocation', async () => {
        const r = await call(
          t.app,
          'POST',
          WRITE,
          {
            user_token: boss.token,
            family: 'shelly',
            mac: SHELLY.mac,
            title: 'Cellar',
            type: 4,
            topic: SHELLY.prefix,
          },
          boss,
        );
        expect(r.statusCode, r.body).toBe(200);
        const first = r.json<{ data: DeviceConnectionSettings }>().data;
        // The broker named is the one of MQTT_URL, never with its credentials.
        expect(`mqtt://${first.host}:${first.port}`).toBe(broker.url);
        expect(await connects(first)).toBe(true);

        const rotated = (
          await call(t.app, 'PUT', WRITE, { user_token: boss.token, mac: SHELLY.mac }, boss)
        ).json<{
          data: DeviceConnectionSettings;
        }>().data;
        expect(await connects(first)).toBe(false);
        expect(await connects(rotated)).toBe(true);

        const revoked = await call(t.app, 'DELETE', WRITE, { user_token: boss.token, mac: SHELLY.mac }, boss);
        expect(revoked.statusCode, revoked.body).toBe(200);
        expect(await connects(rotated)).toBe(false);
      });
    });

    it('changes nothing when the broker keeping the accounts cannot be reached', async () => {
      const t = await createTestApp(DIALECTS[0]!, {
        env: { MQTT_URL: 'mqtt://admin:admin-secret@127.0.0.1:9', MQTT_DYNSEC: 'true' },
      });
      try {
        const boss = await quickSession(
          t.services,
          await addUser(t.services, 'boss', 'boss-secret', 'USER_MANAGER'),
        );
        const before = await snapshot(t.services);
        const r = await call(
          t.app,
          'POST',
          WRITE,
          {
            user_token: boss.token,
            family: 'p1',
            mac: '02-4D-50-00-60-31',
            title: 'House',
            type: 1,
            topic: 'house',
          },
          boss,
        );
        expect(r.json()).toMatchObject({
          status: 'ERROR',
          message: expect.stringMatching(/nothing was changed/) as string,
        });
        expect(await snapshot(t.services)).toEqual(before);
      } finally {
        await t.close();
      }
    });
  },
);
