// Fast multi-row writes for the wide telemetry tables. The query builder costs more than the
// database for rows of 30 to 90 columns, so these statements are built once from the column
// lists (constants, never input) and bound per call: PostgreSQL takes one array per column
// through unnest, SQLite a multi-row VALUES list under its bound-variable limit.
import { CompiledQuery, type QueryResult } from 'kysely';
import type { Dialect } from '../db/database';

/** Column type for PostgreSQL's unnest arrays. */
export type BulkColumnType = 'int' | 'bigint' | 'float8';

/** One wide table write. */
export interface BulkSpec {
  table: string;
  columns: readonly string[];
  types: readonly BulkColumnType[];
  /** Conflict clause text, e.g. `ON CONFLICT (device_id, ts_sec) DO NOTHING`. */
  onConflict: string;
  /** RETURNING clause text, e.g. `RETURNING device_id, ts_sec`; its rows are returned. */
  returning?: string;
}

const SQLITE_MAX_PARAMS = 30_000;

/** Anything that runs a compiled query: a Kysely instance or a transaction. */
export interface QueryRunner {
  executeQuery(query: CompiledQuery): Promise<QueryResult<unknown>>;
}

/**
 * Largest chunk: a kept statement holds its compiled program, which grows with its bound values,
 * so statements stay at 256 rows (about 1 MB for a minute row's 83 values) rather than the
 * thousands of rows the bound-variable limit would allow.
 */
const MAX_CHUNK_ROWS = 256;

/**
 * Rows cut into chunks of at most `max` (and 256) rows whose sizes are powers of 4, largest first:
 * a write of any length uses only a few distinct statement texts, each prepared once and kept.
 */
export function fixedChunks<T>(rows: readonly T[], max: number): T[][] {
  const out: T[][] = [];
  let size = 1;
  while (size * 4 <= Math.min(max, MAX_CHUNK_ROWS)) size *= 4;
  for (let i = 0; i < rows.length; i += size) {
    while (size > 1 && rows.length - i < size) size /= 4;
    out.push(rows.slice(i, i + size));
  }
  return out;
}

/** A value of a row: null is written as SQL NULL (a quantity the device does not measure). */
const cell = (r: readonly (number | null)[], c: number): number | null => {
  const v = r[c];
  return v === undefined ? 0 : v;
};

/**
 * Writes rows (values in spec.columns order) with as few statements as the engine allows;
 * returns what spec.returning selects (nothing without it).
 */
export async function bulkInsert(
  db: QueryRunner,
  dialect: Dialect,
  spec: BulkSpec,
  rows: readonly (readonly (number | null)[])[],
): Promise<unknown[]> {
  const out: unknown[] = [];
  if (rows.length === 0) return out;
  const cols = spec.columns.join(', ');
  const returning = spec.returning ? ` ${spec.returning}` : '';
  if (dialect === 'postgres') {
    const arrays = spec.columns.map((_, c) => rows.map((r) => cell(r, c)));
    const unnest = spec.types.map((t, i) => `$${i + 1}::${t}[]`).join(', ');
    const text = `INSERT INTO ${spec.table} (${cols}) SELECT * FROM unnest(${unnest}) ${spec.onConflict}${returning}`;
    const r = await db.executeQuery(CompiledQuery.raw(text, arrays));
    return spec.returning ? r.rows : out;
  }
  const per = Math.max(1, Math.floor(SQLITE_MAX_PARAMS / spec.columns.length));
  const tuple = `(${spec.columns.map(() => '?').join(',')})`;
  for (const part of fixedChunks(rows, per)) {
    const text = `INSERT INTO ${spec.table} (${cols}) VALUES ${new Array<string>(part.length).fill(tuple).join(',')} ${spec.onConflict}${returning}`;
    const params: (number | null)[] = [];
    for (const r of part) for (let c = 0; c < spec.columns.length; c++) params.push(cell(r, c));
    const r = await db.executeQuery(CompiledQuery.raw(text, params));
    if (spec.returning) for (const row of r.rows) out.push(row);
  }
  return out;
}
