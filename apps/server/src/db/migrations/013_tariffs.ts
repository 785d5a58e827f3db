import type { Kysely } from 'kysely';

/**
 * Tariff versions per device: each valid from the local midnight of valid_from (YYYY-MM-DD) until
 * the next version of the device. The tariff itself (bands, prices, fees, VAT, holidays) is the
 * JSON text of the protocol's Tariff, with prices as exact decimals checked on the way in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tariffs')
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('valid_from', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('tariffs_pk', ['device_id', 'valid_from'])
    .execute();
}
