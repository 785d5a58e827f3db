import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

/** Users, devices, assignments, sessions, hierarchy, device details, throttling, secrets. */
export async function up(db: Kysely<unknown>, { idType }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', idType, (c) =>
      c.primaryKey().$call((b) => (idType === 'integer' ? b.autoIncrement() : b)),
    )
    .addColumn('login', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('auth_type', 'integer', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(200)')
    .addColumn('issuer', 'varchar(300)')
    .addColumn('subject', 'varchar(300)')
    .addColumn('user_name', 'varchar(200)')
    .addColumn('avatar', 'varchar(1000)')
    .addColumn('applications', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('users_issuer_subject', ['issuer', 'subject'])
    .execute();

  await db.schema
    .createTable('devices')
    .addColumn('id', idType, (c) =>
      c.primaryKey().$call((b) => (idType === 'integer' ? b.autoIncrement() : b)),
    )
    .addColumn('mac', 'varchar(40)', (c) => c.notNull().unique())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('title', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'varchar(8)')
    .addColumn('phase_use', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('lora', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('nilm_process', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('nilm_autolearn', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('fw', 'varchar(40)')
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('assignments')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('owner', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('life_time_sec', 'bigint', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('assignments_pk', ['user_id', 'device_id'])
    .execute();
  await db.schema.createIndex('assignments_device').on('assignments').column('device_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('auth_type', 'integer', (c) => c.notNull())
    .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('hierarchies')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('menu', 'text', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('device_details')
    .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('mrk_w', 'bigint', (c) => c.notNull())
    .addColumn('rk_w', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('id', idType, (c) =>
      c.primaryKey().$call((b) => (idType === 'integer' ? b.autoIncrement() : b)),
    )
    .addColumn('key', 'varchar(200)', (c) => c.notNull())
    .addColumn('at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_failures_key_at')
    .on('login_failures')
    .columns(['key', 'at_ms'])
    .execute();

  await db.schema
    .createTable('secrets')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
