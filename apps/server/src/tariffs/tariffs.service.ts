import {
  TARIFF_MAX_VERSIONS,
  typeHasEnergy,
  type CostData,
  type CostRequest,
  type MonthPeak,
  type PeaksData,
  type Tariff,
} from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { DevicesRepository } from '../devices/devices.repository';
import type { DevicesService, SessionUser } from '../devices/devices.service';
import { nextPeriod, startOfMonth, startOfPeriod } from '../history/calendar';
import type { HistoryRepository } from '../history/history.repository';
import { DataNotFound, Forbidden, InvalidRequest } from '../http/errors';
import { monthOf } from '../adapters/p1-capacity';
import { computeCost, prepareRates } from './tariffs-fns';
import type { MeterCapacityRepository } from './meter-capacity.repository';
import type { TariffsRepository } from './tariffs.repository';

/** kW of a quarter hour's average power from its energy in Wh. */
const quarterKw = (wh: number) => (wh * 4) / 1000;

/** Average of the values present, or null. */
function average(values: (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return null;
  return Math.round((present.reduce((a, b) => a + b, 0) / present.length) * 1000) / 1000;
}

/** Tariff versions of a device, the cost of its energy, and its capacity peaks. */
export function tariffsService(deps: {
  repo: TariffsRepository;
  history: HistoryRepository;
  devices: DevicesService;
  devicesRepo: DevicesRepository;
  /** What P1 meters of the Belgian capacity tariff record themselves. */
  meterCapacity: Pick<MeterCapacityRepository, 'read'>;
  clock: Clock;
  tz: string;
}) {
  const { repo, history, devices, devicesRepo, meterCapacity, clock, tz } = deps;

  /** The device, when the user owns it; a user who only sees it may not change its tariff. */
  async function owned(user: SessionUser, token: string) {
    const device = await devices.resolve(user, token);
    if (device.owner !== 1) throw new Forbidden('Only the device owner may change its tariff');
    return device;
  }

  /** The device, when it keeps active energy registers (else it answers as having no data). */
  async function metered(user: SessionUser, token: string) {
    const device = await devices.resolve(user, token);
    if (!typeHasEnergy(device.type, 'E_I')) throw new DataNotFound();
    return device;
  }

  /** Each local month of [fromSec, toSec) with its highest quarter hour before capSec. */
  async function monthPeaks(deviceId: number, fromSec: number, toSec: number, capSec = toSec) {
    const out: { monthSec: number; peak: { tsSec: number; importWh: number } | null }[] = [];
    for (let m = startOfMonth(fromSec, tz); m < toSec; m = nextPeriod(m, 'MONTH', tz)) {
      const end = nextPeriod(m, 'MONTH', tz);
      out.push({
        monthSec: m,
        peak: await repo.peakQuarter(deviceId, Math.max(m, fromSec), Math.min(end, capSec)),
      });
    }
    return out;
  }

  return {
    async read(user: SessionUser, token: string): Promise<{ owner: boolean; tariffs: Tariff[] }> {
      const device = await devices.resolve(user, token);
      return { owner: device.owner === 1, tariffs: await repo.list(device.id) };
    },

    async save(user: SessionUser, token: string, tariff: Tariff): Promise<void> {
      const device = await owned(user, token);
      const others = (await repo.list(device.id)).filter((t) => t.validFrom !== tariff.validFrom);
      if (others.some((t) => t.currency !== tariff.currency))
        throw new InvalidRequest(
          `Invalid request at tariff.currency: the device's other tariffs are in ${others[0]!.currency}`,
        );
      if (others.length >= TARIFF_MAX_VERSIONS)
        throw new InvalidRequest(`Invalid request at tariff: at most ${TARIFF_MAX_VERSIONS} versions`);
      await repo.save(device.id, tariff, clock.nowMs());
    },

    async remove(user: SessionUser, token: string, validFrom: string): Promise<void> {
      const device = await owned(user, token);
      if (!(await repo.remove(device.id, validFrom))) throw new DataNotFound('No tariff from that date');
    },

    async cost(user: SessionUser, req: CostRequest): Promise<CostData> {
      const device = await metered(user, req.token);
      const tariffs = await repo.list(device.id);
      if (tariffs.length === 0) throw new DataNotFound('No tariff set');
      const { rates, bandNames } = prepareRates(tariffs, tz);
      // Bands and versions change on local hours; where those are whole UTC hours (every zone
      // with a whole-hour offset) a bucket of an hour is priced alike, else per quarter hour.
      const whole = [req.from, req.to].every((t) => startOfPeriod(t, 'HOUR', tz) % 3600 === 0);
      const rows = await history.energyBuckets(
        device.id,
        req.from,
        req.to,
        ['e_i_wh', 'e_e_wh'],
        whole ? 3600 : 900,
      );
      if (rows.length === 0) throw new DataNotFound();
      const buckets = rows.map((r) => ({ tsSec: r.tsSec, importWh: r.values[0]!, exportWh: r.values[1]! }));
      // Fees accrue with time: a month in progress pays its share so far, a later one nothing.
      const nowSec = Math.floor(clock.nowMs() / 1000);
      const toSec = Math.min(req.to, startOfPeriod(nowSec, '15MIN', tz) + 900);
      if (toSec <= req.from) throw new DataNotFound();
      const monthPeakWh = new Map<number, number>();
      if (req.period === 'MONTH' || req.period === 'YEAR')
        for (const m of await monthPeaks(device.id, req.from, toSec))
          monthPeakWh.set(m.monthSec, m.peak?.importWh ?? 0);
      const cost = computeCost({
        fromSec: req.from,
        toSec,
        period: req.period,
        tz,
        buckets,
        rates,
        bandNames,
        monthPeakWh,
      });
      return { currency: tariffs[0]!.currency, bandNames, ...cost };
    },

    async peaks(user: SessionUser, token: string, months: number): Promise<PeaksData> {
      const device = await metered(user, token);
      const nowSec = Math.floor(clock.nowMs() / 1000);
      const quarterSec = startOfPeriod(nowSec, '15MIN', tz);
      const thisMonth = startOfMonth(nowSec, tz);
      // Eleven months before the first one shown, for its 12-month average.
      let first = thisMonth;
      for (let i = 0; i < months + 10; i++) first = startOfMonth(first - 1, tz);
      // Finished quarters only: the running one is answered apart.
      const found = await monthPeaks(device.id, first, thisMonth + 1, quarterSec);
      const kw = found.map((m) => (m.peak ? quarterKw(m.peak.importWh) : null));
      const shown: MonthPeak[] = found.slice(-months).map((m, i) => {
        const at = found.length - months + i;
        return {
          monthMs: m.monthSec * 1000,
          peakKw: kw[at] ?? null,
          atMs: m.peak ? m.peak.tsSec * 1000 : null,
          avg12Kw: average(kw.slice(Math.max(0, at - 11), at + 1)),
        };
      });
      const elapsedSec = Math.max(1, nowSec - quarterSec);
      const energyWh = await repo.quarterImportWh(device.id, quarterSec);
      const details = await devicesRepo.getDetails(device.id);
      const meter = await meterCapacity.read(device.id);
      const recorded = meter.months.length > 0 || meter.average !== null;
      if (recorded) {
        // The meter's months are those of its own calendar, matched to the portal's by name.
        const byMonth = new Map(meter.months.map((m) => [m.month, m]));
        const own = found.map((m) => byMonth.get(monthOf(m.monthSec, tz)) ?? null);
        shown.forEach((row, i) => {
          const at = found.length - months + i;
          const m = own[at];
          row.meterPeakKw = m ? m.peakW / 1000 : null;
          row.meterAtMs = m ? m.atSec * 1000 : null;
          // From whole watts, so the average is exact to the watt.
          const year = own.slice(Math.max(0, at - 11), at + 1).flatMap((p) => (p ? [p.peakW] : []));
          row.meterAvg12Kw = year.length
            ? Math.round(year.reduce((a, b) => a + b, 0) / year.length) / 1000
            : null;
        });
      }
      return {
        months: shown,
        running: {
          startMs: quarterSec * 1000,
          elapsedSec,
          energyWh,
          demandKw: quarterKw(energyWh),
          projectedKw: Math.round(quarterKw((energyWh * 900) / elapsedSec) * 1000) / 1000,
          mrkKw: Number(details?.mrk_w ?? 0) / 1000,
          rkKw: Number(details?.rk_w ?? 0) / 1000,
          monthPeakKw: kw.at(-1) ?? 0,
          ...(recorded
            ? {
                meterAverageKw: meter.average ? meter.average.averageW / 1000 : null,
                meterAverageAtMs: meter.average ? meter.average.reportedSec * 1000 : null,
              }
            : {}),
        },
      };
    },
  };
}
/** Tariffs, cost and peaks. */
export type TariffsService = ReturnType<typeof tariffsService>;
