import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// The columns as this migration created them, frozen: a quantity added later gets its own migration.
/** Minute value columns: avg, min and max of U, I, P, Q, S, DF_U, DF_I per phase, averages of the rest. */
const MINUTE_COLUMNS = [
  'u_l1_avg',
  'u_l1_min',
  'u_l1_max',
  'u_l2_avg',
  'u_l2_min',
  'u_l2_max',
  'u_l3_avg',
  'u_l3_min',
  'u_l3_max',
  'i_l1_avg',
  'i_l1_min',
  'i_l1_max',
  'i_l2_avg',
  'i_l2_min',
  'i_l2_max',
  'i_l3_avg',
  'i_l3_min',
  'i_l3_max',
  'p_l1_avg',
  'p_l1_min',
  'p_l1_max',
  'p_l2_avg',
  'p_l2_min',
  'p_l2_max',
  'p_l3_avg',
  'p_l3_min',
  'p_l3_max',
  'q_l1_avg',
  'q_l1_min',
  'q_l1_max',
  'q_l2_avg',
  'q_l2_min',
  'q_l2_max',
  'q_l3_avg',
  'q_l3_min',
  'q_l3_max',
  's_l1_avg',
  's_l1_min',
  's_l1_max',
  's_l2_avg',
  's_l2_min',
  's_l2_max',
  's_l3_avg',
  's_l3_min',
  's_l3_max',
  'pf_l1_avg',
  'pf_l2_avg',
  'pf_l3_avg',
  'df_u_l1_avg',
  'df_u_l1_min',
  'df_u_l1_max',
  'df_u_l2_avg',
  'df_u_l2_min',
  'df_u_l2_max',
  'df_u_l3_avg',
  'df_u_l3_min',
  'df_u_l3_max',
  'df_i_l1_avg',
  'df_i_l1_min',
  'df_i_l1_max',
  'df_i_l2_avg',
  'df_i_l2_min',
  'df_i_l2_max',
  'df_i_l3_avg',
  'df_i_l3_min',
  'df_i_l3_max',
  'f_u_l1_avg',
  'f_u_l2_avg',
  'f_u_l3_avg',
  'f_i_l1_avg',
  'f_i_l2_avg',
  'f_i_l3_avg',
  'u_pp_l1_avg',
  'u_pp_l2_avg',
  'u_pp_l3_avg',
  'f_upp_l1_avg',
  'f_upp_l2_avg',
  'f_upp_l3_avg',
  'f_avg',
  'f_min',
  'f_max',
] as const;
/**
 * Quarter-hour energy columns: per phase and summed, import, export, reactive by quadrant, apparent.
 * Frozen with this migration; later migrations that rework these tables read them from here.
 */
export const ENERGY_COLUMNS = [
  'e_i_l1_wh',
  'e_i_l2_wh',
  'e_i_l3_wh',
  'e_e_l1_wh',
  'e_e_l2_wh',
  'e_e_l3_wh',
  'q1_l1_varh',
  'q1_l2_varh',
  'q1_l3_varh',
  'q2_l1_varh',
  'q2_l2_varh',
  'q2_l3_varh',
  'q3_l1_varh',
  'q3_l2_varh',
  'q3_l3_varh',
  'q4_l1_varh',
  'q4_l2_varh',
  'q4_l3_varh',
  's_e_l1_vah',
  's_e_l2_vah',
  's_e_l3_vah',
  'e_i_wh',
  'e_e_wh',
  'q1_varh',
  'q2_varh',
  'q3_varh',
  'q4_varh',
  's_e_vah',
] as const;

/**
 * Telemetry: one-minute aggregates, quarter-hour energy, ingest cursors, device state and its
 * transitions, broker credentials. Time series are keyed (device_id, ts_sec) so each device's
 * rows sit together in the primary key; on PostgreSQL the same key suits a TimescaleDB
 * hypertable on ts_sec (docs/architecture.md).
 */
export async function up(db: Kysely<unknown>, { idType, dialect }: MigrationContext): Promise<void> {
  const real = dialect === 'sqlite' ? 'real' : 'double precision';
  let minutes = db.schema
    .createTable('telemetry_minutes')
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('ts_sec', 'bigint', (c) => c.notNull())
    .addColumn('samples', 'integer', (c) => c.notNull());
  for (const col of MINUTE_COLUMNS) minutes = minutes.addColumn(col, real, (c) => c.notNull());
  await minutes.addPrimaryKeyConstraint('telemetry_minutes_pk', ['device_id', 'ts_sec']).execute();

  let quarters = db.schema
    .createTable('energy_quarters')
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('ts_sec', 'bigint', (c) => c.notNull());
  for (const col of ENERGY_COLUMNS)
    quarters = quarters.addColumn(col, 'bigint', (c) => c.notNull().defaultTo(0));
  await quarters.addPrimaryKeyConstraint('energy_quarters_pk', ['device_id', 'ts_sec']).execute();

  await db.schema
    .createTable('telemetry_cursors')
    .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('ts_sec', 'bigint', (c) => c.notNull())
    .addColumn('registers', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('device_states')
    .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('connection', 'varchar(40)')
    .addColumn('fw', 'varchar(40)')
    .addColumn('model', 'varchar(64)')
    .addColumn('changed_at_ms', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('device_status_changes')
    .addColumn('id', idType, (c) =>
      c.primaryKey().$call((b) => (idType === 'integer' ? b.autoIncrement() : b)),
    )
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('at_ms', 'bigint', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('connection', 'varchar(40)')
    .execute();
  await db.schema
    .createIndex('device_status_changes_device_at')
    .on('device_status_changes')
    .columns(['device_id', 'at_ms'])
    .execute();

  await db.schema
    .createTable('device_credentials')
    .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .execute();
}
