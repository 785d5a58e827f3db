import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { MigrationContext } from './index';

/** Stored device notifications, notification pairs, and the Webex delivery outbox. */
export async function up(db: Kysely<unknown>, { idType }: MigrationContext): Promise<void> {
  const id = (c: ColumnDefinitionBuilder) =>
    c.primaryKey().$call((b) => (idType === 'integer' ? b.autoIncrement() : b));

  await db.schema
    .createTable('notifications')
    .addColumn('id', idType, id)
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notifications_device_id')
    .on('notifications')
    .columns(['device_id', 'id'])
    .execute();

  await db.schema
    .createTable('notification_pairs')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('notify_type', 'integer', (c) => c.notNull())
    .addColumn('dest_type', 'integer', (c) => c.notNull())
    .addColumn('webex_space', 'varchar(200)')
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notification_pairs_device')
    .on('notification_pairs')
    .columns(['device_id', 'notify_type'])
    .execute();

  await db.schema
    .createTable('notification_deliveries')
    .addColumn('id', idType, id)
    .addColumn('pair_id', 'integer', (c) =>
      c.notNull().references('notification_pairs.id').onDelete('cascade'),
    )
    .addColumn('notification_id', 'integer', (c) =>
      c.notNull().references('notifications.id').onDelete('cascade'),
    )
    .addColumn('state', 'varchar(8)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'varchar(300)')
    .addColumn('sent_at_ms', 'bigint')
    .execute();
  await db.schema
    .createIndex('notification_deliveries_due')
    .on('notification_deliveries')
    .columns(['state', 'next_at_ms'])
    .execute();
}
