import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { MigrationContext } from './index';

/**
 * Appliances of household meters (NILM): each appliance a meter knows by name, on which phase,
 * whether a user taught it or the meter learned it on its own, and the taught imprint (its power
 * edges as JSON, null when there is none).
 */
export async function up(db: Kysely<unknown>, { idType }: MigrationContext): Promise<void> {
  const id = (c: ColumnDefinitionBuilder) =>
    c.primaryKey().$call((b) => (idType === 'integer' ? b.autoIncrement() : b));

  await db.schema
    .createTable('nilm_appliances')
    .addColumn('id', idType, id)
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('phase', 'varchar(2)')
    .addColumn('origin', 'varchar(8)', (c) => c.notNull())
    .addColumn('imprint', 'text')
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('nilm_appliances_device_name', ['device_id', 'name'])
    .execute();
}
