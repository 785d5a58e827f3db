/**
 * Cost of energy under time-of-use tariffs, exact to the cent. Energy stays in whole Wh and
 * prices in millionths of the currency, so every product is an integer number of 1e-9 currency
 * units (BigInt); each figure of an answer is rounded half up to cents once, from its exact sum.
 */
import { bandIndexAt, type CostPeriod, type CostRow, type Tariff } from '@meterportal/protocol';
import { fromWall, nextPeriod, periodStarts, startOfDay, startOfMonth, wallTime } from '../history/calendar';

/** 1e-9 currency units in one cent. */
const NANO_PER_CENT = 10_000_000n;
/** VAT is kept in basis points (20 % = 2000). */
const BP = 10_000n;

/** A number with at most `decimals` decimals as an exact integer of 10^-decimals units. */
export const scaled = (n: number, decimals: number): bigint => BigInt(Math.round(n * 10 ** decimals));

/** num / den rounded half up (both non-negative). */
export function roundDiv(num: bigint, den: bigint): bigint {
  return (2n * num + den) / (2n * den);
}

/** A tariff version with its prices as integers and its start as a UTC instant. */
export interface Rates {
  fromSec: number;
  /** Start of the next version, or Infinity. */
  toSec: number;
  bands: Tariff['bands'];
  /** Per band: millionths of the currency per kWh. */
  bandMicro: bigint[];
  /** Per band: its index in the answer's band names. */
  bandSlot: number[];
  holidays: Set<string>;
  exportMicro: bigint;
  feeCents: bigint;
  capacityMicro: bigint;
  vatBp: bigint;
}

/** The versions of a device, oldest first, with their starts in the zone and a shared band list. */
export function prepareRates(
  tariffs: readonly Tariff[],
  tz: string,
): { rates: Rates[]; bandNames: string[] } {
  const sorted = [...tariffs].sort((a, b) => a.validFrom.localeCompare(b.validFrom));
  const bandNames: string[] = [];
  const starts = sorted.map((t) => {
    const [y, m, d] = t.validFrom.split('-').map(Number) as [number, number, number];
    return fromWall(tz, y, m, d);
  });
  const rates = sorted.map((t, i): Rates => ({
    fromSec: starts[i]!,
    toSec: starts[i + 1] ?? Number.POSITIVE_INFINITY,
    bands: t.bands,
    bandMicro: t.bands.map((b) => scaled(b.priceKwh, 6)),
    bandSlot: t.bands.map((b) => {
      const at = bandNames.indexOf(b.name);
      if (at >= 0) return at;
      bandNames.push(b.name);
      return bandNames.length - 1;
    }),
    holidays: new Set(t.holidays),
    exportMicro: scaled(t.exportPriceKwh, 6),
    feeCents: scaled(t.monthlyFee, 2),
    capacityMicro: scaled(t.capacityPriceKw, 6),
    vatBp: scaled(t.vatPercent, 2),
  }));
  return { rates, bandNames };
}

/** Energy of one bucket that lies within one local hour (a quarter or a whole hour). */
export interface EnergyBucket {
  tsSec: number;
  importWh: number;
  exportWh: number;
}

interface DayInfo {
  date: string;
  weekend: boolean;
  /** Length 86,400 s: the local hour is the offset from midnight; else (DST) asked of Intl. */
  plain: boolean;
}

/**
 * Classifies ascending instants of [fromSec, toSec) by local date, weekday/weekend and hour. The
 * local midnights come from the calendar once (and are cached across requests by periodStarts);
 * dates and weekdays then follow by counting days, so only the hours of DST days ask Intl.
 */
function localClock(fromSec: number, toSec: number, tz: string) {
  const starts = periodStarts(fromSec, toSec, 'DAY', tz);
  starts.push(nextPeriod(starts.at(-1) ?? startOfDay(fromSec, tz), 'DAY', tz));
  const first = wallTime(starts[0]!, tz);
  const days: DayInfo[] = [];
  const dayInfo = (i: number): DayInfo => {
    let info = days[i];
    if (!info) {
      const d = new Date(Date.UTC(first.year, first.month - 1, first.day + i));
      const dow = d.getUTCDay();
      info = {
        date: d.toISOString().slice(0, 10),
        weekend: dow === 0 || dow === 6,
        plain: starts[i + 1]! - starts[i]! === 86400,
      };
      days[i] = info;
    }
    return info;
  };
  let i = 0;
  return (tsSec: number): { info: DayInfo; hour: number } => {
    while (i + 2 < starts.length && starts[i + 1]! <= tsSec) i++;
    const info = dayInfo(i);
    const hour = info.plain ? Math.floor((tsSec - starts[i]!) / 3600) : wallTime(tsSec, tz).hour;
    return { info, hour };
  };
}

/** Exact sums of one period (or the whole range). */
class Acc {
  importWh = 0;
  exportWh = 0;
  bandNano: bigint[];
  exportNano = 0n;
  feeNano = 0n;
  capacityNano = 0n;
  /** Charges times their VAT rate, in 1e-9 currency x basis points. */
  vatNum = 0n;
  used = false;
  constructor(bands: number) {
    this.bandNano = new Array<bigint>(bands).fill(0n);
  }

  row(tMs: number, bandNames: readonly string[]): CostRow {
    const bands: Record<string, number> = {};
    let energy = 0;
    bandNames.forEach((name, i) => {
      const cents = Number(roundDiv(this.bandNano[i]!, NANO_PER_CENT));
      bands[name] = cents;
      energy += cents;
    });
    const fixed = Number(roundDiv(this.feeNano, NANO_PER_CENT));
    const capacity = Number(roundDiv(this.capacityNano, NANO_PER_CENT));
    const vat = Number(roundDiv(this.vatNum, NANO_PER_CENT * BP));
    const credit = Number(roundDiv(this.exportNano, NANO_PER_CENT));
    return {
      t: tMs,
      importWh: this.importWh,
      exportWh: this.exportWh,
      bands,
      energyCents: energy,
      fixedCents: fixed,
      capacityCents: capacity,
      vatCents: vat,
      exportCreditCents: credit,
      totalCents: energy + fixed + capacity + vat - credit,
    };
  }
}

/** Start of every cost period covering [fromSec, toSec). */
export function costPeriodStarts(fromSec: number, toSec: number, period: CostPeriod, tz: string): number[] {
  if (period !== 'YEAR') return periodStarts(fromSec, toSec, period, tz);
  const out: number[] = [];
  for (let y = wallTime(fromSec, tz).year; ; y++) {
    const start = fromWall(tz, y, 1, 1);
    if (start >= toSec) return out;
    out.push(start);
  }
}

/** What computeCost needs: the range, its buckets, the versions and each month's peak quarter. */
export interface CostInput {
  fromSec: number;
  toSec: number;
  period: CostPeriod;
  tz: string;
  /** Ascending; each within one local hour. */
  buckets: readonly EnergyBucket[];
  rates: readonly Rates[];
  bandNames: readonly string[];
  /** Highest quarter-hour import (Wh) per local month start, within the range. */
  monthPeakWh: ReadonlyMap<number, number>;
}

/**
 * Cost per period and over the range. A bucket is priced by the version in force at its start and
 * the first band of that version that applies to its local hour (holidays count as weekend days);
 * versions start at local midnights, so a change splits exactly between buckets. A month's fixed
 * fee and capacity charge (its peak quarter's kW) are shared between the versions in force in it
 * by their seconds in the month, and appear in MONTH and YEAR periods only. Energy before the
 * first version is counted but not priced.
 */
export function computeCost(input: CostInput): { rows: CostRow[]; total: CostRow } {
  const { fromSec, toSec, period, tz, buckets, rates, bandNames } = input;
  const starts = costPeriodStarts(fromSec, toSec, period, tz);
  const accs = starts.map(() => new Acc(bandNames.length));
  const total = new Acc(bandNames.length);
  const clock = localClock(fromSec, toSec, tz);
  let p = 0;
  let v = -1;
  for (const b of buckets) {
    while (p + 1 < starts.length && starts[p + 1]! <= b.tsSec) p++;
    while (v + 1 < rates.length && rates[v + 1]!.fromSec <= b.tsSec) v++;
    const acc = accs[p]!;
    acc.used = true;
    acc.importWh += b.importWh;
    acc.exportWh += b.exportWh;
    total.importWh += b.importWh;
    total.exportWh += b.exportWh;
    const r = rates[v];
    if (!r) continue;
    const { info, hour } = clock(b.tsSec);
    const band = bandIndexAt(r.bands, info.weekend || r.holidays.has(info.date), hour);
    // Wh x (1e-6 currency / kWh) = 1e-9 currency.
    const nano = BigInt(b.importWh) * r.bandMicro[band]!;
    const credit = BigInt(b.exportWh) * r.exportMicro;
    const slot = r.bandSlot[band]!;
    acc.bandNano[slot]! += nano;
    total.bandNano[slot]! += nano;
    acc.exportNano += credit;
    total.exportNano += credit;
    acc.vatNum += nano * r.vatBp;
    total.vatNum += nano * r.vatBp;
  }

  if (period === 'MONTH' || period === 'YEAR') {
    for (let m = startOfMonth(fromSec, tz); m < toSec; m = nextPeriod(m, 'MONTH', tz)) {
      const mEnd = nextPeriod(m, 'MONTH', tz);
      const monthSec = BigInt(mEnd - m);
      const peakW = BigInt((input.monthPeakWh.get(m) ?? 0) * 4);
      const at = Math.max(m, fromSec);
      const acc = accs[starts.findLastIndex((st) => st <= at)]!;
      for (const r of rates) {
        const overlap = Math.min(mEnd, toSec, r.toSec) - Math.max(m, fromSec, r.fromSec);
        if (overlap <= 0) continue;
        const share = BigInt(overlap);
        const fee = roundDiv(r.feeCents * NANO_PER_CENT * share, monthSec);
        // W x (1e-6 currency / kW) = 1e-9 currency.
        const capacity = roundDiv(peakW * r.capacityMicro * share, monthSec);
        for (const a of [acc, total]) {
          a.used = true;
          a.feeNano += fee;
          a.capacityNano += capacity;
          a.vatNum += (fee + capacity) * r.vatBp;
        }
      }
    }
  }

  const rows = accs.flatMap((a, i) => (a.used ? [a.row(starts[i]! * 1000, bandNames)] : []));
  return { rows, total: total.row((starts[0] ?? fromSec) * 1000, bandNames) };
}
