import { DEFAULT_TZ } from '../config/config';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHistory } from '@meterportal/simulator';
import type { TelemetryDB } from '../db/schema.telemetry';
import { backfillHistory, type BackfillDevice } from './backfill';
import { createTelemetryRepository } from './telemetry.repository';
import { insertDevice, memoryLogger, openTestDatabase } from './testing';
import { DIALECTS } from '../test/dialects';

const NOW_MS = Date.UTC(2026, 10, 21, 12, 7, 30);

describe.each(DIALECTS)('history backfill on $name', ({ name: dialect }) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  const devices: BackfillDevice[] = [];
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    devices.length = 0;
    for (const type of [1, 2, 3, 4, 5, 6] as const) {
      const mac = `EM-70-B3-D5-0${type}-00-01`;
      devices.push({ id: await insertDevice(database, mac, type), mac, type });
    }
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('writes a year of quarters and two weeks of minutes for six meters, once', async () => {
    const deps = {
      repository: createTelemetryRepository(database, { tz: DEFAULT_TZ }),
      clock: { nowMs: () => NOW_MS },
      logger: memoryLogger(),
    };
    const r = await backfillHistory(deps, devices);
    console.log(`backfill on ${dialect}: ${JSON.stringify(r)}`);
    expect(r.quarterRows).toBe(6 * 365 * 96);
    expect(r.minuteRows).toBeGreaterThan(6 * 14 * 1440 * 0.98);
    const again = await backfillHistory(deps, devices);
    expect(again).toMatchObject({ skipped: 6, quarterRows: 0 });

    const db = database.db.withTables<TelemetryDB>();
    const last = await db
      .selectFrom('energy_quarters')
      .select((eb) => eb.fn.max('ts_sec').as('t'))
      .executeTakeFirstOrThrow();
    expect(Number(last.t)).toBe(Math.floor(NOW_MS / 900_000) * 900 - 900);
    // A day of the type 4 meter matches the history model exactly, totals being the phase sums.
    const dayStart = Math.floor(NOW_MS / 1000 / 86400) * 86400 - 86400;
    const rows = await db
      .selectFrom('energy_quarters')
      .select(['e_i_wh', 'e_i_l1_wh', 'e_i_l2_wh', 'e_i_l3_wh', 'e_e_wh'])
      .where('device_id', '=', devices[3]!.id)
      .where('ts_sec', '>=', dayStart)
      .where('ts_sec', '<', dayStart + 86400)
      .execute();
    expect(rows).toHaveLength(96);
    const expected = [
      ...createHistory(4, devices[3]!.mac).quarters(
        Math.floor(NOW_MS / 900_000) * 900 - 365 * 86400,
        dayStart + 86400,
      ),
    ].slice(-96);
    expect(rows.reduce((s, x) => s + Number(x.e_i_l2_wh), 0)).toBe(
      expected.reduce((s, q) => s + q.energy.E_I.L2, 0),
    );
    expect(
      rows.every((x) => Number(x.e_i_wh) === Number(x.e_i_l1_wh) + Number(x.e_i_l2_wh) + Number(x.e_i_l3_wh)),
    ).toBe(true);
    const minutes = await db
      .selectFrom('telemetry_minutes')
      .select(['p_l1_avg', 'p_l1_min', 'p_l1_max'])
      .where('device_id', '=', devices[0]!.id)
      .limit(500)
      .execute();
    expect(minutes.every((m) => m.p_l1_min! <= m.p_l1_avg! && m.p_l1_avg! <= m.p_l1_max!)).toBe(true);

    // Availability: online from the start, then offline and back online around each power cut.
    const changes = await db
      .selectFrom('device_status_changes')
      .select(['at_ms', 'status'])
      .where('device_id', '=', devices[0]!.id)
      .orderBy('at_ms')
      .execute();
    const fromSec = Math.floor(NOW_MS / 900_000) * 900 - 365 * 86400;
    const cuts = createHistory(1, devices[0]!.mac).outages(fromSec, Math.floor(NOW_MS / 60_000) * 60);
    expect(cuts.length).toBeGreaterThan(30); // about one day in five
    expect(changes[0]).toEqual({ at_ms: fromSec * 1000, status: 1 });
    expect(changes.length).toBe(
      1 + cuts.length * 2 - (cuts.at(-1)!.toSec >= Math.floor(NOW_MS / 60_000) * 60 ? 1 : 0),
    );
    expect(changes.slice(1, 3)).toEqual([
      { at_ms: cuts[0]!.fromSec * 1000, status: 0 },
      { at_ms: cuts[0]!.toSec * 1000, status: 1 },
    ]);
    // No minute profile is stored inside a recent cut (the meter had no power), but around it.
    const endMinute = Math.floor(NOW_MS / 60_000) * 60;
    const recent = cuts
      .filter((c) => c.fromSec >= endMinute - 14 * 86400 && c.toSec < endMinute && c.toSec - c.fromSec >= 180)
      .at(-1)!;
    const minuteCount = async (from: number, to: number) =>
      Number(
        (
          await db
            .selectFrom('telemetry_minutes')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('device_id', '=', devices[0]!.id)
            .where('ts_sec', '>=', from)
            .where('ts_sec', '<', to)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(
      await minuteCount(Math.ceil(recent.fromSec / 60) * 60, Math.floor(recent.toSec / 60) * 60 - 60),
    ).toBe(0);
    expect(await minuteCount(recent.fromSec - 600, recent.fromSec - 60)).toBe(9);
    const expectedChanges = devices
      .map((d) => createHistory(d.type, d.mac).outages(fromSec, endMinute))
      .reduce(
        (n, list) => n + 1 + list.length * 2 - (list.at(-1) && list.at(-1)!.toSec >= endMinute ? 1 : 0),
        0,
      );
    expect(r.statusChanges).toBe(expectedChanges);
  }, 300_000);
});
