import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

/**
 * E-mail as a notification destination (the address and the language of its messages on the
 * pair), and which stored notifications each user has read.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('notification_pairs').addColumn('email', 'varchar(254)').execute();
  await db.schema.alterTable('notification_pairs').addColumn('email_language', 'varchar(2)').execute();

  await db.schema
    .createTable('notification_reads')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('notification_id', 'integer', (c) =>
      c.notNull().references('notifications.id').onDelete('cascade'),
    )
    .addColumn('read_at_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_reads_pk', ['user_id', 'notification_id'])
    .execute();
  await db.schema.createIndex('notifications_at_ms').on('notifications').columns(['at_ms']).execute();
}
