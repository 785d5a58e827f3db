import type { Generated } from 'kysely';
import type { LivePhaseQuantity } from '@meterportal/protocol';

type Ph = '_l1' | '_l2' | '_l3';
type MinMaxQuantity = 'u' | 'i' | 'p' | 'q' | 's' | 'df_u' | 'df_i';

/** Value columns of a minute row: avg of every quantity and phase, min/max where charts use them. */
export type MinuteValueColumn =
  | `${Lowercase<LivePhaseQuantity>}${Ph}_avg`
  | `${MinMaxQuantity}${Ph}_${'min' | 'max'}`
  | `f_${'avg' | 'min' | 'max'}`;

/** One-minute aggregates of one device (units as in the live frame; null where it does not measure). */
export type TelemetryMinutesTable = {
  device_id: number;
  /** Minute start, unix seconds UTC. */
  ts_sec: number;
  /** Frames folded into the row. */
  samples: number;
} & Record<MinuteValueColumn, number | null>;

/**
 * The minutes of one device and UTC hour aggregated (migration 009): avg of the averages, min of
 * the minima, max of the maxima, as the history read computes them from the minutes.
 */
export type TelemetryHoursTable = {
  device_id: number;
  /** Hour start, unix seconds UTC. */
  hour_sec: number;
  /** Minute rows in the hour. */
  minutes: number;
  /** Frames folded into those minutes. */
  samples: number;
} & Record<MinuteValueColumn, number | null>;

/** An hour of the rollup to recompute from its minutes once it has ended. */
export interface TelemetryHoursDirtyTable {
  hour_sec: number;
  device_id: number;
}

/**
 * Frequency minutes of one device and UTC quarter-hour (migration 025), kept like the energy
 * quarters so EN 50160's yearly frequency rule outlives the minutes' retention.
 */
export interface FrequencyQuartersTable {
  device_id: number;
  /** Quarter start, unix seconds UTC. */
  quarter_sec: number;
  /** Minute rows in the quarter. */
  minutes: number;
  /** Minutes whose mean frequency is within 50 Hz ± 1 %. */
  within_band: number;
  /** Minutes whose lowest and highest second are within 50 Hz + 4 % / − 6 %. */
  within_always: number;
}

/** Harmonic orders kept per 10-minute interval: those EN 50160's table gives a limit for. */
type HarmonicOrder =
  | 2
  | 3
  | 4
  | 5
  | 6
  | 7
  | 8
  | 9
  | 10
  | 11
  | 12
  | 13
  | 14
  | 15
  | 16
  | 17
  | 18
  | 19
  | 20
  | 21
  | 22
  | 23
  | 24
  | 25;
/** Column of one harmonic order's voltage, % of the fundamental (`h5` is the 5th). */
export type HarmonicColumn = `h${HarmonicOrder}`;

/**
 * An analyzer's polled voltage spectrum of one phase and UTC 10-minute interval (migration 030):
 * each order the rms of the interval's polled values, null where the device sent no such order.
 */
export type HarmonicIntervalsTable = {
  device_id: number;
  /** Interval start, unix seconds UTC (a multiple of 600). */
  interval_sec: number;
  /** 1, 2, 3 for L1, L2, L3. */
  phase: number;
  /** Spectra polled in the interval. */
  samples: number;
} & { [C in HarmonicColumn]: number | null };

/** Energy columns of a quarter-hour row: per phase and summed (no phase suffix). */
export type EnergyColumn =
  `${'e_i' | 'e_e'}${Ph | ''}_wh` | `${'q1' | 'q2' | 'q3' | 'q4'}${Ph | ''}_varh` | `s_e${Ph | ''}_vah`;

/** Quarter-hour energy deltas from the registers of one device. */
export type EnergyQuartersTable = {
  device_id: number;
  /** Quarter start, unix seconds UTC. */
  ts_sec: number;
} & Record<EnergyColumn, number>;

/**
 * Quarter-hour energy summed per local day of the installation's time zone (energy_rollup.tz):
 * each row is exactly the sum of the device's quarter rows of that day, kept so by ingest,
 * backfill and pruning in the same transactions that write the quarters.
 */
export type EnergyDaysTable = {
  device_id: number;
  /** Local midnight of the day, unix seconds UTC (days are 23, 24 or 25 hours long). */
  day_sec: number;
} & Record<EnergyColumn, number>;

/** The time zone the day rollup was built for (one row, id 1). */
export interface EnergyRollupTable {
  id: number;
  tz: string;
}

/** Last register reading taken into account per device: makes ingest idempotent on (device, ts). */
export interface TelemetryCursorsTable {
  device_id: number;
  ts_sec: number;
  /** JSON array of the stored register channels, whole units. */
  registers: string;
  /** Partial sums of the device's open minute (encodeOpenMinute), committed with the position. */
  open_minute: Uint8Array | null;
}

/** Current runtime state of a device, from its state messages. */
export interface DeviceStatesTable {
  device_id: number;
  /** Online status code: 1 online, 0 offline, 2 database update. */
  status: number;
  connection: string | null;
  fw: string | null;
  model: string | null;
  changed_at_ms: number;
  /** How far the meter's clock was off when its frames were last refused, s; null while right. */
  clock_skew_sec: number | null;
}

/** Every online-status transition, for availability charts. */
export interface DeviceStatusChangesTable {
  id: Generated<number>;
  device_id: number;
  at_ms: number;
  status: number;
  connection: string | null;
}

/** Broker credentials of a device; only a hash of the random secret is kept. */
export interface DeviceCredentialsTable {
  device_id: number;
  username: string;
  /** SHA-256 hex of the 256-bit random secret. */
  secret_hash: string;
  created_at_ms: number;
}

/**
 * A month's peak demand as a P1 meter of the Belgian capacity tariff records it (1-0:1.6.0 for
 * the running month, 0-0:98.1.0 for the months before); migration 029.
 */
export interface MeterCapacityPeaksTable {
  device_id: number;
  /** YYYY-MM of the meter's calendar (its zone). */
  month: string;
  /** The month's highest quarter-hour average import power, W. */
  peak_w: number;
  /** When that quarter hour was, as the meter stamps it, unix seconds. */
  peak_at_sec: number;
  /** Time of the telegram the row was taken from, unix seconds. */
  reported_sec: number;
}

/** The running quarter hour's average demand a P1 meter last reported (1-0:1.4.0); migration 029. */
export interface MeterCapacityDemandTable {
  device_id: number;
  average_w: number;
  /** Time of the telegram it came with, unix seconds. */
  reported_sec: number;
}

/** Tables of the device link; use with `database.db.withTables<TelemetryDB>()`. */
export type TelemetryDB = {
  telemetry_minutes: TelemetryMinutesTable;
  telemetry_hours: TelemetryHoursTable;
  telemetry_hours_dirty: TelemetryHoursDirtyTable;
  frequency_quarters: FrequencyQuartersTable;
  harmonic_intervals: HarmonicIntervalsTable;
  energy_quarters: EnergyQuartersTable;
  energy_days: EnergyDaysTable;
  energy_rollup: EnergyRollupTable;
  telemetry_cursors: TelemetryCursorsTable;
  device_states: DeviceStatesTable;
  device_status_changes: DeviceStatusChangesTable;
  device_credentials: DeviceCredentialsTable;
  meter_capacity_peaks: MeterCapacityPeaksTable;
  meter_capacity_demand: MeterCapacityDemandTable;
};
