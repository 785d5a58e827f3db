// A generic JSON meter registered with its account kept in Mosquitto's dynamic security plugin
// (MQTT_DYNSEC): the broker lets it publish on exactly its own topic `json/<topic>`, and refuses
// another JSON meter's topic and the portal's own topics.
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDM630_PRESET, type DeviceConnectionSettings } from '@meterportal/protocol';
import { DYNSEC_PLUGIN, startPrivateMosquitto, type PrivateMosquitto } from '../broker/private-mosquitto';
import { backendAvailable } from '../test/backends';
import { DIALECTS, addUser, call, createTestApp, quickSession } from '../test/harness';

const WRITE = '/api/write/applications/usermanager/registrations';

describe.runIf(backendAvailable('JSON meters with Mosquitto dynamic security', 'TEST_MQTT_URL'))(
  'a JSON meter’s account in Mosquitto',
  () => {
    let broker: PrivateMosquitto;
    beforeAll(async () => {
      expect(DYNSEC_PLUGIN, 'the Mosquitto installation has its dynamic security plugin').toBeDefined();
      broker = await startPrivateMosquitto();
    });
    afterAll(() => broker?.stop());

    it('allows the meter exactly its own topic', async () => {
      const t = await createTestApp(DIALECTS[0]!, {
        env: { MQTT_URL: broker.adminUrl, MQTT_DYNSEC: 'true' },
      });
      try {
        const boss = await quickSession(
          t.services,
          await addUser(t.services, 'boss', 'boss-secret', 'USER_MANAGER'),
        );
        const r = await call(
          t.app,
          'POST',
          WRITE,
          {
            user_token: boss.token,
            family: 'json',
            mac: '02-4D-50-00-90-01',
            title: 'SDM630',
            type: 4,
            topic: 'sdm630-cellar',
            mapping: SDM630_PRESET,
          },
          boss,
        );
        expect(r.statusCode, r.body).toBe(200);
        const s = r.json<{ data: DeviceConnectionSettings }>().data;
        expect(s.publishTopic).toBe('json/sdm630-cellar');
        const c = await mqtt.connectAsync(`mqtt://${s.host}:${s.port}`, {
          username: s.username,
          password: s.password,
          clientId: s.clientId,
          protocolVersion: 5,
          reconnectPeriod: 0,
          connectTimeout: 5000,
        });
        try {
          /** The broker's answer to a QoS 1 publish: its PUBACK reason code (0: taken). */
          const answer = (topic: string) =>
            new Promise<number>((resolve) => {
              c.publish(topic, '{}', { qos: 1 }, (err, packet) => {
                const code = (packet as { reasonCode?: number } | undefined)?.reasonCode;
                resolve(err ? ((err as { code?: number }).code ?? 0x87) : (code ?? 0));
              });
            });
          expect(await answer('json/sdm630-cellar')).toBe(0);
          expect(await answer('json/sdm630-garage')).toBe(0x87);
          expect(await answer('json/sdm630-cellar/extra')).toBe(0x87);
          expect(await answer(`meters/${s.mac}/live`)).toBe(0x87);
        } finally {
          await c.endAsync(true);
        }
      } finally {
        await t.close();
      }
    });
  },
);
