import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { format3 } from '../../charts/series';
import { useWaveformQuery } from './api';
import { waveformOption } from './chartOptions';
import { CommandChartCard } from './CommandChartCard';
import { WAVEFORM_LOCKOUT_SEC } from './countdown';
import { CHART_PERMISSION_LEVEL, chartFeatures } from './permissions';
import { RefreshButton } from './RefreshButton';
import { seriesParts, waveformSeries } from './series';
import { useCommandFetch } from './useCommandFetch';
import { useSeriesLegend } from './useSeriesLegend';

const FEATURES = chartFeatures(CHART_PERMISSION_LEVEL);

/**
 * One mains period of the selected device's voltages and currents, asked for on arrival, on every
 * device pick and on Refresh (then locked for 15 s). A pending request outlives the screen.
 */
export function WaveformPage() {
  const { t } = useTranslation();
  const { query, secondsLeft, refresh } = useCommandFetch(useWaveformQuery, WAVEFORM_LOCKOUT_SEC);
  const legend = useSeriesLegend();

  const data = query.data;
  const series = useMemo(() => (data ? waveformSeries(data) : []), [data]);
  const { names, selected } = legend;
  const currentAxis = t('precision.current_axis');
  const voltageAxis = t('precision.voltage_axis');
  const timeAxis = t('precision.time_ms');
  const option = useMemo(
    () =>
      series.length
        ? waveformOption({
            series,
            legend: { names, selected, show: FEATURES.legend },
            zoom: FEATURES.zoom,
            currentAxis,
            voltageAxis,
            timeAxis,
          })
        : null,
    [series, names, selected, currentAxis, voltageAxis, timeAxis],
  );

  return (
    <CommandChartCard
      title={t('precision.waveform_chart')}
      fileName="waveform"
      option={option}
      columns={series.map((s) => ({
        name: names[s.key],
        unit: seriesParts(s.key).kind === 'U' ? 'V' : 'A',
        points: s.points,
      }))}
      keyHeader={t('precision.time_ms')}
      formatKey={format3}
      loading={query.isFetching}
      emptyText={t('precision.no_data')}
      onLegendChange={legend.onChange}
      extra={<RefreshButton secondsLeft={secondsLeft} onRefresh={refresh} />}
    />
  );
}
