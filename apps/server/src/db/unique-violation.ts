/**
 * True when a statement failed because a row with the same unique key already exists (SQLite's
 * UNIQUE or PRIMARY KEY constraint, PostgreSQL's unique_violation). Two requests that both checked
 * "not there yet" and then inserted meet here: the later one lost the race.
 */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null || !('code' in err)) return false;
  const code = err.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
