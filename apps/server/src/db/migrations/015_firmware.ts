import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { MigrationContext } from './index';

/**
 * Device management: the switchings of disconnector relays (by a user or reported by the device),
 * the firmware versions registered per device type with their optional image, and every firmware
 * upgrade of a device with its progress and the versions before and after.
 */
export async function up(db: Kysely<unknown>, { idType, dialect }: MigrationContext): Promise<void> {
  const id = (c: ColumnDefinitionBuilder) =>
    c.primaryKey().$call((b) => (idType === 'integer' ? b.autoIncrement() : b));

  await db.schema
    .createTable('relay_switchings')
    .addColumn('id', idType, id)
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('state', 'varchar(8)', (c) => c.notNull())
    .addColumn('cause', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('relay_switchings_device_at')
    .on('relay_switchings')
    .columns(['device_id', 'at_ms'])
    .execute();

  await db.schema
    .createTable('firmware_versions')
    .addColumn('id', idType, id)
    .addColumn('device_type', 'integer', (c) => c.notNull())
    .addColumn('version', 'varchar(40)', (c) => c.notNull())
    .addColumn('image_name', 'varchar(200)')
    .addColumn('size_bytes', 'integer')
    .addColumn('sha256', 'varchar(64)')
    .addColumn('image', dialect === 'sqlite' ? 'blob' : 'bytea')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('firmware_versions_type_version', ['device_type', 'version'])
    .execute();

  await db.schema
    .createTable('firmware_upgrades')
    .addColumn('id', idType, id)
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('from_fw', 'varchar(40)')
    .addColumn('to_fw', 'varchar(40)', (c) => c.notNull())
    .addColumn('fw_after', 'varchar(40)')
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull())
    .addColumn('started_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('finished_at_ms', 'bigint')
    .execute();
  await db.schema
    .createIndex('firmware_upgrades_device_started')
    .on('firmware_upgrades')
    .columns(['device_id', 'started_at_ms'])
    .execute();
}
