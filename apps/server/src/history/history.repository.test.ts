import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import type { TelemetryDB, TelemetryMinutesTable } from '../db/schema.telemetry';
import { MINUTE_COLUMNS } from '../telemetry/columns';
import { insertDevice, openTestDatabase } from '../telemetry/testing';
import { historyRepository } from './history.repository';
import { DIALECTS } from '../test/dialects';

const T = 1_790_000_040;

describe.each(DIALECTS)('minute reads on $name', ({ name: dialect }) => {
  let database: Database & { dispose(): Promise<void> };
  let deviceId: number;
  const row = (ts: number, v: number) =>
    ({
      device_id: deviceId,
      ts_sec: ts,
      samples: 60,
      ...Object.fromEntries(MINUTE_COLUMNS.map((c, i) => [c, v + i / 8])),
    }) as TelemetryMinutesTable;

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    deviceId = await insertDevice(database, '02-4D-50-00-00-31');
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('gives the asked columns of the range in time order', async () => {
    const db = database.db.withTables<TelemetryDB>();
    await db
      .insertInto('telemetry_minutes')
      .values([row(T + 120, 3), row(T, 1), row(T + 60, 2), row(T + 180, 4)])
      .execute();
    const repo = historyRepository(database);
    const r = await repo.minuteColumns(deviceId, T, T + 180, ['u_l2_avg', 'f_avg']);
    const at = (c: string) => MINUTE_COLUMNS.indexOf(c as never) / 8;
    expect(r.tsSec).toEqual([T, T + 60, T + 120]);
    expect(r.values.map((v) => [...v])).toEqual([
      [1, 2, 3].map((v) => v + at('u_l2_avg')),
      [1, 2, 3].map((v) => v + at('f_avg')),
    ]);
    await expect(
      repo.minuteColumns(deviceId, T, T + 60, ['u_l2_avg; drop table devices' as never]),
    ).rejects.toThrow(/unknown minute column/);
  });

  it('never sees the rows of a write transaction that is still open or rolled back', async () => {
    const db = database.db.withTables<TelemetryDB>();
    const repo = historyRepository(database);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const insertedP = new Promise<void>((r) => (inserted = r));
    const writer = db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('telemetry_minutes').values(row(T, 1)).execute();
        inserted();
        await held;
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await insertedP;
    const read = repo.minuteColumns(deviceId, T, T + 60, ['p_l1_avg']);
    await new Promise((r) => setTimeout(r, 50));
    release();
    await writer;
    expect((await read).tsSec).toEqual([]);
  });
});
