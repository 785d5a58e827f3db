import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

/**
 * Generic JSON meters (family `json`, one JSON object per message on `json/<topic>`): the device
 * keeps its mapping, which JSON paths carry which quantities, as JSON text; null for the other
 * families.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('devices').addColumn('family_mapping', 'text').execute();
}
