// Demo and test data of the power-quality page: an analyzer's minutes for a whole local week,
// from the simulator's physics, with or without the planted sag and distortion.
import { analyzerMinutes, analyzerSpectra } from '@meterportal/simulator';
import type { Clock } from '../clock';
import { fromWall, wallTime } from '../history/calendar';
import type { HistoryRepository } from '../history/history.repository';
import { addSample, finishMinute, frameChannels, newMinuteBucket } from '../telemetry/minute-aggregate';
import type { MinuteRow, TelemetryRepository } from '../telemetry/telemetry.repository';
import type { HarmonicsRepository, SpectrumRow } from './harmonics.repository';
import { HARMONIC_ORDERS } from './harmonics-fns';

const ROWS_PER_WRITE = 2000;

/** The local Monday 00:00 of the week holding tsSec, `weeksBack` weeks earlier, unix seconds. */
export function mondayOf(tsSec: number, tz: string, weeksBack = 0): number {
  const w = wallTime(tsSec, tz);
  const weekday = (new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay() + 6) % 7;
  return fromWall(tz, w.year, w.month, w.day - weekday - 7 * weeksBack);
}

/** `YYYY-MM-DD` of a local Monday 00:00. */
export function mondayDate(mondaySec: number, tz: string): string {
  const w = wallTime(mondaySec, tz);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/**
 * Writes an analyzer's minutes for [fromSec, toSec) (a local week), with the planted
 * disturbances when planted; minutes already stored are kept. Returns the rows written.
 */
export async function writeAnalyzerWeek(
  repository: Pick<TelemetryRepository, 'insertHistory'>,
  device: { id: number; mac: string },
  week: { fromSec: number; toSec: number },
  planted: boolean,
): Promise<number> {
  let rows: MinuteRow[] = [];
  let written = 0;
  const flush = async () => {
    await repository.insertHistory([], rows);
    written += rows.length;
    rows = [];
  };
  for (const m of analyzerMinutes(device.mac, week.fromSec, week.toSec, planted ? week.fromSec : undefined)) {
    if (m.samples.length === 0) continue; // power cut: nothing measured
    const bucket = newMinuteBucket(m.minuteSec);
    for (const s of m.samples) addSample(bucket, frameChannels(s));
    rows.push({ deviceId: device.id, agg: finishMinute(bucket) });
    if (rows.length >= ROWS_PER_WRITE) await flush();
  }
  await flush();
  return written;
}

/**
 * Writes an analyzer's 10-minute voltage spectra for [fromSec, toSec) as the poller would have
 * stored them, with the planted distortion when planted; intervals already stored are kept.
 */
export async function writeAnalyzerSpectra(
  repository: Pick<HarmonicsRepository, 'insertIntervals'>,
  device: { id: number; mac: string },
  span: { fromSec: number; toSec: number },
  plantedWeekFromSec?: number,
): Promise<number> {
  const rows: SpectrumRow[] = [];
  for (const s of analyzerSpectra(device.mac, span.fromSec, span.toSec, plantedWeekFromSec)) {
    [s.U.L1, s.U.L2, s.U.L3].forEach((values, i) =>
      rows.push({
        deviceId: device.id,
        intervalSec: s.intervalSec,
        phase: i + 1,
        values: HARMONIC_ORDERS.map((h) => values[h - 1] ?? null),
      }),
    );
  }
  await repository.insertIntervals(rows);
  return rows.length;
}

/**
 * The demo's failing week: the week three weeks before the current one, older than the backfilled
 * minutes, so each demo analyzer shows ordinary weeks that pass and this one that fails.
 */
export async function plantDemoPowerQualityWeek(
  deps: {
    repository: Pick<TelemetryRepository, 'insertHistory'>;
    history: Pick<HistoryRepository, 'minuteColumns'>;
    harmonics: Pick<HarmonicsRepository, 'insertIntervals' | 'hasSpectra'>;
    clock: Clock;
    tz: string;
  },
  analyzers: readonly { id: number; mac: string }[],
): Promise<number> {
  const nowSec = Math.floor(deps.clock.nowMs() / 1000);
  const fromSec = mondayOf(nowSec, deps.tz, 3);
  const toSec = mondayOf(nowSec, deps.tz, 2);
  let rows = 0;
  for (const d of analyzers) {
    // Planted on the first start; a later start finds the week's Wednesday sag already stored.
    const sagDay = await deps.history.minuteColumns(d.id, fromSec + 2 * 86400, fromSec + 3 * 86400, [
      'f_avg',
    ]);
    if (sagDay.tsSec.length === 0)
      rows += await writeAnalyzerWeek(deps.repository, d, { fromSec, toSec }, true);
    // A store from before the spectra were kept gets the planted week's spectra on its next start.
    if (!(await deps.harmonics.hasSpectra(d.id, fromSec, toSec)))
      await writeAnalyzerSpectra(deps.harmonics, d, { fromSec, toSec }, fromSec);
  }
  return rows;
}

/**
 * The demo analyzers' spectra over the backfilled minutes (the last `days` days), so the page
 * judges the harmonics of the recent weeks from the first start; the poller goes on from there.
 */
export async function backfillDemoSpectra(
  deps: { harmonics: Pick<HarmonicsRepository, 'insertIntervals' | 'hasSpectra'>; clock: Clock },
  analyzers: readonly { id: number; mac: string }[],
  days: number,
): Promise<number> {
  const toSec = Math.floor(deps.clock.nowMs() / 1000);
  const fromSec = toSec - days * 86400;
  let rows = 0;
  for (const d of analyzers) {
    if (await deps.harmonics.hasSpectra(d.id, fromSec, toSec)) continue;
    rows += await writeAnalyzerSpectra(deps.harmonics, d, { fromSec, toSec });
  }
  return rows;
}
