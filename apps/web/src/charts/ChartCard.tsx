import { Segmented, Typography } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatInZone, installationZone } from '../features/telemetry/zone';
import { formatNumber, withUnit } from '../i18n/format';
import { ChartFrame } from './ChartFrame';
import {
  periodMaximum,
  timeChartOption,
  type AxisRule,
  type ChartBand,
  type ChartBuckets,
  type ChartLine,
  type ChartSeries,
} from './options';

interface ChartCardProps {
  title: string;
  /** File name stem for exports. */
  fileName: string;
  series: readonly ChartSeries[];
  unit: string;
  yAxisType: 'linear' | 'logarithmic';
  onYAxisTypeChange: (type: 'linear' | 'logarithmic') => void;
  selected: Record<string, boolean>;
  onLegendChange: (selected: Record<string, boolean>) => void;
  lines?: readonly ChartLine[];
  loading?: boolean;
  /** Text shown instead of the chart when there is nothing to draw. */
  emptyText?: string;
  live?: boolean;
  /** Extra controls in the card header (the MRK/RK settings). */
  extra?: ReactNode;
  timeFormat?: string;
  axisRule?: AxisRule;
  buckets?: ChartBuckets;
  /** Columns above a reference line are drawn in its colour. */
  highlightAbove?: boolean;
  /** Start of the interval that is not over yet. */
  partialFrom?: number;
  /** Shows the highest shown value of the period and its time. */
  showMaximum?: boolean;
  /** A shaded band behind the series. */
  band?: ChartBand;
}

/** A time chart with its menu: y-axis type, export (PNG, CSV, XLSX, PDF, print), full screen, data. */
export function ChartCard(props: ChartCardProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const fmt = props.timeFormat ?? 'L LTS';
  // Times read in the installation's zone, like the ranges the charts ask for.
  const tz = installationZone();
  const formatTime = useMemo(() => (ms: number) => formatInZone(ms, fmt, tz), [fmt, tz]);

  const option = useMemo(
    () =>
      timeChartOption({
        series: props.series,
        unit: props.unit,
        yAxisType: props.yAxisType,
        selected: props.selected,
        lines: props.lines ?? [],
        formatTime,
        zone: tz,
        animate: !props.live,
        zoom: !props.live,
        ...(props.axisRule ? { axisRule: props.axisRule } : {}),
        ...(props.buckets ? { buckets: props.buckets } : {}),
        ...(props.band ? { band: props.band } : {}),
        ...(props.highlightAbove ? { highlightAbove: true } : {}),
        ...(props.partialFrom !== undefined
          ? { partial: { from: props.partialFrom, label: t('chart.partial') } }
          : {}),
      }),
    // The language is a dependency: axis and tooltip numbers are formatted in it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [
      props.series,
      props.unit,
      props.yAxisType,
      props.selected,
      props.lines,
      props.live,
      props.axisRule,
      props.buckets,
      props.highlightAbove,
      props.partialFrom,
      props.band,
      formatTime,
      tz,
      language,
      t,
    ],
  );

  const named = props.series.map((s) => ({
    name: props.unit ? `${s.name} (${props.unit})` : s.name,
    points: s.points,
  }));
  const maximum = props.showMaximum
    ? periodMaximum(props.series.filter((s) => props.selected[s.name] !== false))
    : null;

  return (
    <ChartFrame
      title={props.title}
      fileName={props.fileName}
      option={option}
      onLegendChange={props.onLegendChange}
      columns={named}
      dataKey={{
        tableHeader: t('chart.time'),
        formatTable: formatTime,
        csvHeader: t('chart.time_iso'),
        // Files carry ISO 8601 times with their offset (`2026-03-29T02:15:00+02:00`).
        formatFile: (ms: number) => formatInZone(ms, 'YYYY-MM-DDTHH:mm:ssZ', tz),
        xlsxHeader: t('chart.time'),
        xlsxKind: 'time',
      }}
      loading={props.loading ?? false}
      {...(props.emptyText ? { emptyText: props.emptyText } : {})}
      actions="buttons"
      extra={
        <>
          {props.extra}
          <Segmented<'linear' | 'logarithmic'>
            size="small"
            value={props.yAxisType}
            onChange={props.onYAxisTypeChange}
            options={[
              { value: 'linear', label: t('chart.linear') },
              { value: 'logarithmic', label: t('chart.logarithmic') },
            ]}
          />
        </>
      }
      above={
        maximum && (
          <Typography.Text type="secondary" className="chart-maximum" data-testid="chart-maximum">
            {t('chart.maximum', {
              value: withUnit(formatNumber(maximum.v), props.unit),
              time: formatTime(maximum.t),
              series: maximum.name,
            })}
          </Typography.Text>
        )
      }
    />
  );
}
