// Writes that pick their rows by key columns and answer whether any row was there: the common
// shape of a repository's "remove this one" and "rename this one".
import type { Kysely, Selectable, Updateable } from 'kysely';

/** Column values that pick the rows of table `T` of database `D`, each compared for equality. */
export type KeyMatch<D, T extends keyof D> = Partial<Selectable<D[T]>>;

/**
 * The same handle without the table types: the query builder cannot check a table that is only a
 * type parameter, and the public signatures check the columns instead.
 */
type Untyped = Kysely<Record<string, Record<string, unknown>>>;

/** Deletes the rows of `table` whose columns equal `match`; answers whether there were any. */
export async function deleteMatching<D, T extends keyof D & string>(
  db: Kysely<D>,
  table: T,
  match: KeyMatch<D, T>,
): Promise<boolean> {
  const r = await (db as unknown as Untyped)
    .deleteFrom(table as string)
    .where((eb) => eb.and(match))
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Sets `values` on the rows of `table` whose columns equal `match`; answers whether there were any. */
export async function updateMatching<D, T extends keyof D & string>(
  db: Kysely<D>,
  table: T,
  values: Updateable<D[T]>,
  match: KeyMatch<D, T>,
): Promise<boolean> {
  const r = await (db as unknown as Untyped)
    .updateTable(table as string)
    .set(values)
    .where((eb) => eb.and(match))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
