import { phasesInUse, type ProfileResolution } from '@meterportal/protocol';
import { useTranslation } from 'react-i18next';
import { isDataNotFound } from '../../api/http';
import type { Point } from '../../charts/series';
import { sumAndAverage } from '../../charts/series';
import { useSelectedDevice } from '../devices/selection';
import { FullRangeDownload } from '../exports/FullRangeDownload';
import { useProfileQuery } from './api';
import type { PhaseKey } from './chartState';
import { useDataSource, useRange } from './GraphToolbar';
import { PhaseChart } from './PhaseChart';
import type { ProfileView } from './views';

/** Energy profiles come per quarter hour where the other quantities come per minute. */
const ENERGY_QUANTITIES: ReadonlySet<string> = new Set(['E_I', 'E_E', 'Q_E', 'S_E']);
const resolutionKey = (view: ProfileView, r: ProfileResolution) =>
  r === 'MINUTE' && ENERGY_QUANTITIES.has(view.quantity) ? '15MIN' : r;

interface ProfileChartProps {
  view: ProfileView;
}

/** Historical per-phase area chart for a day-granularity range. */
export function ProfileChart({ view }: ProfileChartProps) {
  const { t } = useTranslation();
  const device = useSelectedDevice();
  const [range] = useRange('day');
  const source = useDataSource();
  const query = useProfileQuery(view, device?.token, range, source);
  // A single-phase type (the plug, the disconnector) shows its one phase.
  const phaseCount = device ? phasesInUse(device.type, device.phase_use) : 3;

  // A failed load (610 included) clears the chart rather than keeping the previous range's data.
  const data = query.isError ? undefined : query.data;
  const series: Partial<Record<PhaseKey, Point[]>> = {};
  if (data) {
    // A phase the device does not measure comes as null points: no line, no legend entry.
    const phases = (['L1', 'L2', 'L3'] as const)
      .slice(0, phaseCount)
      .filter((p) => (data.phases[p]?.length ?? 0) > 0);
    for (const p of phases) series[p] = data.phases[p]!;
    if (phases.length > 1) {
      const { sum, avg } = sumAndAverage(phases.map((p) => data.phases[p]!));
      if (view.cumulative) series.SUM = data.cumulative ?? sum;
      series.AVG = avg;
    }
  }
  return (
    <PhaseChart
      title={t(`menu.${view.title}`)}
      fileName={view.path.replace(/\//g, '-')}
      unit={view.unit}
      quantity={view.quantity}
      kind="area"
      series={series}
      {...(data?.resolution ? { note: t(`chart.resolution_${resolutionKey(view, data.resolution)}`) } : {})}
      loading={query.isFetching}
      download={
        <FullRangeDownload
          target={
            device
              ? {
                  series: 'PROFILE',
                  devices: [device.token],
                  data: [view.quantity],
                  from: range.from,
                  to: range.to,
                }
              : null
          }
        />
      }
      {...(view.startLogarithmic ? { startLogarithmic: true } : {})}
      {...(query.isError
        ? {
            emptyText: isDataNotFound(query.error)
              ? t('common.data_not_found')
              : t('common.api_communication_error'),
          }
        : {})}
    />
  );
}
