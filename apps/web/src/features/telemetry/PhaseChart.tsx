import { useTranslation } from 'react-i18next';
import { ChartCard } from '../../charts/ChartCard';
import { PHASE_COLORS, type ChartSeries } from '../../charts/options';
import type { Point } from '../../charts/series';
import { usePhaseVisibility, useYAxisType, type PhaseKey } from './chartState';

interface PhaseChartProps {
  title: string;
  fileName: string;
  unit: string;
  kind: 'line' | 'area';
  series: Partial<Record<PhaseKey, readonly Point[]>>;
  startLogarithmic?: boolean;
  loading?: boolean;
  emptyText?: string;
  live?: boolean;
}

const ORDER: readonly PhaseKey[] = ['L1', 'L2', 'L3', 'SUM', 'AVG'];

/** A per-phase chart whose legend is the remembered phase visibility (L1-L3, SUM, AVG). */
export function PhaseChart(props: PhaseChartProps) {
  const { t } = useTranslation();
  const [phases, setPhase] = usePhaseVisibility();
  const [yAxisType, setYAxisType] = useYAxisType(props.startLogarithmic);
  const label = (k: PhaseKey) => (k === 'SUM' ? t('chart.sum') : k === 'AVG' ? t('chart.avg') : k);
  const keys = ORDER.filter((k) => props.series[k] !== undefined);
  const series: ChartSeries[] = keys.map((k) => ({
    name: label(k),
    points: props.series[k] ?? [],
    kind: props.kind,
    color: PHASE_COLORS[k],
  }));
  const selected = Object.fromEntries(keys.map((k) => [label(k), phases[k]]));
  return (
    <ChartCard
      title={props.title}
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
      {...(props.emptyText ? { emptyText: props.emptyText } : {})}
    />
  );
}
