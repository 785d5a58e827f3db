// A folder's power quality: each analyzer's EN 50160 weeks as its own report judges them, and the
// folder's count of weeks passed and failed per criterion.
import { PQ_CRITERIA, type PqCriterion, type PqVerdict } from '@meterportal/protocol';
import type { PowerQualityModel } from './report-model';

/** One criterion of an analyzer's week: its verdict and the share within its limits, percent. */
export interface FolderPqCriterion {
  criterion: PqCriterion;
  verdict: PqVerdict;
  /** The share the verdict was made on (frequency: the year to date); null when nothing was assessed. */
  achievedPct: number | null;
}

/** One week of an analyzer in a folder's power-quality report, as its own report has it. */
export interface FolderPqWeek {
  /** Monday 00:00 local to the next Monday, unix seconds. */
  fromSec: number;
  toSec: number;
  verdict: PqVerdict;
  criteria: FolderPqCriterion[];
}

/** One analyzer of a folder's power-quality report. */
export interface FolderPqAnalyzer {
  title: string;
  mac: string;
  weeks: FolderPqWeek[];
}

/** A folder's EN 50160 weeks: each analyzer's, the devices not assessed, and the folder's counts. */
export interface FolderPowerQualityModel {
  kind: 'FOLDER_POWER_QUALITY';
  analyzers: FolderPqAnalyzer[];
  /** Devices under the folder that are not analyzers (type 3): power quality is not assessed. */
  notAssessed: { title: string; mac: string }[];
  /** Analyzer-weeks listed, and those with a verdict (pass or fail; the others had no data). */
  weeks: number;
  assessed: number;
  passed: number;
  failed: number;
  /** Per criterion, in the order of the standard's table: the analyzer-weeks it failed. */
  failedByCriterion: { criterion: PqCriterion; failed: number }[];
}

/** The folder's power quality from each analyzer's own report and the folder's other devices. */
export function folderPowerQuality(
  reports: readonly { title: string; mac: string; body: PowerQualityModel }[],
  notAssessed: { title: string; mac: string }[],
): FolderPowerQualityModel {
  const analyzers = reports.map(({ title, mac, body }) => ({
    title,
    mac,
    weeks: body.weeks.map((wk) => ({
      fromSec: wk.fromSec,
      toSec: wk.toSec,
      verdict: wk.verdict,
      criteria: wk.criteria.map((c) => ({
        criterion: c.criterion,
        verdict: c.verdict,
        achievedPct: c.achievedPct,
      })),
    })),
  }));
  const weeks = analyzers.flatMap((a) => a.weeks);
  const count = (verdict: PqVerdict) => weeks.filter((wk) => wk.verdict === verdict).length;
  const passed = count('PASS');
  const failed = count('FAIL');
  return {
    kind: 'FOLDER_POWER_QUALITY',
    analyzers,
    notAssessed,
    weeks: weeks.length,
    assessed: passed + failed,
    passed,
    failed,
    failedByCriterion: PQ_CRITERIA.map((criterion) => ({
      criterion,
      failed: weeks.filter((wk) => wk.criteria.some((c) => c.criterion === criterion && c.verdict === 'FAIL'))
        .length,
    })),
  };
}
