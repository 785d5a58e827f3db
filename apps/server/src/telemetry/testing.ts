// Test helpers for telemetry: a fresh store of a dialect (test/dialects.ts), each in its own schema.
import { randomBytes } from 'node:crypto';
import { dropPgSchema, openDatabase, type Database } from '../db/database';
import { migrateToLatest } from '../db/migrations/index';
import type { Logger } from './burst-log';

/** Opens a fresh, migrated database of the dialect; dispose() drops it. */
export async function openTestDatabase(
  dialect: 'sqlite' | 'postgres',
  opts: { upTo?: string } = {},
): Promise<Database & { dispose(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const database = await openDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(database, opts);
    return { ...database, dispose: () => database.close() };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const database = await openDatabase({ url, pgSchema: schema, poolSize: 4 });
  await migrateToLatest(database, opts);
  return {
    ...database,
    dispose: async () => {
      await database.close();
      await dropPgSchema(url, schema);
    },
  };
}

/** A three-phase device row titled by the end of its mac, as tests and benchmarks insert it. */
export function testDeviceRow(mac: string, type: number) {
  return {
    mac,
    type,
    title: mac.slice(-8),
    description: null,
    phase_use: 3,
    lora: 0,
    nilm_process: 0,
    nilm_autolearn: 0,
    fw: null,
    created_at_ms: Date.now(),
  };
}

/** Inserts a device and returns its id. */
export async function insertDevice(database: Database, mac: string, type = 1): Promise<number> {
  const row = await database.db
    .insertInto('devices')
    .values(testDeviceRow(mac, type))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A logger that keeps what it is told. */
export function memoryLogger(): Logger & {
  lines: { level: string; obj: object; msg?: string | undefined }[];
} {
  const lines: { level: string; obj: object; msg?: string | undefined }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Waits until cond holds, checking every 50 ms; fails after timeoutMs. */
export async function until(cond: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
