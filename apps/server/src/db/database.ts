import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import type { DB } from './schema';

/** Which SQL engine a database runs on. */
export type Dialect = 'sqlite' | 'postgres';

/** The database handle passed to every repository. */
export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** PostgreSQL schema the tables live in, when not the default one. */
  schema?: string | undefined;
  /**
   * The driver under the query builder, for the few reads too large for row objects (a day of
   * minute profiles): they ask the driver for rows as arrays.
   */
  native?: { sqlite: SQLite.Database } | { pool: pg.Pool } | undefined;
  close(): Promise<void>;
}

// BIGINT columns hold millisecond timestamps and watt-hours; they fit in a double exactly.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

/** Options for opening a database. */
export interface OpenOptions {
  /** postgres:// URL; when absent SQLite is used. */
  url?: string | undefined;
  /** SQLite file; ':memory:' for a throwaway database. */
  sqliteFile?: string;
  /** PostgreSQL schema to use (created when missing); tests use one each. */
  pgSchema?: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
}

/** Opens SQLite (WAL) or PostgreSQL. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.url) {
    const schema = opts.pgSchema;
    if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
    if (schema) {
      const c = new pg.Client({ connectionString: opts.url });
      await c.connect();
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await c.end();
    }
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    // A connection ended by the server (restart, failover, an administrator) is dropped from the
    // pool and the next query opens another; unhandled, the idle client's error would end the process.
    pool.on('error', () => undefined);
    // The same for a connection in use between two statements: the statement fails, not the process.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', schema, native: { pool }, close: () => db.destroy() };
  }
  const file = opts.sqliteFile ?? ':memory:';
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: keepingStatements(sqlite) }) });
  return { db, dialect: 'sqlite', native: { sqlite }, close: () => db.destroy() };
}

/**
 * better-sqlite3 for Kysely with its prepared statements kept, the most recently used first:
 * ingest runs the same few statements tens of thousands of times a minute, and preparing a
 * multi-row insert costs as much as running it. (Kysely prepares every query it runs.)
 */
function keepingStatements(sqlite: SQLite.Database, size = 256): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let st = kept.get(text);
      if (st) kept.delete(text);
      else st = sqlite.prepare(text);
      kept.set(text, st);
      if (kept.size > size) kept.delete(kept.keys().next().value!);
      return st;
    },
  };
}

/** Drops a PostgreSQL schema and everything in it (test clean-up). */
export async function dropPgSchema(url: string, schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await c.end();
}

/** Runs fn in a transaction. */
export function inTransaction<T>(database: Database, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return database.db.transaction().execute(fn);
}

export { sql };
