import { z } from 'zod';
import { DeviceTokenString, okWith } from './common';
import { EmailAddress, MESSAGE_LANGUAGES } from './notifications';
import { HIERARCHY_MAX_DEPTH, HIERARCHY_NAME_MAX } from './constants';

/**
 * Kinds of PDF report: energy and cost, max-demand and capacity, availability, and the EN 50160
 * power quality of an analyzer (type 3) for each week ending in the period.
 */
export const REPORT_KINDS = ['ENERGY_COST', 'PEAKS', 'AVAILABILITY', 'POWER_QUALITY'] as const;
/** A kind of PDF report. */
export type ReportKind = (typeof REPORT_KINDS)[number];
/**
 * Kinds of a folder's report: each device's energy and cost, maximum demand or availability, or
 * each analyzer's EN 50160 weeks, listed with the folder's totals.
 */
export const FOLDER_REPORT_KINDS = ['ENERGY_COST', 'PEAKS', 'AVAILABILITY', 'POWER_QUALITY'] as const;
/** A kind of folder report. */
export type FolderReportKind = (typeof FOLDER_REPORT_KINDS)[number];
/** A folder report's kind; energy and cost when left out. */
const FolderKind = z.enum(FOLDER_REPORT_KINDS).default('ENERGY_COST');
/** How often a schedule makes its report: on the 1st of each month, or each Monday. */
export const REPORT_EVERY = ['MONTHLY', 'WEEKLY'] as const;
/** How often a schedule makes its report. */
export type ReportEvery = (typeof REPORT_EVERY)[number];
/** What a schedule does with its report: send it by e-mail, or keep it for download. */
export const REPORT_DELIVERIES = ['EMAIL', 'KEEP'] as const;
/** What a schedule does with its report. */
export type ReportDelivery = (typeof REPORT_DELIVERIES)[number];
/** Most schedules one user may keep. */
export const REPORT_MAX_SCHEDULES = 50;
/** Kept reports of one user older than this many days are removed. */
export const REPORT_KEEP_DAYS = 400;

/** A local calendar month, YYYY-MM, from 2000 to 2100. */
export const ReportMonth = z
  .string()
  .regex(/^(20\d\d|2100)-(0[1-9]|1[0-2])$/, 'must be YYYY-MM from 2000-01 to 2100-12');

/** Body of POST (read) /reports: a device's report of one local month, as a PDF file. */
export const ReportRequest = z.object({
  token: DeviceTokenString,
  kind: z.enum(REPORT_KINDS),
  month: ReportMonth,
  language: z.enum(MESSAGE_LANGUAGES),
});
/** Body of POST (read) /reports. */
export type ReportRequest = z.infer<typeof ReportRequest>;

/** A folder of the user's hierarchy: its path of names from the top level. */
export const ReportFolderPath = z
  .array(z.string().trim().min(1).max(HIERARCHY_NAME_MAX))
  .min(1)
  .max(HIERARCHY_MAX_DEPTH);

/**
 * Body of POST (read) /reports/folder: a month's report over the devices of one folder of the
 * user's hierarchy, the folder given by its path of names from the top level; `kind` is energy
 * and cost when left out.
 */
export const FolderReportRequest = z.object({
  folder: ReportFolderPath,
  kind: FolderKind,
  month: ReportMonth,
  language: z.enum(MESSAGE_LANGUAGES),
});
/** Body of POST (read) /reports/folder. */
export type FolderReportRequest = z.infer<typeof FolderReportRequest>;

/** When a schedule runs, where its report goes and in which language. */
const ScheduleTiming = z.object({
  every: z.enum(REPORT_EVERY),
  delivery: z.enum(REPORT_DELIVERIES),
  /** Where an EMAIL schedule sends to; KEEP schedules have none. */
  email: EmailAddress.optional(),
  language: z.enum(MESSAGE_LANGUAGES),
});
/** An address goes with EMAIL delivery and only there. */
const emailWithEmailDelivery = (r: { delivery: ReportDelivery; email?: string | undefined }) =>
  (r.delivery === 'EMAIL') === (r.email !== undefined);
const EMAIL_RULE = {
  message: 'an e-mail address is needed for EMAIL delivery and only there',
  path: ['email'],
};

/** Body of POST (write) /reports/schedules: a new schedule of a device's report. */
export const ReportScheduleCreateRequest = ScheduleTiming.extend({
  token: DeviceTokenString,
  kind: z.enum(REPORT_KINDS),
}).refine(emailWithEmailDelivery, EMAIL_RULE);
/** Body of POST (write) /reports/schedules. */
export type ReportScheduleCreateRequest = z.infer<typeof ReportScheduleCreateRequest>;

/**
 * Body of POST (write) /reports/schedules/folder: a new schedule of a folder's report, of energy
 * and cost when `kind` is left out.
 */
export const FolderReportScheduleCreateRequest = ScheduleTiming.extend({
  folder: ReportFolderPath,
  kind: FolderKind,
}).refine(emailWithEmailDelivery, EMAIL_RULE);
/** Body of POST (write) /reports/schedules/folder. */
export type FolderReportScheduleCreateRequest = z.infer<typeof FolderReportScheduleCreateRequest>;

/**
 * Body of PUT (write) /reports/schedules: a schedule's new timing, delivery and language, and for a
 * folder's schedule optionally another folder (a device's schedule keeps its device and kind).
 */
export const ReportScheduleUpdateRequest = ScheduleTiming.extend({
  id: z.number().int().positive(),
  folder: ReportFolderPath.optional(),
}).refine(emailWithEmailDelivery, EMAIL_RULE);
/** Body of PUT (write) /reports/schedules. */
export type ReportScheduleUpdateRequest = z.infer<typeof ReportScheduleUpdateRequest>;

/** Body of DELETE (write) /reports/schedules. */
export const ReportScheduleDeleteRequest = z.object({ id: z.number().int().positive() });

/** One schedule of the user. */
export const ReportSchedule = z.object({
  id: z.number().int(),
  /** Device token, as the device list answers it; null for a folder's schedule. */
  token: z.string().nullable(),
  /** The device's MAC; null for a folder's schedule. */
  mac: z.string().nullable(),
  /** The folder's path of names; null for a device's schedule. */
  folder: z.array(z.string()).nullable(),
  /** The device's title, or the folder's path joined with " / ". */
  title: z.string(),
  /**
   * True when the folder is no longer in the user's tree (removed or renamed): the schedule makes
   * nothing until another folder is chosen for it.
   */
  missing: z.boolean(),
  kind: z.enum(REPORT_KINDS),
  every: z.enum(REPORT_EVERY),
  delivery: z.enum(REPORT_DELIVERIES),
  email: z.string().nullable(),
  language: z.enum(MESSAGE_LANGUAGES),
  createdMs: z.number(),
  /** Start of the last period it reported on, unix ms, or null. */
  lastPeriodMs: z.number().nullable(),
});
/** One schedule. */
export type ReportSchedule = z.infer<typeof ReportSchedule>;

/** Answer of POST (read) /reports/schedules/list. */
export const ReportSchedulesResponse = okWith(z.array(ReportSchedule));

/** Answer of POST (write) /reports/schedules. */
export const ReportScheduleCreateResponse = okWith(z.object({ id: z.number().int() }));

/** One report a KEEP schedule made. */
export const KeptReport = z.object({
  id: z.number().int(),
  /** The device's MAC; null for a folder's report. */
  mac: z.string().nullable(),
  /** The folder's path of names; null for a device's report. */
  folder: z.array(z.string()).nullable(),
  /** The device's title, or the folder's path joined with " / ". */
  title: z.string(),
  kind: z.enum(REPORT_KINDS),
  language: z.enum(MESSAGE_LANGUAGES),
  /** Period covered, unix ms, [from, to). */
  fromMs: z.number(),
  toMs: z.number(),
  createdMs: z.number(),
  sizeBytes: z.number().int(),
});
/** One kept report. */
export type KeptReport = z.infer<typeof KeptReport>;

/** Answer of POST (read) /reports/kept/list, newest first. */
export const KeptReportsResponse = okWith(z.array(KeptReport));

/** Body of POST (read) /reports/kept: one kept report as a PDF file. */
export const KeptReportRequest = z.object({ id: z.number().int().positive() });

/** Empty body of list calls. */
export const ReportListRequest = z.object({}).strict();
