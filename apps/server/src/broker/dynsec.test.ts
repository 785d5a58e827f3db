// Device accounts on a real Mosquitto with its dynamic security plugin: a private broker per run,
// next to the Mosquitto installation that TEST_MQTT_URL points at.
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceTopic, meterClientId } from '@meterportal/protocol';
import { createDeviceCredentials } from './credentials';
import { connectBrokerAccounts, type BrokerAccounts } from './dynsec';
import { ProvisioningError, deviceProvisioning } from '../devices/provisioning';
import { openTestDatabase, until } from '../telemetry/testing';
import { DYNSEC_PLUGIN, startPrivateMosquitto, type PrivateMosquitto } from './private-mosquitto';
import { backendAvailable } from '../test/backends';

const MAC = '02-4D-50-00-20-01';
const OTHER = '02-4D-50-00-20-02';

describe.runIf(backendAvailable('device accounts in Mosquitto dynamic security', 'TEST_MQTT_URL'))(
  'device accounts in Mosquitto dynamic security',
  () => {
    let broker: PrivateMosquitto;
    let url: string;
    let adminUrl: string;
    let database: Awaited<ReturnType<typeof openTestDatabase>>;
    let accounts: BrokerAccounts;
    let provisioning: ReturnType<typeof deviceProvisioning>;
    const clock = { nowMs: () => Date.now() };
    const connect = (username: string, password: string) =>
      mqtt.connectAsync(url, { username, password, clientId: meterClientId(username), reconnectPeriod: 0 });

    beforeAll(async () => {
      expect(DYNSEC_PLUGIN, 'the Mosquitto installation has its dynamic security plugin').toBeDefined();
      broker = await startPrivateMosquitto();
      ({ url, adminUrl } = broker);
      database = await openTestDatabase('sqlite');
      accounts = await connectBrokerAccounts(adminUrl);
      provisioning = deviceProvisioning({
        database,
        credentials: createDeviceCredentials({ database, clock }),
        clock,
        brokerAccounts: accounts,
      });
    });
    afterAll(async () => {
      await accounts?.close();
      await database?.dispose();
      broker?.stop();
    });

    it('gives a registered meter an account limited to its own topics', async () => {
      const issued = await provisioning.register({ mac: MAC, type: 4, title: 'Plant main' });
      await provisioning.register({ mac: OTHER, type: 4, title: 'Other' });
      const observer = await mqtt.connectAsync(adminUrl, { clientId: 'observer', reconnectPeriod: 0 });
      const seen: string[] = [];
      observer.on('message', (topic) => seen.push(topic));
      await observer.subscribeAsync('meters/#', { qos: 1 });

      const meter = await connect(issued.username, issued.password);
      await meter.publishAsync(deviceTopic(MAC, 'live'), '{}', { qos: 1 });
      // Mosquitto drops a publish its rules refuse without telling an MQTT 3.1.1 client.
      await meter.publishAsync(deviceTopic(OTHER, 'live'), '{}', { qos: 1 });
      await meter.publishAsync(deviceTopic(MAC, 'state'), '{}', { qos: 1 });
      await until(() => seen.includes(deviceTopic(MAC, 'state')));
      expect(seen).toEqual([deviceTopic(MAC, 'live'), deviceTopic(MAC, 'state')]);
      const own = await meter.subscribeAsync(deviceTopic(MAC, 'cmd/req'), { qos: 1 });
      expect(own[0]?.qos).toBe(1);
      const foreign = await meter
        .subscribeAsync(deviceTopic(OTHER, 'cmd/req'), { qos: 1 })
        .catch(() => [{ qos: 128 }]);
      expect(foreign[0]?.qos).toBe(128);
      await meter.endAsync();
      await observer.endAsync();
    });

    it("binds each meter's client id to its account, so no meter displaces another", async () => {
      const a = await provisioning.rotate(MAC);
      const b = await provisioning.rotate(OTHER);
      const meterB = await connect(OTHER, b.password);
      let bClosed = false;
      meterB.on('close', () => (bClosed = true));
      const attempt = (clientId: string) =>
        mqtt.connectAsync(url, {
          username: MAC,
          password: a.password,
          clientId,
          reconnectPeriod: 0,
          connectTimeout: 5000,
        });
      // Meter A's credentials with meter B's client id, or any id but its own, do not connect.
      await expect(attempt(meterClientId(OTHER))).rejects.toThrow();
      await expect(attempt('anything-else')).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 300));
      expect(bClosed).toBe(false);
      await meterB.publishAsync(deviceTopic(OTHER, 'state'), '{}', { qos: 1 });
      expect(meterB.connected).toBe(true);
      await meterB.endAsync();
      await (await connect(MAC, a.password)).endAsync();
    });

    it('follows a new secret and a revocation', async () => {
      const before = await provisioning.rotate(MAC);
      const after = await provisioning.rotate(MAC);
      await expect(connect(MAC, before.password)).rejects.toThrow();
      await (await connect(MAC, after.password)).endAsync();
      await provisioning.revoke(MAC);
      await expect(connect(MAC, after.password)).rejects.toThrow();
    });

    it('names the way out when the broker does not take the change', async () => {
      const silent = await connectBrokerAccounts(process.env.TEST_MQTT_URL!, 300);
      const p = deviceProvisioning({
        database,
        credentials: createDeviceCredentials({ database, clock }),
        clock,
        brokerAccounts: silent,
      });
      const failed = p.register({ mac: '02-4D-50-00-20-03', type: 1, title: 'House' });
      await expect(failed).rejects.toBeInstanceOf(ProvisioningError);
      await expect(failed).rejects.toThrow(
        /02-4D-50-00-20-03: stored, but the broker's accounts were not updated .*did not answer createRole.*run "device secret --mac 02-4D-50-00-20-03" again/,
      );
      expect((await p.list()).find((d) => d.mac === '02-4D-50-00-20-03')?.credentials).toBe(true);
      await silent.close();
    });
  },
);
