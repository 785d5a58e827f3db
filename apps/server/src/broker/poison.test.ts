// Fault injection through the embedded broker: texts a database refuses, values beyond physics
// and accuracy tests from a meter that is no analyzer are refused and counted at decode, and the
// other meters' frames keep being stored on every dialect.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import {
  LIVE_PHASE_QUANTITIES,
  REGISTER_KINDS,
  deviceTopic,
  meterClientId,
  type DeviceMessage,
  type TopicKind,
} from '@meterportal/protocol';
import type { TelemetryDB } from '../db/schema.telemetry';
import { insertDevice, memoryLogger, openTestDatabase, until } from '../telemetry/testing';
import { startDeviceLink, type DeviceLink } from './device-link';
import { DIALECTS } from '../test/dialects';

const MAC_A = 'EM-70-B3-D5-01-00-2A';
const MAC_P = 'EM-70-B3-D5-03-00-2C';
const MAC_B = 'EM-70-B3-D5-01-00-2B';
// A minute start an hour ago: frames from a meter whose clock is right (ingest refuses far-off clocks).
const T0 = Math.floor(Date.now() / 60_000) * 60 - 3600;

/** A live frame as JSON text; numbers are written as given, so 1e400 reaches the decoder. */
function frameText(tsSec: number, override: Record<string, string> = {}): string {
  const parts = [`"ts":${tsSec}`, `"F":${override.F ?? '50.01'}`];
  const typical: Record<string, number> = {
    U: 230,
    I: 5,
    P: 1000,
    Q: 100,
    S: 1005,
    PF: 0.99,
    DF_U: 2,
    DF_I: 10,
    F_U: 0,
    F_I: -5,
    U_PP: 400,
    F_UPP: 30,
  };
  for (const q of LIVE_PHASE_QUANTITIES)
    parts.push(`"${q}":{"L1":${override[q] ?? typical[q]},"L2":${typical[q]},"L3":${typical[q]}}`);
  const reg = tsSec - T0 + 1000;
  for (const r of REGISTER_KINDS) parts.push(`"${r}":{"L1":${override[r] ?? reg},"L2":${reg},"L3":${reg}}`);
  return `{${parts.join(',')}}`;
}

const BAD = { nul_char: ['x\u0000y'], lone_surrogate: ['x\ud800y', 'x\udc00'] } as const;

/** Every text field a device sends: who sends it, on which topic, with the text set to `bad`. */
const TEXT_FIELDS: [string, 'A' | 'P', TopicKind, (bad: string) => unknown][] = [
  ['state fw', 'A', 'state', (bad) => ({ status: 'ONLINE', fw: bad, ts: T0 })],
  ['state connection', 'A', 'state', (bad) => ({ status: 'ONLINE', connection: bad, ts: T0 })],
  ['state device', 'A', 'state', (bad) => ({ status: 'ONLINE', device: bad, ts: T0 })],
  ['STATUS event', 'A', 'event', (bad) => ({ type: 'STATUS', data: { timestamp: T0, event: bad } })],
  [
    'ANOMALY message',
    'A',
    'event',
    (bad) => ({ type: 'ANOMALY', data: { timestamp: T0, event: 'SPIKE', message: bad, phase: 'L1' } }),
  ],
  [
    'NILM name',
    'A',
    'event',
    (bad) => ({
      type: 'NILM',
      data: {
        timestamp: T0,
        event: 'OFF',
        name: bad,
        phase: 'L1',
        prediction_rate: 90,
        runtime: 60,
        energy_consumption_wh: 10,
      },
    }),
  ],
  ['upgrade id', 'A', 'upgrade', (bad) => ({ id: bad, state: 'UPGRADING', progress: 10, fw: '2.0' })],
  ['upgrade fw', 'A', 'upgrade', (bad) => ({ id: 'c1', state: 'UPGRADING', progress: 10, fw: bad })],
  [
    'accutest/state IDN',
    'P',
    'accutest/state',
    (bad) => ({ state: 'RUNNING', IDN: bad, progress: 5, ts: T0 }),
  ],
  ['accutest/data IDN', 'P', 'accutest/data', (bad) => ({ IDN: bad, MTIME: T0, ERROR: 0.1 })],
  [
    'accutest/data extra text',
    'P',
    'accutest/data',
    (bad) => ({ IDN: 'm-1', MTIME: T0, ERROR: 0.1, NOTE: bad }),
  ],
  [
    'meter database record',
    'P',
    'cmd/res',
    (bad) => ({
      id: 'c2',
      cmd: 'METERS_UPLOAD',
      ok: true,
      result: { meters: [{ IDN: 'm-1', CUSTOMER: bad }] },
    }),
  ],
  [
    'meter database IDN',
    'P',
    'cmd/res',
    (bad) => ({ id: 'c3', cmd: 'METERS_UPLOAD', ok: true, result: { meters: [{ IDN: bad }] } }),
  ],
];

describe.each(DIALECTS)(
  'hostile device payloads through the embedded broker on $name',
  ({ name: dialect }) => {
    let database: Awaited<ReturnType<typeof openTestDatabase>>;
    let link: DeviceLink;
    const messages: DeviceMessage[] = [];
    const clients = new Map<string, MqttClient>();
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
      const url = `mqtt://127.0.0.1:${link.embeddedPort}`;
      for (const [mac, type] of [
        [MAC_A, 1],
        [MAC_P, 3],
        [MAC_B, 1],
      ] as const) {
        const creds = await link.credentials.issue(await insertDevice(database, mac, type), mac);
        clients.set(
          mac,
          await mqtt.connectAsync(url, { ...creds, clientId: meterClientId(mac), reconnectPeriod: 0 }),
        );
      }
    });

    afterEach(async () => {
      await Promise.all([...clients.values()].map((c) => c.endAsync(true)));
      clients.clear();
      await link.close();
      await database.dispose();
    });

    const publish = (mac: string, kind: TopicKind, text: string) =>
      clients.get(mac)!.publishAsync(deviceTopic(mac, kind), text, { qos: 1 });
    const rejects = async (reason: string) =>
      (await link.metrics.rejects.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;
    const cursorOf = async (mac: string) =>
      (
        await db()
          .selectFrom('telemetry_cursors')
          .innerJoin('devices', 'devices.id', 'telemetry_cursors.device_id')
          .select('ts_sec')
          .where('mac', '=', mac)
          .executeTakeFirst()
      )?.ts_sec;

    it('refuses every text field holding a NUL or a lone surrogate while another meter keeps storing', async () => {
      let ts = T0;
      const bad: { reason: keyof typeof BAD; kind: TopicKind; mac: string; text: string }[] = [];
      for (const [, who, kind, make] of TEXT_FIELDS) {
        for (const reason of ['nul_char', 'lone_surrogate'] as const) {
          for (const b of BAD[reason])
            bad.push({ reason, kind, mac: who === 'A' ? MAC_A : MAC_P, text: JSON.stringify(make(b)) });
        }
      }
      expect(bad.length).toBeLessThan(60);
      // Each poison message is followed by a frame of meter B; B completes its minute afterwards.
      for (const m of bad) {
        await publish(m.mac, m.kind, m.text);
        await publish(MAC_B, 'live', frameText(ts++));
      }
      while (ts < T0 + 60) await publish(MAC_B, 'live', frameText(ts++));
      // Clean messages of the same meters after the poison are taken.
      await publish(
        MAC_A,
        'state',
        JSON.stringify({ status: 'ONLINE', fw: '1.0', connection: 'BT_MQTT', device: 'EM-1', ts: T0 }),
      );
      await publish(
        MAC_P,
        'accutest/data',
        JSON.stringify({ IDN: 'm-1', MTIME: T0, ERROR: 0.1, NOTE: 'clean' }),
      );

      await until(async () => (await cursorOf(MAC_B)) === T0 + 59);
      await until(async () => (await db().selectFrom('meter_tests').select('idn').execute()).length === 1);
      await link.ingest.flush();

      expect(await rejects('nul_char')).toBe(TEXT_FIELDS.length);
      expect(await rejects('lone_surrogate')).toBe(2 * TEXT_FIELDS.length);
      expect((await link.metrics.commitFailures.get()).values[0]?.value ?? 0).toBe(0);
      const minutes = await db()
        .selectFrom('telemetry_minutes')
        .innerJoin('devices', 'devices.id', 'telemetry_minutes.device_id')
        .select(['mac', 'samples'])
        .execute();
      expect(minutes).toEqual([{ mac: MAC_B, samples: 60 }]);
      const states = await db().selectFrom('device_states').select(['fw', 'connection', 'model']).execute();
      expect(states).toEqual([{ fw: '1.0', connection: 'BT_MQTT', model: 'EM-1' }]);
      const tests = await db().selectFrom('meter_tests').select(['idn', 'result']).execute();
      expect(tests.map((t) => (JSON.parse(t.result) as { NOTE: string }).NOTE)).toEqual(['clean']);
      // Nothing refused reached the listeners (browsers, notifications, command replies).
      expect(messages.map((m) => m.kind).sort()).toEqual(['accutest/data', 'state']);
    });

    it.each([
      ['1e308 V', { U: '1e308' }],
      ['-1e308 W', { P: '-1e308' }],
      ['1e400 A', { I: '1e400' }],
      ['a power factor of 3', { PF: '3' }],
      ['a 2^64 register', { E_I: '18446744073709551616' }],
      ['a 1e308 register', { Q_E: '1e308' }],
      ['1e308 Hz', { F: '1e308' }],
    ])('refuses a frame with %s and never stores a null average', async (_name, override) => {
      // Meter A sends a minute whose middle frame is implausible; meter B sends a clean minute.
      for (let s = 0; s < 60; s += 1) {
        await publish(MAC_A, 'live', frameText(T0 + s, s === 30 ? override : {}));
        await publish(MAC_B, 'live', frameText(T0 + s));
      }
      await until(async () => (await cursorOf(MAC_A)) === T0 + 59 && (await cursorOf(MAC_B)) === T0 + 59);
      await link.ingest.flush();
      expect(await rejects('out_of_range')).toBe(1);
      const rows = await db()
        .selectFrom('telemetry_minutes')
        .innerJoin('devices', 'devices.id', 'telemetry_minutes.device_id')
        .selectAll('telemetry_minutes')
        .select('mac')
        .orderBy('mac')
        .execute();
      expect(rows.map((r) => [r.mac, r.samples])).toEqual([
        [MAC_A, 59],
        [MAC_B, 60],
      ]);
      for (const row of rows) {
        const nulls = Object.entries(row).filter(([, v]) => v === null);
        expect(nulls, `${row.mac} has no null column`).toEqual([]);
      }
    });

    it('stores accuracy tests only from an analyzer', async () => {
      const result = JSON.stringify({ IDN: 'm-1', MTIME: T0, ERROR: 0.1 });
      const state = JSON.stringify({ state: 'RUNNING', IDN: 'm-1', progress: 5, ts: T0 });
      await publish(MAC_A, 'accutest/data', result);
      await publish(MAC_A, 'accutest/state', state);
      await publish(MAC_P, 'accutest/state', state);
      await publish(MAC_P, 'accutest/data', result);
      await until(
        async () => (await db().selectFrom('meter_tests').select('device_id').execute()).length === 1,
      );
      await until(async () => (await rejects('not_analyzer')) === 2);
      await link.ingest.flush();
      const owners = await db()
        .selectFrom('meter_tests')
        .innerJoin('devices', 'devices.id', 'meter_tests.device_id')
        .select('mac')
        .execute();
      expect(owners).toEqual([{ mac: MAC_P }]);
      expect(messages.map((m) => [m.kind, m.mac])).toEqual([
        ['accutest/state', MAC_P],
        ['accutest/data', MAC_P],
      ]);
    });
  },
);
