import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { MigrationContext } from './index';

/**
 * Integration tokens: read-only bearer tokens a user makes for other programs, stored as the
 * SHA-256 of their secret, for all the user's devices or for the devices listed beside them.
 */
export async function up(db: Kysely<unknown>, { idType }: MigrationContext): Promise<void> {
  const id = (c: ColumnDefinitionBuilder) =>
    c.primaryKey().$call((b) => (idType === 'integer' ? b.autoIncrement() : b));

  await db.schema
    .createTable('integration_tokens')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(60)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('all_devices', 'integer', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('expires_at_sec', 'bigint')
    .addColumn('last_used_at_ms', 'bigint')
    .execute();
  await db.schema
    .createIndex('integration_tokens_user')
    .on('integration_tokens')
    .columns(['user_id', 'id'])
    .execute();

  await db.schema
    .createTable('integration_token_devices')
    .addColumn('token_id', 'integer', (c) =>
      c.notNull().references('integration_tokens.id').onDelete('cascade'),
    )
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('integration_token_devices_pk', ['token_id', 'device_id'])
    .execute();
}
