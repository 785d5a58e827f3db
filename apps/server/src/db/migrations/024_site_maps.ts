import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { MigrationContext } from './index';

/**
 * Site maps: a user's floor or site plans (the image kept in the store like meter images) and the
 * devices pinned on them, each at a position given as fractions of the image's width and height.
 */
export async function up(db: Kysely<unknown>, { idType, dialect }: MigrationContext): Promise<void> {
  const id = (c: ColumnDefinitionBuilder) =>
    c.primaryKey().$call((b) => (idType === 'integer' ? b.autoIncrement() : b));
  const real = dialect === 'sqlite' ? 'real' : 'double precision';

  await db.schema
    .createTable('site_maps')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(60)', (c) => c.notNull())
    .addColumn('content_type', 'varchar(20)', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('bytes', dialect === 'sqlite' ? 'blob' : 'bytea', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_maps_user').on('site_maps').column('user_id').execute();

  await db.schema
    .createTable('site_map_pins')
    .addColumn('map_id', 'integer', (c) => c.notNull().references('site_maps.id').onDelete('cascade'))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('group_name', 'varchar(60)', (c) => c.notNull())
    .addColumn('x', real, (c) => c.notNull())
    .addColumn('y', real, (c) => c.notNull())
    .addPrimaryKeyConstraint('site_map_pins_pk', ['map_id', 'device_id'])
    .execute();
}
