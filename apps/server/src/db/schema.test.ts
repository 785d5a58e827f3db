// The migrated schema must be the one the code's schema types describe: every table and column of
// DB and TelemetryDB, with its storage kind and nullability, on SQLite and PostgreSQL alike. The
// expected shape below is checked against the types by the compiler (a column added to a type
// and not here, or here with another nullability, does not compile) and against the migrated
// database by catalog introspection here, so a migration and the types cannot drift apart.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type SelectType } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DB } from './schema';
import type { EnergyColumn, HarmonicColumn, MinuteValueColumn, TelemetryDB } from './schema.telemetry';
import type { ReportsDB } from '../reports/reports.schema';
import { ENERGY_COLUMNS, MINUTE_COLUMNS } from '../telemetry/columns';
import { DIALECTS } from '../test/harness';
import { openTestDatabase } from '../telemetry/testing';
import { retryCatalogRace } from './migrations/index';

/** Storage kinds: 32-bit and 64-bit integers, float, text, bytes. */
type Kind = 'int' | 'bigint' | 'real' | 'text' | 'blob';
type KindOf<V> = V extends number
  ? 'int' | 'bigint' | 'real'
  : V extends string
    ? 'text'
    : V extends Uint8Array
      ? 'blob'
      : never;
/** One column's expected kind and nullability, constrained by its type. */
type Col<V> = {
  kind: KindOf<NonNullable<SelectType<V>>>;
  nullable: null extends SelectType<V> ? true : false;
};
type Shape<S> = { [T in keyof S]-?: { [C in keyof S[T]]-?: Col<S[T][C]> } };

const INT = { kind: 'int', nullable: false } as const;
const INT_NULL = { kind: 'int', nullable: true } as const;
const BIG = { kind: 'bigint', nullable: false } as const;
const BIG_NULL = { kind: 'bigint', nullable: true } as const;
const REAL = { kind: 'real', nullable: false } as const;
const REAL_NULL = { kind: 'real', nullable: true } as const;
const TEXT = { kind: 'text', nullable: false } as const;
const TEXT_NULL = { kind: 'text', nullable: true } as const;
const BLOB = { kind: 'blob', nullable: false } as const;
const BLOB_NULL = { kind: 'blob', nullable: true } as const;

const energy = Object.fromEntries(ENERGY_COLUMNS.map((c) => [c, BIG])) as Record<EnergyColumn, typeof BIG>;
const minutes = Object.fromEntries(MINUTE_COLUMNS.map((c) => [c, REAL_NULL])) as Record<
  MinuteValueColumn,
  typeof REAL_NULL
>;

const harmonics = Object.fromEntries(
  Array.from({ length: 24 }, (_, i) => [`h${i + 2}`, REAL_NULL]),
) as Record<HarmonicColumn, typeof REAL_NULL>;

const EXPECTED: Shape<DB & TelemetryDB & ReportsDB> = {
  users: {
    id: INT,
    login: TEXT,
    login_key: TEXT_NULL,
    auth_type: INT,
    password_hash: TEXT_NULL,
    issuer: TEXT_NULL,
    subject: TEXT_NULL,
    user_name: TEXT_NULL,
    avatar: TEXT_NULL,
    applications: TEXT,
    created_at_ms: BIG,
  },
  devices: {
    id: INT,
    mac: TEXT,
    type: INT,
    title: TEXT,
    description: TEXT_NULL,
    phase_use: INT,
    lora: INT,
    nilm_process: INT,
    nilm_autolearn: INT,
    fw: TEXT_NULL,
    created_at_ms: BIG,
    family: TEXT,
    family_topic: TEXT_NULL,
    family_tz: TEXT_NULL,
    family_mapping: TEXT_NULL,
  },
  assignments: { user_id: INT, device_id: INT, owner: INT, life_time_sec: BIG, created_at_ms: BIG },
  sessions: { token_hash: TEXT, user_id: INT, auth_type: INT, expires_at_ms: BIG, created_at_ms: BIG },
  hierarchies: { user_id: INT, menu: TEXT, updated_at_ms: BIG },
  device_details: { device_id: INT, mrk_w: BIG, rk_w: BIG, updated_at_ms: BIG },
  tariffs: { device_id: INT, valid_from: TEXT, body: TEXT, updated_at_ms: BIG },
  login_failures: { id: INT, key: TEXT, at_ms: BIG },
  secrets: { name: TEXT, value: TEXT },
  notifications: { id: INT, device_id: INT, type: TEXT, data: TEXT, at_ms: BIG },
  notification_pairs: {
    id: INT,
    user_id: INT,
    device_id: INT,
    notify_type: INT,
    dest_type: INT,
    webex_space: TEXT_NULL,
    created_at_ms: BIG,
    email: TEXT_NULL,
    email_language: TEXT_NULL,
  },
  notification_reads: { user_id: INT, notification_id: INT, read_at_ms: BIG },
  notification_deliveries: {
    id: INT,
    pair_id: INT,
    notification_id: INT,
    state: TEXT,
    attempts: INT,
    next_at_ms: BIG,
    last_error: TEXT_NULL,
    sent_at_ms: BIG_NULL,
  },
  meters: { id: INT, device_id: INT, idn: TEXT, fields: TEXT, crc: TEXT, mtime_sec: BIG },
  meter_images: {
    id: INT,
    meter_id: INT,
    name: TEXT,
    content_type: TEXT,
    size_bytes: INT,
    bytes: BLOB,
    created_at_ms: BIG,
  },
  meter_tests: { id: INT, device_id: INT, idn: TEXT, mtime_sec: BIG, result: TEXT, received_at_ms: BIG },
  integration_tokens: {
    id: INT,
    user_id: INT,
    name: TEXT,
    token_hash: TEXT,
    all_devices: INT,
    created_at_ms: BIG,
    expires_at_sec: BIG_NULL,
    last_used_at_ms: BIG_NULL,
  },
  integration_token_devices: { token_id: INT, device_id: INT },
  alarm_rules: {
    id: INT,
    user_id: INT,
    device_id: INT,
    definition: TEXT,
    lang: TEXT,
    created_at_ms: BIG,
    updated_at_ms: BIG,
  },
  alarms: {
    id: INT,
    rule_id: INT,
    user_id: INT,
    device_id: INT,
    name: TEXT,
    severity: TEXT,
    state: TEXT,
    value: { kind: 'real', nullable: true },
    raised_at_ms: BIG,
    acked_at_ms: BIG_NULL,
    acked_by: TEXT_NULL,
    ack_note: TEXT_NULL,
    cleared_at_ms: BIG_NULL,
  },
  relay_switchings: { id: INT, device_id: INT, state: TEXT, cause: TEXT, user_id: INT_NULL, at_ms: BIG },
  firmware_versions: {
    id: INT,
    device_type: INT,
    version: TEXT,
    image_name: TEXT_NULL,
    size_bytes: INT_NULL,
    sha256: TEXT_NULL,
    image: BLOB_NULL,
    created_by: INT_NULL,
    created_at_ms: BIG,
  },
  firmware_upgrades: {
    id: INT,
    device_id: INT,
    user_id: INT_NULL,
    from_fw: TEXT_NULL,
    to_fw: TEXT,
    fw_after: TEXT_NULL,
    state: TEXT,
    progress: INT,
    started_at_ms: BIG,
    updated_at_ms: BIG,
    finished_at_ms: BIG_NULL,
  },
  nilm_appliances: {
    id: INT,
    device_id: INT,
    name: TEXT,
    phase: TEXT_NULL,
    origin: TEXT,
    imprint: TEXT_NULL,
    created_at_ms: BIG,
  },
  anomaly_models: {
    device_id: INT,
    weeks: INT,
    hours_in_row: INT,
    from_sec: BIG,
    to_sec: BIG,
    hours_used: INT,
    trained_at_ms: BIG,
    scheduled: INT,
    slots: TEXT,
    checked_to_sec: BIG,
    run_state: TEXT,
    open_anomaly_id: INT_NULL,
  },
  anomalies: {
    id: INT,
    device_id: INT,
    start_sec: BIG,
    end_sec: BIG_NULL,
    hours: INT,
    direction: TEXT,
    expected_low_wh: REAL,
    expected_high_wh: REAL,
    seen_wh: REAL,
  },
  site_maps: {
    id: INT,
    user_id: INT,
    name: TEXT,
    content_type: TEXT,
    size_bytes: INT,
    bytes: BLOB,
    created_at_ms: BIG,
  },
  site_map_pins: { map_id: INT, device_id: INT, group_name: TEXT, x: REAL, y: REAL },
  report_schedules: {
    id: INT,
    user_id: INT,
    device_id: INT_NULL,
    folder: TEXT_NULL,
    kind: TEXT,
    every: TEXT,
    delivery: TEXT,
    email: TEXT_NULL,
    language: TEXT,
    created_at_ms: BIG,
  },
  report_runs: {
    schedule_id: INT,
    period_sec: BIG,
    state: TEXT,
    attempts: INT,
    error: TEXT_NULL,
    updated_at_ms: BIG,
  },
  report_files: {
    id: INT,
    user_id: INT,
    device_id: INT_NULL,
    folder: TEXT_NULL,
    kind: TEXT,
    language: TEXT,
    from_sec: BIG,
    to_sec: BIG,
    created_at_ms: BIG,
    pdf: BLOB,
  },
  telemetry_minutes: { device_id: INT, ts_sec: BIG, samples: INT, ...minutes },
  telemetry_hours: { device_id: INT, hour_sec: BIG, minutes: INT, samples: INT, ...minutes },
  telemetry_hours_dirty: { hour_sec: BIG, device_id: INT },
  frequency_quarters: {
    device_id: INT,
    quarter_sec: BIG,
    minutes: INT,
    within_band: INT,
    within_always: INT,
  },
  harmonic_intervals: { device_id: INT, interval_sec: BIG, phase: INT, samples: INT, ...harmonics },
  energy_quarters: { device_id: INT, ts_sec: BIG, ...energy },
  energy_days: { device_id: INT, day_sec: BIG, ...energy },
  energy_rollup: { id: INT, tz: TEXT },
  telemetry_cursors: { device_id: INT, ts_sec: BIG, registers: TEXT, open_minute: BLOB_NULL },
  device_states: {
    device_id: INT,
    status: INT,
    connection: TEXT_NULL,
    fw: TEXT_NULL,
    model: TEXT_NULL,
    changed_at_ms: BIG,
    clock_skew_sec: INT_NULL,
  },
  device_status_changes: { id: INT, device_id: INT, at_ms: BIG, status: INT, connection: TEXT_NULL },
  device_credentials: { device_id: INT, username: TEXT, secret_hash: TEXT, created_at_ms: BIG },
  meter_capacity_peaks: { device_id: INT, month: TEXT, peak_w: BIG, peak_at_sec: BIG, reported_sec: BIG },
  meter_capacity_demand: { device_id: INT, average_w: BIG, reported_sec: BIG },
};

/** The storage kind of a declared (SQLite) or catalog (PostgreSQL) type name. */
function kindOf(dataType: string): Kind {
  const t = dataType.toLowerCase();
  if (t === 'integer' || t === 'int4') return 'int';
  if (t === 'bigint' || t === 'int8') return 'bigint';
  if (t === 'real' || t === 'float8' || t === 'double precision') return 'real';
  if (t === 'text' || t === 'varchar' || t.startsWith('varchar(')) return 'text';
  if (t === 'blob' || t === 'bytea') return 'blob';
  throw new Error(`unknown column type ${dataType}`);
}

type Found = Record<string, Record<string, { kind: Kind; nullable: boolean }>>;

describe.each(DIALECTS)('migrated schema against the schema types on $name', (dialect) => {
  let found: Found;
  beforeAll(async () => {
    const database = await openTestDatabase(dialect.name);
    try {
      found = {};
      // Another suite's migration on the same server can change the catalog during the look-up.
      const tables = await retryCatalogRace(() => database.db.introspection.getTables());
      for (const t of tables) {
        if (dialect.name === 'postgres' && t.schema !== database.schema) continue;
        // SQLite reports a primary key column as nullable unless declared NOT NULL; an INTEGER key
        // is the rowid and never NULL, and the code never writes NULL into another key.
        const keys =
          dialect.name === 'sqlite'
            ? new Set(
                (
                  await sql<{
                    name: string;
                    pk: number;
                  }>`SELECT name, pk FROM pragma_table_info(${t.name})`.execute(database.db)
                ).rows
                  .filter((c) => c.pk > 0)
                  .map((c) => c.name),
              )
            : new Set<string>();
        found[t.name] = Object.fromEntries(
          t.columns.map((c) => [
            c.name,
            { kind: kindOf(c.dataType), nullable: c.isNullable && !keys.has(c.name) },
          ]),
        );
      }
    } finally {
      await database.dispose();
    }
  });

  it('has exactly the tables of the types', () => {
    expect(Object.keys(found).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.keys(EXPECTED))('%s has exactly the columns, kinds and nullability of its type', (table) => {
    const expected = EXPECTED[table as keyof typeof EXPECTED] as Record<
      string,
      { kind: Kind; nullable: boolean }
    >;
    const sorted = (o: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
    expect(sorted(found[table] ?? {})).toEqual(sorted(expected));
  });
});

describe('migrations', () => {
  it('import nothing that can change later: only kysely, the migration runner types and earlier migrations', () => {
    const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
    const migrations = fs.readdirSync(dir).filter((f) => /^\d{3}_.*\.ts$/.test(f) && !f.endsWith('.test.ts'));
    expect(migrations.length).toBeGreaterThanOrEqual(8);
    for (const f of migrations) {
      const imports = [
        ...fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/^import .* from '([^']+)';$/gm),
      ].map((m) => m[1]);
      for (const from of imports) {
        // An earlier migration is frozen as well, and held to this same rule.
        const earlier = /^\.\/(\d{3})_\w+$/.exec(from ?? '');
        if (earlier) {
          expect(migrations, `${f} imports ${from}`).toContain(`${from!.slice(2)}.ts`);
          expect(Number(earlier[1]), `${f} imports ${from}`).toBeLessThan(Number(f.slice(0, 3)));
        } else expect(['kysely', './index'], `${f} imports ${from}`).toContain(from);
      }
    }
  });
});
