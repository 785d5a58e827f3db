import type { Generated } from 'kysely';

/** A user's report schedule. */
export interface ReportSchedulesTable {
  id: Generated<number>;
  user_id: number;
  /** The reported device; null for a folder's schedule. */
  device_id: number | null;
  /** A folder's path of names as a JSON array; null for a device's schedule. */
  folder: string | null;
  /** ENERGY_COST, PEAKS, AVAILABILITY or POWER_QUALITY. */
  kind: string;
  /** MONTHLY or WEEKLY. */
  every: string;
  /** EMAIL or KEEP. */
  delivery: string;
  email: string | null;
  /** en, sk or de. */
  language: string;
  created_at_ms: number;
}

/** One period a schedule ran for; the key keeps a period from being reported twice. */
export interface ReportRunsTable {
  schedule_id: number;
  /** Start of the reported period, unix seconds. */
  period_sec: number;
  /** RUNNING, DONE, FAILED or GONE (the device is no longer the user's, the folder not in their tree). */
  state: string;
  attempts: number;
  error: string | null;
  updated_at_ms: number;
}

/** A report kept for download. */
export interface ReportFilesTable {
  id: Generated<number>;
  user_id: number;
  /** The reported device; null for a folder's report. */
  device_id: number | null;
  /** A folder's path of names as a JSON array; null for a device's report. */
  folder: string | null;
  kind: string;
  language: string;
  from_sec: number;
  to_sec: number;
  created_at_ms: number;
  pdf: Buffer;
}

/** Tables of reports; use with `database.db.withTables<ReportsDB>()`. */
export type ReportsDB = {
  report_schedules: ReportSchedulesTable;
  report_runs: ReportRunsTable;
  report_files: ReportFilesTable;
};
