import type {
  CostRow,
  MessageLanguage,
  MonthPeak,
  PowerQualityWeek,
  ReportKind,
} from '@meterportal/protocol';
import { DeviceType, ErrorCode } from '@meterportal/protocol';
import type { SessionUser } from '../devices/devices.service';
import { AppError, InvalidRequest } from '../http/errors';
import { fromWall, nextPeriod, startOfMonth, wallTime } from '../history/calendar';
import type { PowerQualityService } from '../powerquality/power-quality.service';
import type { FolderEnergyModel, FolderPeaksModel, FolderAvailabilityModel } from './report-folder';
import type { FolderPowerQualityModel } from './report-folder-pq';
import type { HistoryService } from '../history/history.service';
import type { TariffsService } from '../tariffs/tariffs.service';
import type { MonitoringService } from '../tools/monitoring.service';
import type { DevicesService } from '../devices/devices.service';

/** The local period a report covers, unix seconds [fromSec, toSec). */
export interface ReportPeriod {
  fromSec: number;
  toSec: number;
  every: 'MONTH' | 'WEEK';
}

/** One day of energy and, with a tariff, its cost. */
export interface EnergyDay {
  dayMs: number;
  importWh: number;
  exportWh: number;
  /** Cost of the day; null without a tariff. */
  cost: CostRow | null;
}

/** Monthly energy and cost: per day and totals, cost per band. */
export interface EnergyCostModel {
  kind: 'ENERGY_COST';
  currency: string | null;
  bandNames: string[];
  days: EnergyDay[];
  totalImportWh: number;
  totalExportWh: number;
  /** The period's cost with fees, capacity charge and VAT, as /energy/cost answers it; null without a tariff. */
  total: CostRow | null;
}

/** Max demand and capacity. */
export interface PeaksModel {
  kind: 'PEAKS';
  /** Contract limits, kW (0 when not set). */
  mrkKw: number;
  rkKw: number;
  /** The months the period touches, as /energy/peaks answers them. */
  months: MonthPeak[];
  /** The period's highest quarter-hour demand and its start, from the 15-minute maximum chart. */
  peakKw: number | null;
  peakAtMs: number | null;
  /** Quarters of the period above MRK and RK (0 when the limit is not set). */
  quartersAboveMrk: number;
  quartersAboveRk: number;
  /** The quarters above a limit, highest first (at most 20). */
  topQuarters: { atMs: number; kw: number }[];
  quarters: number;
}

/** One day's availability. */
export interface AvailabilityDay {
  dayMs: number;
  onlineHours: number;
  offlineHours: number;
  /** Online share of the day's known time, 0..1 (null when none of it has passed). */
  share: number | null;
}

/** Online share per day from the monitoring data. */
export interface AvailabilityModel {
  kind: 'AVAILABILITY';
  days: AvailabilityDay[];
  onlineHours: number;
  offlineHours: number;
  share: number | null;
  /** Offline stretches of the period (one already going on when it begins counts). */
  outages: number;
}

/** One quarter hour's demand from the 15-minute maximum chart: its start and kW. */
export interface QuarterDemand {
  atMs: number;
  kw: number;
}

/** EN 50160 of an analyzer: each week ending in the period, as /precision/power-quality answers it. */
export interface PowerQualityModel {
  kind: 'POWER_QUALITY';
  weeks: PowerQualityWeek[];
}

/** Everything a PDF report shows. */
export interface ReportModel {
  device: { title: string; mac: string };
  /** A folder's report: the folder's path, shown instead of the device. */
  folder?: string;
  language: MessageLanguage;
  tz: string;
  period: ReportPeriod;
  createdMs: number;
  body:
    | EnergyCostModel
    | PeaksModel
    | AvailabilityModel
    | PowerQualityModel
    | FolderEnergyModel
    | FolderPeaksModel
    | FolderAvailabilityModel
    | FolderPowerQualityModel;
}

/** A device's max-demand report with the quarter hours it was made from. */
export interface DevicePeaks {
  model: ReportModel & { body: PeaksModel };
  quarters: QuarterDemand[];
}

/**
 * The Mondays (`YYYY-MM-DD`) of the local weeks whose Sunday falls in the period and which have
 * begun by nowSec: each week lands in exactly one monthly report, and a weekly period is its week.
 */
export function weeksEndingIn(p: ReportPeriod, tz: string, nowSec: number): string[] {
  const first = wallTime(p.fromSec, tz);
  const weekday = (new Date(Date.UTC(first.year, first.month - 1, first.day)).getUTCDay() + 6) % 7;
  let day = first.day - weekday; // the Monday of the week holding the period's first day
  const mondays: string[] = [];
  for (;;) {
    const monday = fromWall(tz, first.year, first.month, day);
    const sunday = fromWall(tz, first.year, first.month, day + 6);
    if (sunday >= p.toSec || monday > nowSec) break;
    if (sunday >= p.fromSec) {
      const w = wallTime(monday, tz);
      mondays.push(`${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`);
    }
    day += 7;
  }
  return mondays;
}

const isDataNotFound = (e: unknown) => e instanceof AppError && e.code === ErrorCode.DataNotFound;

/** Answers null where the service finds no data, else what it answers. */
async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (e) {
    if (isDataNotFound(e)) return null;
    throw e;
  }
}

/**
 * Builds a report's numbers through the same services the charts read: /energy/cost (or /energy
 * without a tariff), /energy/peaks with the 15-minute maximum chart, and /tools/monitoring.
 */
export function reportModels(deps: {
  devices: DevicesService;
  history: HistoryService;
  tariffs: TariffsService;
  monitoring: MonitoringService;
  powerQuality: PowerQualityService;
  tz: string;
  nowMs: () => number;
}) {
  const { devices, history, tariffs, monitoring, tz } = deps;

  async function energyCost(user: SessionUser, token: string, p: ReportPeriod): Promise<EnergyCostModel> {
    const cost = await orNull(tariffs.cost(user, { token, from: p.fromSec, to: p.toSec, period: 'DAY' }));
    if (cost) {
      // The period's own row carries the monthly fee and the capacity charge; a week has none.
      const whole = await tariffs.cost(user, {
        token,
        from: p.fromSec,
        to: p.toSec,
        period: p.every === 'MONTH' ? 'MONTH' : 'DAY',
      });
      return {
        kind: 'ENERGY_COST',
        currency: cost.currency,
        bandNames: cost.bandNames,
        days: cost.rows.map((r) => ({ dayMs: r.t, importWh: r.importWh, exportWh: r.exportWh, cost: r })),
        totalImportWh: cost.total.importWh,
        totalExportWh: cost.total.exportWh,
        total: whole.total,
      };
    }
    const energy = await orNull(
      history.energy(user, {
        token,
        data: ['E_I', 'E_E'],
        phase: 'CUM',
        from: p.fromSec,
        to: p.toSec,
        period: 'DAY',
        format: 'H',
        maximum: false,
      }),
    );
    const series = (k: string) => new Map((energy?.[k]?.CUM ?? []).map(([t, v]) => [t, v ?? 0]));
    const imp = series('E_I');
    const exp = series('E_E');
    const dayMs = [...new Set([...imp.keys(), ...exp.keys()])].sort((a, b) => a - b);
    const wh = (kwh: number | undefined) => Math.round((kwh ?? 0) * 1000);
    const days = dayMs.map((t) => ({
      dayMs: t,
      importWh: wh(imp.get(t)),
      exportWh: wh(exp.get(t)),
      cost: null,
    }));
    return {
      kind: 'ENERGY_COST',
      currency: null,
      bandNames: [],
      days,
      totalImportWh: days.reduce((a, d) => a + d.importWh, 0),
      totalExportWh: days.reduce((a, d) => a + d.exportWh, 0),
      total: null,
    };
  }

  async function peaks(
    user: SessionUser,
    token: string,
    p: ReportPeriod,
  ): Promise<{ body: PeaksModel; quarters: QuarterDemand[] }> {
    const details = await devices.readDetails(user, token);
    // /energy/peaks answers the months ending with the current one.
    const nowSec = Math.floor(deps.nowMs() / 1000);
    const firstMonth = startOfMonth(p.fromSec, tz);
    let back = 1;
    for (let m = startOfMonth(nowSec, tz); m > firstMonth && back < 36; m = startOfMonth(m - 1, tz)) back++;
    const answered = firstMonth <= nowSec ? await orNull(tariffs.peaks(user, token, back)) : null;
    const months = (answered?.months ?? []).filter(
      (m) => m.monthMs >= firstMonth * 1000 && m.monthMs < p.toSec * 1000,
    );
    const maxima = await orNull(
      history.energy(user, {
        token,
        data: ['E_I'],
        phase: 'CUM',
        from: p.fromSec,
        to: p.toSec,
        period: '15MIN',
        format: 'H',
        maximum: true,
      }),
    );
    const quarters = (maxima?.E_I?.CUM ?? [])
      .filter((q): q is [number, number] => q[1] !== null)
      .map(([atMs, kw]) => ({ atMs, kw }));
    let peak: { atMs: number; kw: number } | null = null;
    for (const q of quarters) if (!peak || q.kw > peak.kw) peak = q;
    const above = (limit: number) => (limit > 0 ? quarters.filter((q) => q.kw > limit).length : 0);
    const lowest = Math.min(...[details.MRK, details.RK].filter((l) => l > 0));
    const body: PeaksModel = {
      kind: 'PEAKS',
      mrkKw: details.MRK,
      rkKw: details.RK,
      months,
      peakKw: peak?.kw ?? null,
      peakAtMs: peak?.atMs ?? null,
      quartersAboveMrk: above(details.MRK),
      quartersAboveRk: above(details.RK),
      topQuarters: Number.isFinite(lowest)
        ? quarters
            .filter((q) => q.kw > lowest)
            .sort((a, b) => b.kw - a.kw || a.atMs - b.atMs)
            .slice(0, 20)
        : [],
      quarters: quarters.length,
    };
    return { body, quarters };
  }

  async function availability(user: SessionUser, token: string, p: ReportPeriod): Promise<AvailabilityModel> {
    const answer = await orNull(
      monitoring.monitoring(user, { token, from: p.fromSec, to: p.toSec, period: 'DAY' }),
    );
    const daily = answer && !Array.isArray(answer) ? answer : { online: [], offline: [] };
    const days = daily.online.map(([dayMs, on], i) => {
      const off = daily.offline[i]?.[1] ?? 0;
      return { dayMs, onlineHours: on, offlineHours: off, share: on + off > 0 ? on / (on + off) : null };
    });
    const onlineHours = days.reduce((a, d) => a + d.onlineHours, 0);
    const offlineHours = days.reduce((a, d) => a + d.offlineHours, 0);
    const outages = await orNull(monitoring.outages(user, { token, from: p.fromSec, to: p.toSec }));
    return {
      kind: 'AVAILABILITY',
      days,
      onlineHours,
      offlineHours,
      share: onlineHours + offlineHours > 0 ? onlineHours / (onlineHours + offlineHours) : null,
      outages: outages ?? 0,
    };
  }

  async function powerQuality(user: SessionUser, token: string, p: ReportPeriod): Promise<PowerQualityModel> {
    const nowSec = Math.floor(deps.nowMs() / 1000);
    const weeks: PowerQualityWeek[] = [];
    for (const monday of weeksEndingIn(p, tz, nowSec))
      weeks.push(await deps.powerQuality.week(user, token, monday));
    return { kind: 'POWER_QUALITY', weeks };
  }

  /** A report's frame around its body: the device, language, zone, period and time made. */
  const framed = <B extends ReportModel['body']>(
    device: { title: string | null; mac: string },
    language: MessageLanguage,
    period: ReportPeriod,
    body: B,
  ) => ({
    device: { title: device.title ?? device.mac, mac: device.mac },
    language,
    tz,
    period,
    createdMs: deps.nowMs(),
    body,
  });

  return {
    tz,
    nowMs: deps.nowMs,
    /** The local month YYYY-MM as a period. */
    monthPeriod(month: string): ReportPeriod {
      const [y, m] = month.split('-').map(Number) as [number, number];
      const fromSec = startOfMonth(Date.UTC(y, m - 1, 15) / 1000, tz);
      return { fromSec, toSec: nextPeriod(fromSec, 'MONTH', tz), every: 'MONTH' };
    },

    async build(
      user: SessionUser,
      token: string,
      kind: ReportKind,
      period: ReportPeriod,
      language: MessageLanguage,
    ): Promise<ReportModel> {
      const device = await devices.resolve(user, token);
      if (kind === 'POWER_QUALITY' && device.type !== DeviceType.Precision)
        throw new InvalidRequest('Invalid request at kind: power quality reports are for analyzers (type 3)');
      const body =
        kind === 'ENERGY_COST'
          ? await energyCost(user, token, period)
          : kind === 'PEAKS'
            ? (await peaks(user, token, period)).body
            : kind === 'AVAILABILITY'
              ? await availability(user, token, period)
              : await powerQuality(user, token, period);
      return framed(device, language, period, body);
    },

    /** A device's max-demand report as `build` makes it, with the quarter hours behind it. */
    async devicePeaks(
      user: SessionUser,
      token: string,
      period: ReportPeriod,
      language: MessageLanguage,
    ): Promise<DevicePeaks> {
      const device = await devices.resolve(user, token);
      const { body, quarters } = await peaks(user, token, period);
      return { model: framed(device, language, period, body), quarters };
    },
  };
}
/** Builds report numbers. */
export type ReportModels = ReturnType<typeof reportModels>;
