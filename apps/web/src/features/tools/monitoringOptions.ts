import type { EChartsCoreOption } from '../../charts/echarts';
import { format3 } from '../../charts/series';
import { STATE_COLORS, type DayColumn } from './monitoringRules';

interface DayColumnsInput {
  columns: readonly DayColumn[];
  labels: { online: string; offline: string; unit: string };
  formatDay: (ms: number) => string;
  /** Highlighted column (the day whose slots are shown). */
  selectedMs: number | null;
}

/** Stacked columns of online and offline hours, one category per local day. */
export function dayColumnsOption(input: DayColumnsInput): EChartsCoreOption {
  const bar = (name: string, key: 'onlineH' | 'offlineH', color: string) => ({
    name,
    type: 'bar',
    stack: 'hours',
    barMaxWidth: 64,
    itemStyle: { color },
    data: input.columns.map((c) => ({
      value: c[key],
      day: c.dayMs,
      itemStyle: c.dayMs === input.selectedMs ? { color, borderColor: '#1668dc', borderWidth: 2 } : { color },
    })),
  });
  return {
    animation: true,
    grid: { left: 16, right: 24, top: 48, bottom: 24, containLabel: true },
    legend: { top: 8 },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (v: unknown) => `${format3(Number(v))} ${input.labels.unit}`,
    },
    xAxis: { type: 'category', data: input.columns.map((c) => input.formatDay(c.dayMs)) },
    yAxis: { type: 'value', name: input.labels.unit, min: 0, max: 24, interval: 6 },
    series: [
      bar(input.labels.online, 'onlineH', STATE_COLORS.online),
      bar(input.labels.offline, 'offlineH', STATE_COLORS.offline),
    ],
  };
}
