// The Belgian capacity tariff as a P1 meter records it itself, turned into what is stored: each
// month's peak (1-0:1.6.0 for the running month, 0-0:98.1.0 for the months before) under the
// month of the meter's calendar, and the running quarter hour's average demand (1-0:1.4.0).
// A value the meter marks as not set (its time `632525252525W`) is not a peak and is left out.
// Every telegram repeats the months before, so a month is written again only when it changed,
// and the writes of telegrams that arrive while one is under way are taken together.
import { wallTime } from '../history/calendar';
import type { CapacityTariff, DemandPeak } from './p1';

/** One month's peak as the meter records it. */
export interface MeterMonthPeak {
  /** YYYY-MM of the meter's calendar. */
  month: string;
  /** Highest quarter-hour average import power of the month, W. */
  peakW: number;
  /** When it was, as the meter stamps it, unix seconds. */
  atSec: number;
}

/** What one telegram says of the capacity tariff, ready to store. */
export interface CapacityReport {
  /** Time of the telegram, unix seconds. */
  reportedSec: number;
  /** Months oldest first. */
  months: MeterMonthPeak[];
  /** The running quarter hour's average demand, W; null when the telegram has none. */
  averageW: number | null;
}

/** What is written for one meter: each value with the time of the telegram it came from. */
export interface CapacityWrite {
  mac: string;
  months: (MeterMonthPeak & { reportedSec: number })[];
  average: { averageW: number; reportedSec: number } | null;
}

/** Demand beyond this is no household's or business's meter: not stored, W. */
const MAX_DEMAND_W = 1_000_000_000;

const plausible = (w: number) => Number.isFinite(w) && w >= 0 && w <= MAX_DEMAND_W;

/** YYYY-MM of a time in tz. */
export function monthOf(tsSec: number, tz: string): string {
  const w = wallTime(tsSec, tz);
  return `${w.year}-${String(w.month).padStart(2, '0')}`;
}

/**
 * The month a peak belongs to, in the meter's zone: the month of its time. A month's record of
 * 98.1.0 is closed at the next month's first midnight; a peak stamped at that close itself (the
 * end of the month's last quarter hour) belongs to the month before it.
 */
function peakMonth(p: DemandPeak & { atSec: number }, tz: string): string {
  return monthOf(p.closedSec === undefined ? p.atSec : Math.min(p.atSec, p.closedSec - 1), tz);
}

/** The capacity-tariff values of a telegram to store; null when it carries none that are set. */
export function capacityReport(c: CapacityTariff, reportedSec: number, tz: string): CapacityReport | null {
  const byMonth = new Map<string, MeterMonthPeak>();
  const put = (p: DemandPeak) => {
    if (p.atSec === null || !plausible(p.powerW)) return;
    const month = peakMonth({ ...p, atSec: p.atSec }, tz);
    byMonth.set(month, { month, peakW: Math.round(p.powerW), atSec: p.atSec });
  };
  if (c.monthPeak) put(c.monthPeak);
  // The closed months' records come after, so they stand where the running month's peak of a
  // meter that has not yet started its new month names the same month.
  for (const p of c.lastPeaks ?? []) put(p);
  const averageW =
    c.currentAverageW !== undefined && plausible(c.currentAverageW) ? Math.round(c.currentAverageW) : null;
  if (byMonth.size === 0 && averageW === null) return null;
  return {
    reportedSec,
    months: [...byMonth.values()].sort((a, b) => a.month.localeCompare(b.month)),
    averageW,
  };
}

interface Pending {
  months: Map<string, MeterMonthPeak & { reportedSec: number }>;
  average: { averageW: number; reportedSec: number } | null;
}

const signature = (m: MeterMonthPeak) => `${m.peakW}@${m.atSec}`;

/** Stores the capacity reports of P1 meters as they arrive. */
export function createCapacityRecorder(deps: {
  save(writes: CapacityWrite[]): Promise<void>;
  /** A write that failed; its values come again with the meter's next telegram. */
  onError(e: unknown): void;
}) {
  const pending = new Map<string, Pending>();
  /** Per meter, what was last stored of each month. */
  const stored = new Map<string, Map<string, string>>();
  let running: Promise<void> | null = null;

  async function drain(): Promise<void> {
    const batch = [...pending.entries()];
    pending.clear();
    const writes: CapacityWrite[] = batch.map(([mac, p]) => ({
      mac,
      months: [...p.months.values()],
      average: p.average,
    }));
    try {
      await deps.save(writes);
      for (const w of writes) {
        const seen = stored.get(w.mac) ?? new Map<string, string>();
        for (const m of w.months) seen.set(m.month, signature(m));
        stored.set(w.mac, seen);
      }
    } catch (e) {
      deps.onError(e);
    }
  }

  function kick(): void {
    if (running) return;
    running = drain().finally(() => {
      running = null;
      if (pending.size) kick();
    });
  }

  return {
    /** Takes a meter's report; months already stored as they are are not written again. */
    record(mac: string, report: CapacityReport): void {
      const seen = stored.get(mac);
      const p: Pending = pending.get(mac) ?? { months: new Map(), average: null };
      for (const m of report.months) {
        if (seen?.get(m.month) === signature(m)) continue;
        const before = p.months.get(m.month);
        if (!before || before.reportedSec <= report.reportedSec)
          p.months.set(m.month, { ...m, reportedSec: report.reportedSec });
      }
      if (report.averageW !== null && (!p.average || p.average.reportedSec <= report.reportedSec))
        p.average = { averageW: report.averageW, reportedSec: report.reportedSec };
      if (p.months.size === 0 && !p.average) return;
      pending.set(mac, p);
      kick();
    },
    /** Forgets what was stored for a meter (removed, or registered anew). */
    forget(mac: string): void {
      stored.delete(mac);
      pending.delete(mac);
    },
    /** Resolves once every write under way has ended. */
    async settled(): Promise<void> {
      while (running) await running;
    },
  };
}

/** Stores the capacity reports of P1 meters. */
export type CapacityRecorder = ReturnType<typeof createCapacityRecorder>;
