import { sql, type Kysely, type TableMetadata } from 'kysely';
import type { MigrationContext } from './index';

/**
 * A table of the schema being migrated, as it stands in the database. On PostgreSQL the catalog
 * lists the tables of every schema of the database, and a table of the same name in another
 * schema (another installation's, a copy kept aside) must never lend its columns to this one.
 * Frozen like the migrations that use it.
 */
export async function ownTable(
  db: Kysely<unknown>,
  { dialect }: MigrationContext,
  name: string,
): Promise<TableMetadata | undefined> {
  const tables = await db.introspection.getTables();
  if (dialect === 'sqlite') return tables.find((t) => t.name === name);
  const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db);
  return tables.find((t) => t.name === name && t.schema === rows[0]?.schema);
}
