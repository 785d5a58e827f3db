import { afterEach, describe, expect, it } from 'vitest';
import type { TelemetryDB } from '../db/schema.telemetry';
import { insertDevice, memoryLogger, openTestDatabase } from '../telemetry/testing';
import { startDeviceLink } from './device-link';
import { startDemoFleet } from './demo-fleet';

describe('demo fleet', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it('backfills history and brings every device online over the embedded broker', async () => {
    const database = await openTestDatabase('sqlite');
    cleanup.push(() => database.dispose());
    const devices = [];
    for (const type of [1, 2, 3, 4, 5, 6] as const) {
      const mac = `02-4D-50-00-00-0${type}`;
      devices.push({
        id: await insertDevice(database, mac, type),
        mac,
        type,
        phases: type === 2 || type === 5 ? (1 as const) : (3 as const),
      });
    }
    const logger = memoryLogger();
    const clock = { nowMs: () => Date.now() };
    const link = await startDeviceLink({ database, logger, clock, mqttPort: 0, flushIntervalMs: 100 });
    cleanup.push(() => link.close());
    const { fleet, backfill, meters } = await startDemoFleet(
      {
        database,
        link,
        logger,
        clock,
        brokerUrl: `mqtt://127.0.0.1:${link.embeddedPort}`,
        accuTestPeriodSec: 300,
      },
      devices.map((d) => ({ ...d })),
    );
    cleanup.push(() => fleet.stop());
    expect(backfill).toMatchObject({ devices: 6, quarterRows: 6 * 365 * 96 });
    // Only the precision analyzer (type 3) has a meter database, with weeks of tests.
    expect(meters).toEqual({ devices: 1, meters: 2, tests: 24 });
    await Promise.all(fleet.devices.map((d) => d.connected));
    const db = database.db.withTables<TelemetryDB>();
    const end = Date.now() + 10_000;
    let online = 0;
    while (online < 6 && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 200));
      online = (await db.selectFrom('device_states').select('device_id').where('status', '=', 1).execute())
        .length;
    }
    expect(online).toBe(6);
    await new Promise((r) => setTimeout(r, 2500));
    await link.ingest.flush();
    const cursors = await db.selectFrom('telemetry_cursors').select('device_id').execute();
    expect(cursors).toHaveLength(6);
  }, 90_000);
});
