// Names and stored forms of report files, shared by downloads, schedules and kept reports.
import {
  FOLDER_REPORT_KINDS,
  REPORT_KINDS,
  type FolderReportKind,
  type MessageLanguage,
  type ReportKind,
} from '@meterportal/protocol';
import { wallTime } from '../history/calendar';
import type { ReportPeriod } from './report-model';

/** A stored language code as a report language (en when unknown). */
export const asLanguage = (l: string): MessageLanguage => (l === 'sk' || l === 'de' ? l : 'en');
/** A stored kind as a report kind. */
export const asKind = (k: string): ReportKind => REPORT_KINDS.find((r) => r === k) ?? 'ENERGY_COST';
/** A stored kind of a folder's schedule or kept report as a folder report kind. */
export const asFolderKind = (k: string): FolderReportKind =>
  FOLDER_REPORT_KINDS.find((r) => r === k) ?? 'ENERGY_COST';

/** A folder path as stored with a schedule or kept report (a JSON array of names). */
export const storedFolder = (path: readonly string[]): string => JSON.stringify(path);

/** A stored folder path back as names; an unreadable text is an empty path. */
export function folderPath(stored: string): string[] {
  const parsed: unknown = JSON.parse(stored);
  return Array.isArray(parsed) ? parsed.filter((n): n is string => typeof n === 'string') : [];
}

/** YYYY-MM-DD of a local day. */
function isoDay(tsSec: number, tz: string): string {
  const w = wallTime(tsSec, tz);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** File name of a device's report: kind, device MAC and first local day. */
export function deviceFileName(kind: ReportKind, mac: string, period: ReportPeriod, tz: string): string {
  return `${kind.toLowerCase().replace('_', '-')}-${mac}-${isoDay(period.fromSec, tz)}.pdf`;
}

/**
 * File name of a folder's report: the kind (none for energy and cost), the folder's names in plain
 * letters, then the month (YYYY-MM) of a monthly report or the first day of a weekly one.
 */
export function folderFileName(
  kind: FolderReportKind,
  path: readonly string[],
  period: ReportPeriod,
  tz: string,
): string {
  const name = path
    .join('-')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9-]+/g, '_')
    .slice(0, 80);
  const day = isoDay(period.fromSec, tz);
  const prefix = kind === 'ENERGY_COST' ? 'folder' : `folder-${kind.toLowerCase().replace('_', '-')}`;
  return `${prefix}-${name}-${period.every === 'MONTH' ? day.slice(0, 7) : day}.pdf`;
}
