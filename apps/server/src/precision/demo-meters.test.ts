import { afterEach, describe, expect, it } from 'vitest';
import { MeterTestResult } from '@meterportal/protocol';
import { insertDevice, openTestDatabase } from '../telemetry/testing';
import { DEMO_TESTS_PER_METER, seedDemoMeters } from './demo-meters';
import { metersRepository } from './meters.repository';
import { DIALECTS } from '../test/dialects';

const BENCH = '02-4D-50-00-00-03';
const NOW_MS = Date.UTC(2026, 10, 20, 14, 0, 0);

describe.each(DIALECTS)('demo meter database on $name', ({ name: dialect }) => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0)) await c();
  });

  it('seeds the factory meters with weeks of tests on the first start and nothing on the second', async () => {
    const database = await openTestDatabase(dialect);
    cleanup.push(() => database.dispose());
    const id = await insertDevice(database, BENCH, 3);
    const repo = metersRepository(database);
    const clock = { nowMs: () => NOW_MS };
    const first = await seedDemoMeters({ repo, clock }, [{ id, mac: BENCH }]);
    expect(first).toEqual({ devices: 1, meters: 2, tests: 2 * DEMO_TESTS_PER_METER });
    const meters = await repo.list(id);
    expect(meters.map((m) => [m.idn, m.tests]).sort()).toEqual([
      ['1', DEMO_TESTS_PER_METER],
      ['2', DEMO_TESTS_PER_METER],
    ]);
    const tests = await repo.tests(id, '1');
    const results = tests.map((t) => MeterTestResult.parse(JSON.parse(t.result)));
    const nowSec = NOW_MS / 1000;
    for (const r of results) {
      expect(r.MTIME).toBeLessThan(nowSec);
      expect(r.MTIME).toBeGreaterThan(nowSec - 30 * 86400);
      expect(Math.abs(r.ERROR)).toBeLessThanOrEqual(1);
      expect(r.MCHNLA1).toBeGreaterThan(215);
    }
    expect(new Set(results.map((r) => r.MTIME)).size).toBe(DEMO_TESTS_PER_METER);

    const second = await seedDemoMeters({ repo, clock: { nowMs: () => NOW_MS + 86400_000 } }, [
      { id, mac: BENCH },
    ]);
    expect(second).toEqual({ devices: 0, meters: 0, tests: 0 });
    expect((await repo.list(id)).map((m) => m.tests)).toEqual([DEMO_TESTS_PER_METER, DEMO_TESTS_PER_METER]);
  });
});
