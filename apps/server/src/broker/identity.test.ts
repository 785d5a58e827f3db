// The credentials are the identity on the embedded broker: a client id of another meter, or a
// last will outside the meter's own state topic, is refused at CONNECT and displaces no one.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { deviceTopic, encodePayload, meterClientId, type DeviceMessage } from '@meterportal/protocol';
import type { TelemetryDB } from '../db/schema.telemetry';
import { insertDevice, memoryLogger, openTestDatabase, until } from '../telemetry/testing';
import { startDeviceLink, type DeviceLink } from './device-link';
import { DIALECTS } from '../test/dialects';

const MAC_A = 'EM-70-B3-D5-01-00-1A';
const MAC_B = 'EM-70-B3-D5-01-00-1B';

describe.each(DIALECTS)('device identity on the embedded broker on $name', ({ name: dialect }) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let link: DeviceLink;
  let url: string;
  const creds = new Map<string, { username: string; password: string }>();
  const messages: DeviceMessage[] = [];
  const clients: MqttClient[] = [];
  const db = () => database.db.withTables<TelemetryDB>();

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    messages.length = 0;
    link = await startDeviceLink({
      database,
      logger: memoryLogger(),
      clock: { nowMs: () => Date.now() },
      mqttPort: 0,
      flushIntervalMs: 100,
      onMessage: (m) => messages.push(m),
    });
    url = `mqtt://127.0.0.1:${link.embeddedPort}`;
    for (const mac of [MAC_A, MAC_B])
      creds.set(mac, await link.credentials.issue(await insertDevice(database, mac, 1), mac));
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
    await link.close();
    await database.dispose();
  });

  const connect = async (mac: string, opts: mqtt.IClientOptions = {}) => {
    const c = await mqtt.connectAsync(url, {
      ...creds.get(mac)!,
      clientId: meterClientId(mac),
      reconnectPeriod: 0,
      ...opts,
    });
    clients.push(c);
    return c;
  };
  const offlineWill = (mac: string) => ({
    topic: deviceTopic(mac, 'state'),
    payload: Buffer.from(encodePayload({ status: 'OFFLINE' })),
    qos: 1 as const,
    retain: true,
  });
  const statusOf = async (mac: string) =>
    (
      await db()
        .selectFrom('device_states')
        .innerJoin('devices', 'devices.id', 'device_states.device_id')
        .select('status')
        .where('mac', '=', mac)
        .executeTakeFirst()
    )?.status;

  it("refuses meter A's credentials with meter B's client id, and B stays online", async () => {
    const b = await connect(MAC_B, { will: offlineWill(MAC_B) });
    let bClosed = false;
    b.on('close', () => (bClosed = true));
    await b.publishAsync(
      deviceTopic(MAC_B, 'state'),
      encodePayload({ status: 'ONLINE', fw: '1.0', ts: 1_763_000_000 }),
      { qos: 1 },
    );
    await until(async () => (await statusOf(MAC_B)) === 1);

    for (let i = 0; i < 3; i += 1) {
      await expect(connect(MAC_A, { clientId: meterClientId(MAC_B) })).rejects.toThrow(
        /Identifier rejected/i,
      );
    }
    // Any client id other than its own is refused too, including one the broker would assign.
    await expect(connect(MAC_A, { clientId: 'anything' })).rejects.toThrow(/Identifier rejected/i);
    await expect(connect(MAC_A, { clientId: '', clean: true })).rejects.toThrow(/Identifier rejected/i);

    await new Promise((r) => setTimeout(r, 300));
    await link.ingest.flush();
    expect(bClosed).toBe(false);
    expect(b.connected).toBe(true);
    expect(
      messages.flatMap((m) => (m.kind === 'state' && m.mac === MAC_B ? [m.payload.status] : [])),
    ).toEqual(['ONLINE']);
    expect(await statusOf(MAC_B)).toBe(1);
    // B still publishes through its connection.
    await b.publishAsync(
      deviceTopic(MAC_B, 'state'),
      encodePayload({ status: 'DATABASE_UPDATE', ts: 1_763_000_010 }),
      { qos: 1 },
    );
    await until(async () => (await statusOf(MAC_B)) === 2);

    // A with its own client id is welcome.
    const a = await connect(MAC_A);
    expect(a.connected).toBe(true);
  });

  it('accepts a last will only on the meter’s own state topic', async () => {
    await expect(connect(MAC_A, { will: offlineWill(MAC_B) })).rejects.toThrow(/Not authorized/i);
    await expect(
      connect(MAC_A, { will: { ...offlineWill(MAC_A), topic: deviceTopic(MAC_A, 'event') } }),
    ).rejects.toThrow(/Not authorized/i);
    await expect(connect(MAC_A, { will: { ...offlineWill(MAC_A), topic: 'meters/#' } })).rejects.toThrow(
      /Not authorized/i,
    );
    expect(messages).toHaveLength(0);

    // The own will is kept and says OFFLINE when the link drops.
    const a = await connect(MAC_A, { will: offlineWill(MAC_A) });
    await a.publishAsync(
      deviceTopic(MAC_A, 'state'),
      encodePayload({ status: 'ONLINE', ts: 1_763_000_000 }),
      { qos: 1 },
    );
    await until(async () => (await statusOf(MAC_A)) === 1);
    a.stream.destroy();
    await until(async () => (await statusOf(MAC_A)) === 0);
    expect(messages.filter((m) => m.kind === 'state' && m.mac === MAC_B)).toHaveLength(0);
  });
});
