import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isDataNotFound } from '../../api/http';
import { ChartCard } from '../../charts/ChartCard';
import type { ChartBuckets, ChartLine, ChartSeries } from '../../charts/options';
import { usePeaksQuery } from '../costs/api';
import { useDeviceDetailsQuery } from '../devices/api';
import { useSelectedDevice } from '../devices/selection';
import { FullRangeDownload } from '../exports/FullRangeDownload';
import { useEnergyQuery } from './api';
import { energyTo } from './dateRanges';
import { useYAxisType } from './chartState';
import { ContractLimitsMenu } from './ContractLimitsMenu';
import { LIMIT_COLORS } from './contractLimits';
import { monthStarts, partialIntervalStart, toMonthStarts } from './energyBuckets';
import { useDataSource, useRange } from './GraphToolbar';
import { energySeriesOf, type EnergyPeriod, type EnergyView } from './views';
import { formatInZone, installationZone } from './zone';
import { useAnomalyBandQuery } from '../anomalies/api';
import { hasAnomalyBand } from '../anomalies/routes';

const COLORS: Record<string, string> = {
  E_I: '#1668dc',
  E_E: '#52c41a',
  Q1: '#1668dc',
  Q2: '#13c2c2',
  Q3: '#faad14',
  Q4: '#722ed1',
};

const TIME_FORMATS: Record<EnergyPeriod, string> = {
  '15MIN': 'L LT',
  HOUR: 'L LT',
  DAY: 'L',
  MONTH: 'MMMM YYYY',
};

interface EnergyChartProps {
  view: EnergyView;
}

/** Energy columns per period; the quarter-hour maximum adds the MRK and RK lines. */
export function EnergyChart({ view }: EnergyChartProps) {
  const { t } = useTranslation();
  const device = useSelectedDevice();
  const [range] = useRange(view.granularity);
  const source = useDataSource();
  const query = useEnergyQuery(view, device?.token, range, source);
  const details = useDeviceDetailsQuery(view.maximum ? device?.token : undefined);
  const peaks = usePeaksQuery(view.maximum ? device?.token : undefined);
  const monthPeakKw = peaks.isError ? 0 : (peaks.data?.running.monthPeakKw ?? 0);
  const [yAxisType, setYAxisType] = useYAxisType();
  // The hourly chart of an owned household meter with an anomaly model shows its expected band.
  const withBand = hasAnomalyBand(device, view.period);
  const bandQuery = useAnomalyBandQuery(withBand ? device?.token : undefined, range.from, energyTo(range));
  const bandPoints = withBand && !bandQuery.isError ? bandQuery.data : undefined;
  const band = useMemo(
    () =>
      bandPoints?.length
        ? { name: t('anomalies.band_legend'), points: bandPoints, color: '#fa8c16' }
        : undefined,
    [bandPoints, t],
  );
  // Series of registers the device's type does not keep are left out, not drawn as zeros.
  const keys = device ? energySeriesOf(view, device.type) : view.data.split(',');
  const label = (k: string) =>
    k === 'E_I'
      ? t('chart.import')
      : k === 'E_E'
        ? t('chart.export_series')
        : t('chart.quadrant', { n: k.slice(1) });
  const [visible, setVisible] = useState<Record<string, boolean>>(() =>
    Object.fromEntries(keys.map((k) => [k, !view.hiddenAtStart.includes(k)])),
  );

  const data = query.isError ? undefined : query.data;
  const monthly = view.period === 'MONTH';
  const series = useMemo<ChartSeries[]>(
    () =>
      keys.map((k) => {
        const points = data?.[k] ?? [];
        return {
          name: label(k),
          points: monthly ? toMonthStarts(points, installationZone()) : points,
          kind: 'bar',
          color: COLORS[k] ?? '#1668dc',
        };
      }),
    // label follows t; keys follow the view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [data, monthly, view, t],
  );
  // A year reads as its twelve months, each a column, even before a month has data.
  const buckets = useMemo<ChartBuckets | undefined>(
    () =>
      monthly
        ? {
            times: monthStarts(range.from, range.to, installationZone()),
            label: (ms) => formatInZone(ms, 'MMM', installationZone()),
          }
        : undefined,
    // The labels are in the current language.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [monthly, range.from, range.to, t],
  );
  const partialFrom = partialIntervalStart(
    series.map((s) => s.points),
    view.period,
    Date.now(),
    installationZone(),
  );
  const selected = Object.fromEntries(keys.map((k) => [label(k), visible[k] ?? true]));
  const limits = details.data;
  const lines = useMemo<ChartLine[]>(
    () =>
      view.maximum && limits
        ? [
            ...(limits.MRK > 0 ? [{ name: t('chart.mrk'), value: limits.MRK, color: LIMIT_COLORS.MRK }] : []),
            ...(limits.RK > 0 ? [{ name: t('chart.rk'), value: limits.RK, color: LIMIT_COLORS.RK }] : []),
            // This month's highest finished quarter, marked so a new peak shows at a glance.
            ...(monthPeakKw > 0
              ? [
                  {
                    name: t('costs.month_peak'),
                    value: monthPeakKw,
                    color: LIMIT_COLORS.PEAK,
                    markOnly: true,
                  },
                ]
              : []),
          ]
        : [],
    [view.maximum, limits, monthPeakKw, t],
  );

  return (
    <ChartCard
      title={t(`menu.${view.title}`)}
      fileName={view.path.replace(/\//g, '-')}
      series={series}
      unit={view.unit}
      yAxisType={yAxisType}
      onYAxisTypeChange={setYAxisType}
      selected={selected}
      onLegendChange={(sel) => setVisible(Object.fromEntries(keys.map((k) => [k, sel[label(k)] ?? true])))}
      lines={lines}
      loading={query.isFetching}
      timeFormat={TIME_FORMATS[view.period]}
      showMaximum
      {...(band ? { band } : {})}
      {...(buckets ? { buckets } : {})}
      {...(view.maximum ? { highlightAbove: true } : {})}
      {...(partialFrom !== undefined ? { partialFrom } : {})}
      {...(query.isError
        ? {
            emptyText: isDataNotFound(query.error)
              ? t('common.data_not_found')
              : t('common.api_communication_error'),
          }
        : {})}
      extra={
        <>
          {view.maximum && device?.owner && <ContractLimitsMenu device={device} limits={limits} />}
          {/* Energy totals as interval values (and their cost); the quarter-hour maxima are not totals. */}
          {!view.maximum && (
            <FullRangeDownload
              target={
                device
                  ? {
                      series: 'ENERGY',
                      devices: [device.token],
                      data: keys,
                      period: view.period,
                      from: range.from,
                      to: energyTo(range),
                    }
                  : null
              }
            />
          )}
        </>
      }
    />
  );
}
