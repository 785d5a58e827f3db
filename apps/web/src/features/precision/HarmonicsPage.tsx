import { Checkbox, Flex, Segmented, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { formatFixed } from '../../i18n/format';
import { useTranslation } from 'react-i18next';
import { useHarmonicsQuery } from './api';
import { harmonicsOption } from './chartOptions';
import { CommandChartCard } from './CommandChartCard';
import { HARMONICS_LOCKOUT_SEC } from './countdown';
import { CHART_PERMISSION_LEVEL, chartFeatures } from './permissions';
import { RefreshButton } from './RefreshButton';
import { harmonicOrders, harmonicsSeries, thdPercent } from './series';
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
  const [log, setLog] = useState(false);
  const [hideFundamental, setHideFundamental] = useState(false);

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
            log,
            hideFundamental,
          })
        : null,
    [series, names, selected, log, hideFundamental],
  );
  const summary = series.length ? (
    <Flex gap={16} wrap className="harmonics-thd" data-testid="harmonics-thd" style={{ marginBottom: 8 }}>
      {series.map((s) => (
        <Typography.Text key={s.key} type="secondary">
          {t('precision.thd_of', { series: names[s.key], value: formatFixed(thdPercent(s.points), 2) })}
        </Typography.Text>
      ))}
    </Flex>
  ) : undefined;

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
      summary={summary}
      extra={
        <>
          <Segmented<'linear' | 'logarithmic'>
            size="small"
            value={log ? 'logarithmic' : 'linear'}
            onChange={(v) => setLog(v === 'logarithmic')}
            options={[
              { value: 'linear', label: t('chart.linear') },
              { value: 'logarithmic', label: t('chart.logarithmic') },
            ]}
          />
          <Checkbox checked={hideFundamental} onChange={(e) => setHideFundamental(e.target.checked)}>
            {t('precision.hide_fundamental')}
          </Checkbox>
          <RefreshButton secondsLeft={secondsLeft} onRefresh={refresh} />
        </>
      }
    />
  );
}
