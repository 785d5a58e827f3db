import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { MigrationContext } from './index';

/**
 * Applied precision: the meter database of each precision device, the meters' images, and the
 * accuracy tests the devices report. A meter's editable fields are kept as one canonical JSON
 * text: the record is always read and written whole, validated by the protocol on every write,
 * and its CRC is computed over the same text.
 */
export async function up(db: Kysely<unknown>, { idType, dialect }: MigrationContext): Promise<void> {
  const id = (c: ColumnDefinitionBuilder) =>
    c.primaryKey().$call((b) => (idType === 'integer' ? b.autoIncrement() : b));

  await db.schema
    .createTable('meters')
    .addColumn('id', idType, id)
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('idn', 'varchar(64)', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('crc', 'varchar(8)', (c) => c.notNull())
    .addColumn('mtime_sec', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('meters_device_idn', ['device_id', 'idn'])
    .execute();

  await db.schema
    .createTable('meter_images')
    .addColumn('id', idType, id)
    .addColumn('meter_id', 'integer', (c) => c.notNull().references('meters.id').onDelete('cascade'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('content_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('bytes', dialect === 'sqlite' ? 'blob' : 'bytea', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('meter_images_meter').on('meter_images').column('meter_id').execute();

  // Tests belong to the device and the meter's IDN, as the device reports them; a redelivered
  // result meets the unique key and is dropped.
  await db.schema
    .createTable('meter_tests')
    .addColumn('id', idType, id)
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('idn', 'varchar(64)', (c) => c.notNull())
    .addColumn('mtime_sec', 'bigint', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('received_at_ms', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('meter_tests_device_idn_mtime', ['device_id', 'idn', 'mtime_sec'])
    .execute();
}
