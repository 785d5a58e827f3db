import { DeviceType, type PowerQualityWeek } from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { MinuteValueColumn } from '../db/schema.telemetry';
import type { DevicesService, SessionUser } from '../devices/devices.service';
import type { HistoryRepository } from '../history/history.repository';
import { InvalidRequest, NotFound } from '../http/errors';
import { assessWeek, weekBounds, yearToDateBounds, type PqMinutes } from './power-quality-fns';
import type { PowerQualityRepository } from './power-quality.repository';
import type { HarmonicsRepository } from './harmonics.repository';
import { judgeHarmonics } from './harmonics-fns';

/** The minute columns the assessment reads, in the order assessWeek takes them. */
const COLUMNS: readonly MinuteValueColumn[] = [
  'u_l1_avg',
  'u_l2_avg',
  'u_l3_avg',
  'u_pp_l1_avg',
  'u_pp_l2_avg',
  'u_pp_l3_avg',
  'df_u_l1_avg',
  'df_u_l2_avg',
  'df_u_l3_avg',
  'f_avg',
  'f_min',
  'f_max',
];

/**
 * EN 50160 compliance of precision analyzers (type 3), for every user the device is assigned to;
 * another type answers like a missing device.
 */
export function powerQualityService(deps: {
  repo: HistoryRepository;
  pq: PowerQualityRepository;
  harmonics: Pick<HarmonicsRepository, 'spectra'>;
  devices: DevicesService;
  clock: Clock;
  tz: string;
  nominalV: number;
}) {
  const { repo, pq, harmonics, devices, clock, tz, nominalV } = deps;
  return {
    /** One week's assessment, the week given by its Monday (local date). */
    async week(user: SessionUser, token: string, monday: string): Promise<PowerQualityWeek> {
      const d = await devices.resolve(user, token);
      if (d.type !== DeviceType.Precision) throw new NotFound('Device not found');
      const { fromSec, toSec } = weekBounds(monday, tz);
      if (fromSec > clock.nowMs() / 1000) throw new InvalidRequest('The week has not begun');
      const c = await repo.minuteColumns(d.id, fromSec, toSec, COLUMNS);
      const v = (k: number) => c.values[k]!;
      const minutes: PqMinutes = {
        tsSec: c.tsSec,
        u: [v(0), v(1), v(2)],
        upp: [v(3), v(4), v(5)],
        thdU: [v(6), v(7), v(8)],
        fAvg: v(9),
        fMin: v(10),
        fMax: v(11),
      };
      const year = yearToDateBounds(monday, tz);
      const counts = await pq.frequencyCounts(d.id, year.fromSec, year.toSec);
      const spectra = await harmonics.spectra(d.id, fromSec, toSec);
      return assessWeek(
        minutes,
        { fromSec, toSec, timeZone: tz, nominalV },
        { ...year, ...counts },
        judgeHarmonics(spectra, fromSec, toSec),
      );
    },
  };
}
/** EN 50160 compliance of analyzers. */
export type PowerQualityService = ReturnType<typeof powerQualityService>;
