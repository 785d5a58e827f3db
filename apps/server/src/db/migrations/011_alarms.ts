import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { MigrationContext } from './index';

/** Alarm rules of users on their devices, and the alarms they raised. */
export async function up(db: Kysely<unknown>, { idType, dialect }: MigrationContext): Promise<void> {
  const id = (c: ColumnDefinitionBuilder) =>
    c.primaryKey().$call((b) => (idType === 'integer' ? b.autoIncrement() : b));
  const real = dialect === 'sqlite' ? 'real' : 'double precision';

  await db.schema
    .createTable('alarm_rules')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('lang', 'varchar(2)', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('alarm_rules_device')
    .on('alarm_rules')
    .columns(['device_id', 'user_id'])
    .execute();

  // An alarm outlives its rule: rule_id is kept as it was when the rule is deleted.
  await db.schema
    .createTable('alarms')
    .addColumn('id', idType, id)
    .addColumn('rule_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('name', 'varchar(80)', (c) => c.notNull())
    .addColumn('severity', 'varchar(8)', (c) => c.notNull())
    .addColumn('state', 'varchar(12)', (c) => c.notNull())
    .addColumn('value', real)
    .addColumn('raised_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('acked_at_ms', 'bigint')
    .addColumn('acked_by', 'varchar(64)')
    .addColumn('ack_note', 'varchar(500)')
    .addColumn('cleared_at_ms', 'bigint')
    .execute();
  await db.schema
    .createIndex('alarms_device_raised')
    .on('alarms')
    .columns(['device_id', 'user_id', 'raised_at_ms'])
    .execute();
  await db.schema.createIndex('alarms_rule_state').on('alarms').columns(['rule_id', 'state']).execute();
}
