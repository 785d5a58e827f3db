// Migration 006: notifications stored with a device's seconds get milliseconds, once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../db/migrations/index';
import { insertDevice, openTestDatabase } from '../telemetry/testing';
import { DIALECTS } from '../test/dialects';

describe.each(DIALECTS)('notification times on upgrade on $name', ({ name: dialect }) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeEach(async () => {
    database = await openTestDatabase(dialect, { upTo: '005_history_rollup' });
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('turns stored seconds into milliseconds and leaves milliseconds and other data alone', async () => {
    const deviceId = await insertDevice(database, '02-4D-50-00-00-61');
    const stored = [
      { timestamp: 1_763_000_000, event: 'OPEN', message: 'COMMAND' },
      { timestamp: 1_763_000_000_123, event: 'OFFLINE' },
      { timestamp: 0, event: 'BOOT' },
      { event: 'NO TIME' },
    ];
    for (const data of stored) {
      await database.db
        .insertInto('notifications')
        .values({ device_id: deviceId, type: 'STATUS', data: JSON.stringify(data), at_ms: 1 })
        .execute();
    }
    // Rows as stored before 006, then upgrade; a second upgrade changes nothing.
    await migrateToLatest(database);
    await migrateToLatest(database);
    const rows = await database.db.selectFrom('notifications').select('data').orderBy('id').execute();
    expect(rows.map((r) => JSON.parse(r.data) as unknown)).toEqual([
      { timestamp: 1_763_000_000_000, event: 'OPEN', message: 'COMMAND' },
      { timestamp: 1_763_000_000_123, event: 'OFFLINE' },
      { timestamp: 0, event: 'BOOT' },
      { event: 'NO TIME' },
    ]);
  });
});
