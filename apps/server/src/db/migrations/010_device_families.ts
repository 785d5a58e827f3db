import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

/**
 * Device families: how a device speaks MQTT. `portal` (the portal's own topics under `meters/`,
 * every device so far), `shelly` (Shelly Gen2 status topics under a prefix), `tasmota`
 * (`tele/<topic>/…`) and `p1` (DSMR/P1 telegrams on `p1/<topic>`). A family device keeps its
 * topic or prefix, unique within its family, and the time zone its clock runs in when it is not
 * the installation's (null: the installation's).
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('devices')
    .addColumn('family', 'text', (c) => c.notNull().defaultTo('portal'))
    .execute();
  await db.schema.alterTable('devices').addColumn('family_topic', 'text').execute();
  await db.schema.alterTable('devices').addColumn('family_tz', 'text').execute();
  await db.schema
    .createIndex('devices_family_topic_uq')
    .on('devices')
    .columns(['family', 'family_topic'])
    .unique()
    .execute();
}
