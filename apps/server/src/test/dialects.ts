// The database engines every database test runs on: one list for the whole suite.

/** A database engine the suite runs against. */
export interface DialectCase {
  name: 'sqlite' | 'postgres';
  url: string | undefined;
}

const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl) {
  const msg = 'TEST_DATABASE_URL is not set: database tests run on SQLite only, PostgreSQL is NOT tested';
  if (process.env.CI) throw new Error(msg);
  console.warn(`\n!!! ${msg}\n`);
}

/** SQLite always; PostgreSQL when TEST_DATABASE_URL is set (CI sets it). */
export const DIALECTS: DialectCase[] = [
  { name: 'sqlite', url: undefined },
  ...(pgUrl ? [{ name: 'postgres' as const, url: pgUrl }] : []),
];
