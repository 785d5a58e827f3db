import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useHarmonicsQuery } from './api';
import { harmonicsOption } from './chartOptions';
import { CommandChartCard } from './CommandChartCard';
import { HARMONICS_LOCKOUT_SEC } from './countdown';
import { CHART_PERMISSION_LEVEL, chartFeatures } from './permissions';
import { RefreshButton } from './RefreshButton';
import { harmonicOrders, harmonicsSeries } from './series';
import { useCommandFetch } from './useCommandFetch';
import { useSeriesLegend } from './useSeriesLegend';

const FEATURES = chartFeatures(CHART_PERMISSION_LEVEL);

/**
 * Harmonic spectrum of the selected device, asked for on arrival, on every device pick and on
 * Refresh (then locked for 60 s). Leaving the screen cancels a pending request.
 */
export function HarmonicsPage() {
  const { t } = useTranslation();
  const { query, secondsLeft, refresh } = useCommandFetch(useHarmonicsQuery, HARMONICS_LOCKOUT_SEC);
  const legend = useSeriesLegend();

  const data = query.data;
  const series = useMemo(() => (data ? harmonicsSeries(data) : []), [data]);
  const { names, selected } = legend;
  const option = useMemo(
    () =>
      series.length
        ? harmonicsOption({
            series,
            orders: harmonicOrders(series),
            legend: { names, selected, show: FEATURES.legend },
            zoom: FEATURES.zoom,
          })
        : null,
    [series, names, selected],
  );

  return (
    <CommandChartCard
      title={t('precision.harmonics_chart')}
      fileName="harmonics"
      option={option}
      columns={series.map((s) => ({ name: names[s.key], unit: '%', points: s.points }))}
      keyHeader={t('precision.order')}
      formatKey={String}
      loading={query.isFetching}
      emptyText={t('precision.no_data')}
      onLegendChange={legend.onChange}
      extra={
        <RefreshButton secondsLeft={secondsLeft} onRefresh={refresh} />
      }
    />
  );
}
