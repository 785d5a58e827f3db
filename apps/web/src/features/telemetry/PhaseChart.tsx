import { Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard } from '../../charts/ChartCard';
import { PHASE_COLORS, type ChartSeries } from '../../charts/options';
import type { Point } from '../../charts/series';
import { usePhaseVisibility, useYAxisType, type PhaseKey } from './chartState';
import { aggregatesFor, axisRuleFor } from './quantityRules';
import type { Quantity } from './views';

interface PhaseChartProps {
  title: string;
  fileName: string;
  unit: string;
  /** What is measured: decides the aggregates offered and the value axis rule. */
  quantity: Quantity;
  kind: 'line' | 'area';
  series: Partial<Record<PhaseKey, readonly Point[]>>;
  startLogarithmic?: boolean;
  loading?: boolean;
  emptyText?: string;
  live?: boolean;
  /** A short note beside the chart's actions, such as the resolution of its points. */
  note?: string;
  /** The full-range download menu, on history charts. */
  download?: ReactNode;
}

const ORDER: readonly PhaseKey[] = ['L1', 'L2', 'L3', 'SUM', 'AVG'];

/**
 * A per-phase chart whose legend is the remembered phase visibility (L1-L3 and the one aggregate
 * that means something for the quantity: SUM or AVG). Live and history charts are titled apart.
 */
export function PhaseChart(props: PhaseChartProps) {
  const { t } = useTranslation();
  const [phases, setPhase] = usePhaseVisibility();
  const [yAxisType, setYAxisType] = useYAxisType(props.startLogarithmic);
  const aggregates = aggregatesFor(props.quantity);
  const label = (k: PhaseKey) => (k === 'SUM' ? t('chart.sum') : k === 'AVG' ? t('chart.avg') : k);
  const keys = ORDER.filter(
    (k) => props.series[k] !== undefined && (k.startsWith('L') || aggregates.includes(k as 'SUM' | 'AVG')),
  );
  const series: ChartSeries[] = keys.map((k) => ({
    name: label(k),
    points: props.series[k] ?? [],
    kind: props.kind,
    color: PHASE_COLORS[k],
  }));
  const selected = Object.fromEntries(keys.map((k) => [label(k), phases[k]]));
  const rule = axisRuleFor(props.quantity);
  return (
    <ChartCard
      title={t(props.live ? 'chart.realtime_title' : 'chart.profile_title', { name: props.title })}
      {...(props.note || props.download
        ? {
            extra: (
              <>
                {props.note && (
                  <Typography.Text type="secondary" className="chart-resolution">
                    {props.note}
                  </Typography.Text>
                )}
                {props.download}
              </>
            ),
          }
        : {})}
      fileName={props.fileName}
      series={series}
      unit={props.unit}
      yAxisType={yAxisType}
      onYAxisTypeChange={setYAxisType}
      selected={selected}
      onLegendChange={(sel) => {
        for (const k of keys)
          if (sel[label(k)] !== undefined && sel[label(k)] !== phases[k]) setPhase(k, sel[label(k)]!);
      }}
      loading={props.loading ?? false}
      live={props.live ?? false}
      showMaximum={!props.live}
      {...(rule ? { axisRule: rule } : {})}
      {...(props.emptyText ? { emptyText: props.emptyText } : {})}
    />
  );
}
