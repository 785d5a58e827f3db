import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import mqtt from 'mqtt';
import { startDevice, type SimDevice } from '@meterportal/simulator';
import type { LiveFrame } from '@meterportal/protocol';
import type { TelemetryDB } from '../db/schema.telemetry';
import { insertDevice, memoryLogger, openTestDatabase, until } from '../telemetry/testing';
import { startDeviceLink, type DeviceLinkDeps } from './device-link';
import { backendAvailable } from '../test/backends';
import { DIALECTS } from '../test/dialects';

const MQTT_URL = process.env.TEST_MQTT_URL;
const ready = backendAvailable('external broker (Mosquitto)', 'TEST_MQTT_URL');

describe.runIf(ready).each(DIALECTS)(
  'device link through an external broker on $name',
  ({ name: dialect }) => {
    let database: Awaited<ReturnType<typeof openTestDatabase>>;
    const sims: SimDevice[] = [];
    // Unique per run: the broker outlives tests and keeps retained state and sessions.
    const run = randomBytes(2).toString('hex').toUpperCase();
    const mac = `EM-70-B3-D5-06-${run.slice(0, 2)}-${run.slice(2)}`;
    const clientId = `test-ingest-${run}-${dialect}`;
    const frames: LiveFrame[] = [];
    const db = () => database.db.withTables<TelemetryDB>();

    const link = (extra: Partial<DeviceLinkDeps> = {}) =>
      startDeviceLink({
        database,
        logger: memoryLogger(),
        clock: { nowMs: () => Date.now() },
        mqttUrl: MQTT_URL,
        mqttClientId: clientId,
        mqttPort: 0,
        flushIntervalMs: 100,
        onLive: (_mac, _id, f) => frames.push(f),
        ...extra,
      });

    beforeEach(async () => {
      database = await openTestDatabase(dialect);
      await insertDevice(database, mac, 6);
      frames.length = 0;
    });
    afterEach(async () => {
      await Promise.all(sims.splice(0).map((s) => s.stop()));
      await database.dispose();
      // Drop the persistent session so the shared broker does not queue for it forever.
      await (await mqtt.connectAsync(MQTT_URL!, { clientId, clean: true })).endAsync();
    });

    it('stores frames of a simulated meter, keeps them while the server is away, and answers commands', async () => {
      let l = await link();
      expect(l.embeddedPort).toBeNull();
      const d = startDevice({
        brokerUrl: MQTT_URL!,
        mac,
        type: 6,
        username: mac,
        password: 'unused',
        speed: 40,
        outages: false,
        nowMs: () => Date.now() - 3_600_000,
      });
      sims.push(d);
      await d.connected;
      await until(() => frames.length > 100);
      expect(await l.commands.send(mac, { cmd: 'WAVEFORM' })).toMatchObject({ ok: true, cmd: 'WAVEFORM' });

      // Server restart: the persistent session keeps what the meter publishes meanwhile.
      await l.close();
      const sentWhileAway = d.framesSent;
      await until(() => d.framesSent > sentWhileAway + 60);
      l = await link();
      await until(() => frames.length >= d.framesSent - 5);
      await d.stop();
      await until(
        async () =>
          (await db().selectFrom('device_states').select('status').executeTakeFirst())?.status === 0,
      );
      await l.close();

      const ts = frames.map((f) => f.ts);
      const missing = ts.slice(1).filter((t, i) => t !== ts[i]! + 1);
      expect(missing).toEqual([]);
      const q = await db().selectFrom('energy_quarters').select(['e_i_wh', 'e_e_wh']).execute();
      const sum = (f: LiveFrame, k: 'E_I' | 'E_E') => f[k].L1 + f[k].L2 + f[k].L3;
      expect(q.reduce((s, r) => s + Number(r.e_i_wh), 0)).toBe(
        sum(frames.at(-1)!, 'E_I') - sum(frames[0]!, 'E_I'),
      );
      expect(q.reduce((s, r) => s + Number(r.e_e_wh), 0)).toBe(
        sum(frames.at(-1)!, 'E_E') - sum(frames[0]!, 'E_E'),
      );
      const minutes = await db()
        .selectFrom('telemetry_minutes')
        .select(['ts_sec', 'samples'])
        .orderBy('ts_sec')
        .execute();
      expect(minutes.slice(1, -1).every((m) => m.samples === 60)).toBe(true);
    });
  },
);
