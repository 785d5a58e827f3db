import {
  ENERGY_MAX_PERIODS,
  phasesInUse,
  profileResolution,
  typeHasEnergy,
  typeMeasures,
  type EnergyRequest,
  type ProfileQuantity,
  type ProfileRequest,
  type ProfileResolution,
  type Series,
} from '@meterportal/protocol';
import { familyHasEnergy, familyMeasures } from '../adapters/families';
import type { EnergyColumn, MinuteValueColumn } from '../db/schema.telemetry';
import type { DevicesService, SessionUser } from '../devices/devices.service';
import { DataNotFound, InvalidRequest } from '../http/errors';
import { nextPeriod, periodStarts, startOfDay, startOfPeriod } from './calendar';
import { foldIntoPeriods, maxIntoPeriods, quarterKw, sumIntoPeriods, type TimedColumns } from './history-fns';
import { sessionReadLimiter } from './read-limiter';
import type { ColumnSeries, ProfileColumns } from './series-json';
import type { HistoryRepository } from './history.repository';

const PHASES = ['L1', 'L2', 'L3'] as const;
type Phase = (typeof PHASES)[number];

/** Energy quantities of a profile come from quarter-hour energy, per phase, in kWh. */
const PROFILE_ENERGY: Partial<Record<ProfileQuantity, (p: Phase) => EnergyColumn[]>> = {
  E_I: (p) => [`e_i_${lc(p)}_wh`],
  E_E: (p) => [`e_e_${lc(p)}_wh`],
  Q_E: (p) => [`q1_${lc(p)}_varh`, `q2_${lc(p)}_varh`, `q3_${lc(p)}_varh`, `q4_${lc(p)}_varh`],
  S_E: (p) => [`s_e_${lc(p)}_vah`],
};
const lc = (p: Phase) => p.toLowerCase() as 'l1' | 'l2' | 'l3';

/** Total energy columns of the energy API's kinds. */
const ENERGY_TOTALS: Record<EnergyRequest['data'][number], EnergyColumn> = {
  E_I: 'e_i_wh',
  E_E: 'e_e_wh',
  Q1: 'q1_varh',
  Q2: 'q2_varh',
  Q3: 'q3_varh',
  Q4: 'q4_varh',
};

function parsePhases(text: string): Phase[] {
  const wanted = new Set(text.split(',').map((s) => s.trim().toUpperCase()));
  const phases = PHASES.filter((p) => wanted.has(p));
  return phases.length > 0 ? phases : [...PHASES];
}

/** Largest UTC bucket that never straddles a local period boundary of this range. */
function safeBucketSec(period: EnergyRequest['period'], fromSec: number, toSec: number, tz: string): number {
  if (period === '15MIN') return 900;
  const whole = [fromSec, toSec].every((t) => startOfPeriod(t, 'HOUR', tz) % 3600 === 0);
  return whole ? 3600 : 900;
}

/** Profiles and energy totals of one device, from the stored minutes and quarter hours. */
export function historyService(deps: { repo: HistoryRepository; devices: DevicesService; tz: string }) {
  const { repo, devices, tz } = deps;

  return {
    /**
     * Costly reads of one session: two at a time, four more waiting, the rest refused; and in the
     * whole process as many as the database serves well at once (one on SQLite), the others
     * waiting their turn, so a light request's queries never queue behind more than those.
     */
    heavyReads: sessionReadLimiter({ concurrent: 2, waiting: 4, global: repo.heavyReadsAtOnce }),

    /** Columns of a profile and their resolution; the route writes them out with encodeProfile. */
    async profile(
      user: SessionUser,
      req: ProfileRequest,
    ): Promise<{ resolution: ProfileResolution; data: ProfileColumns }> {
      const device = await devices.resolve(user, req.token);
      // A single-phase device has only L1; a quantity its type (or a Shelly, Tasmota or P1 meter's
      // payloads) does not carry is absent.
      const inUse = phasesInUse(device.type, device.phase_use);
      const phases = parsePhases(req.phase).filter((p) => PHASES.indexOf(p) < inUse);
      const wanted = req.data.filter(
        (q) => typeMeasures(device.type, q) && familyMeasures(device.family, q, device.family_mapping),
      );
      const resolution = profileResolution(req.to - req.from);
      const dayStarts = resolution === 'DAY' ? periodStarts(req.from, req.to, 'DAY', tz) : [];
      const out: ProfileColumns = {};
      let points = 0;

      const minuteKeys = wanted.filter((q) => !PROFILE_ENERGY[q]);
      const columns: MinuteValueColumn[] = [];
      for (const q of minuteKeys) {
        if (q === 'F') columns.push('f_avg');
        else for (const p of phases) columns.push(`${q.toLowerCase()}_${lc(p)}_avg` as MinuteValueColumn);
      }
      // Long ranges are read from the hourly rollup (and those hours folded per local day here), so
      // a year reads 8,784 rows and answers 366 points per series instead of half a million minutes.
      const readMinutes = async (): Promise<TimedColumns> => {
        if (resolution === 'MINUTE') return repo.minuteColumns(device.id, req.from, req.to, columns);
        const hours = await repo.hourAverages(device.id, req.from, req.to, columns);
        return resolution === 'DAY' ? foldIntoPeriods(hours, dayStarts, { weights: hours.counts }) : hours;
      };
      // The energy quantities (E_I, E_E, Q_E, S_E per phase) in one statement, asked for at the
      // same time as the minutes so the two reads overlap on PostgreSQL's pool: per quarter hour,
      // or summed per hour (and per local day).
      const energyKeys = wanted.filter((k) => PROFILE_ENERGY[k]);
      const energyCols = energyKeys.map((q) => phases.flatMap((p) => PROFILE_ENERGY[q]!(p)));
      const readEnergy = async (): Promise<TimedColumns> => {
        const cols = energyCols.flat();
        // Per local day, the whole days come from the daily rollup (a row a day instead of 96
        // quarters), only the partial days at the range's ends from the quarters, per hour.
        const fromStart = startOfDay(req.from, tz);
        const fromDay = fromStart === req.from ? fromStart : nextPeriod(fromStart, 'DAY', tz);
        const toDay = startOfDay(req.to, tz);
        const buckets =
          resolution === 'DAY' && fromDay < toDay
            ? await repo.energyByDays(
                device.id,
                { fromSec: req.from, toSec: req.to, fromDay, toDay },
                cols,
                3600,
              )
            : await repo.energyBuckets(
                device.id,
                req.from,
                req.to,
                cols,
                resolution === 'MINUTE' ? 900 : 3600,
              );
        const rows = {
          tsSec: buckets.map((b) => b.tsSec),
          values: cols.map((_, c) => Float64Array.from(buckets, (b) => b.values[c]!)),
        };
        return resolution === 'DAY' ? foldIntoPeriods(rows, dayStarts, 'sum') : rows;
      };
      const none: TimedColumns = { tsSec: [], values: [] };
      const [minutes, energy] = await Promise.all([
        columns.length > 0 ? readMinutes() : Promise.resolve(none),
        energyKeys.length > 0 ? readEnergy() : Promise.resolve(none),
      ]);

      // Every minute series shares one time column.
      const n = minutes.tsSec.length;
      const minuteTimes = Float64Array.from(minutes.tsSec, (t) => t * 1000);
      const series = (values: Float64Array): ColumnSeries => ({ times: minuteTimes, values });
      let col = 0;
      for (const q of minuteKeys) {
        if (q === 'F') {
          out.F = series(minutes.values[col++]!);
          points += n;
          continue;
        }
        // Every phase comes from the same rows, so the phases combine row by row.
        // A phase the device does not measure (NaN, written as null) stays out of the sum and
        // the average; a row with no measured phase stays null.
        const per: Partial<Record<Phase, ColumnSeries>> = {};
        const combined = new Float64Array(n);
        const measured = new Uint8Array(n);
        for (const p of phases) {
          const v = minutes.values[col++]!;
          per[p] = series(v);
          for (let k = 0; k < n; k++) {
            if (Number.isNaN(v[k]!)) continue;
            combined[k]! += v[k]!;
            measured[k]!++;
          }
        }
        for (let k = 0; k < n; k++) {
          if (measured[k] === 0) combined[k] = Number.NaN;
          else if (!req.cumulative) combined[k]! /= measured[k]!;
        }
        out[q] = { ...per, cumulative: series(combined) };
        points += n;
      }

      // Energy per phase: whole Wh are added first and divided once, so kWh values carry no
      // rounding residue.
      const m = energy.tsSec.length;
      const energyTimes = Float64Array.from(energy.tsSec, (t) => t * 1000);
      let offset = 0;
      for (const [qi, q] of energyKeys.entries()) {
        const cols = energyCols[qi]!;
        const per = cols.length / phases.length;
        const perPhase: Partial<Record<Phase, ColumnSeries>> = {};
        const total = new Float64Array(m);
        phases.forEach((p, pi) => {
          const kwh = new Float64Array(m);
          for (let k = 0; k < m; k++) {
            let wh = 0;
            for (let c = 0; c < per; c++) wh += energy.values[offset + pi * per + c]![k]!;
            kwh[k] = wh / 1000;
            total[k]! += wh;
          }
          perPhase[p] = { times: energyTimes, values: kwh };
        });
        offset += cols.length;
        const divisor = req.cumulative ? 1000 : 1000 * phases.length;
        out[q] = { ...perPhase, cumulative: { times: energyTimes, values: total.map((wh) => wh / divisor) } };
        points += m;
      }

      if (points === 0) throw new DataNotFound();
      return { resolution, data: out };
    },

    async energy(user: SessionUser, req: EnergyRequest): Promise<Record<string, { CUM: Series }>> {
      const device = await devices.resolve(user, req.token);
      const periodSec = req.period === '15MIN' ? 900 : req.period === 'HOUR' ? 3600 : 0;
      if (periodSec > 0 && Math.ceil((req.to - req.from) / periodSec) > ENERGY_MAX_PERIODS) {
        const days = Math.floor((ENERGY_MAX_PERIODS * periodSec) / 86400);
        throw new InvalidRequest(
          `Invalid request at to: ${req.period} energy spans at most ${days} days (${ENERGY_MAX_PERIODS} periods); choose a shorter range or a longer period`,
        );
      }
      // Series of registers the device's type does not keep are absent, like a missing device's.
      const kinds = req.data.filter(
        (k) => typeHasEnergy(device.type, k) && familyHasEnergy(device.family, k, device.family_mapping),
      );
      if (kinds.length === 0) throw new DataNotFound();
      const columns = kinds.map((k) => ENERGY_TOTALS[k]);
      const starts = periodStarts(req.from, req.to, req.period, tz);
      const out: Record<string, { CUM: Series }> = {};
      let points = 0;
      if (req.maximum) {
        // Quarter-hour average power, then the largest quarter of each period.
        const quarters = await repo.energyBuckets(device.id, req.from, req.to, columns, 900);
        kinds.forEach((k, i) => {
          const kw = quarters.map((q) => ({ tsSec: q.tsSec, value: quarterKw(q.values[i]!) }));
          out[k] = {
            CUM:
              req.period === '15MIN' ? kw.map((q) => [q.tsSec * 1000, q.value]) : maxIntoPeriods(kw, starts),
          };
          points += out[k].CUM.length;
        });
      } else {
        const bucketSec = safeBucketSec(req.period, req.from, req.to, tz);
        // Days and months: the whole local days of the range come from the daily rollup (one row
        // a day instead of 96 quarters), only the partial days at its ends from the quarters.
        const fromStart = startOfDay(req.from, tz);
        const fromDay = fromStart === req.from ? fromStart : nextPeriod(fromStart, 'DAY', tz);
        const toDay = startOfDay(req.to, tz);
        const byDays = (req.period === 'DAY' || req.period === 'MONTH') && fromDay < toDay;
        const buckets = byDays
          ? await repo.energyByDays(
              device.id,
              { fromSec: req.from, toSec: req.to, fromDay, toDay },
              columns,
              bucketSec,
            )
          : await repo.energyBuckets(device.id, req.from, req.to, columns, bucketSec);
        kinds.forEach((k, i) => {
          // Sums stay in whole Wh until this one division, so totals are exact to the watt-hour.
          const wh = sumIntoPeriods(
            buckets.map((b) => ({ tsSec: b.tsSec, value: b.values[i]! })),
            starts,
          );
          out[k] = { CUM: wh.map(([t, v]) => [t, v / 1000]) };
          points += wh.length;
        });
      }
      if (points === 0) throw new DataNotFound();
      return out;
    },
  };
}
/** Profiles and energy totals. */
export type HistoryService = ReturnType<typeof historyService>;
