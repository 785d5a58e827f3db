import { PieChart } from 'echarts/charts';
import { echarts, type EChartsCoreOption } from '../../charts/echarts';
import { format3 } from '../../charts/series';
import type { MonitoringSlot } from './api';
import { STATE_COLORS, slotState, type DayColumn } from './monitoringRules';

// The shared ECharts bundle has lines and columns; only this area draws pies.
echarts.use([PieChart]);

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

interface SlotPieInput {
  slots: readonly MonitoringSlot[];
  /** Seconds in one slot: 1800 for the day pie, 60 for the minute pie. */
  slotSec: number;
  /** Every n-th slot carries a label, so the ring reads like a clock. */
  labelEvery: number;
  formatSlot: (ms: number) => string;
  title: string;
  tooltip: (slot: MonitoringSlot) => string;
}

/** A ring of equal slots coloured by availability, starting at the top like a clock. */
export function slotPieOption(input: SlotPieInput): EChartsCoreOption {
  return {
    animation: true,
    title: { text: input.title, left: 'center', top: 'middle', textStyle: { fontSize: 14 } },
    tooltip: {
      trigger: 'item',
      formatter: (p: { dataIndex: number }) => {
        const slot = input.slots[p.dataIndex];
        return slot ? input.tooltip(slot) : '';
      },
    },
    series: [
      {
        type: 'pie',
        radius: ['38%', '72%'],
        startAngle: 90,
        clockwise: true,
        avoidLabelOverlap: false,
        itemStyle: { borderColor: 'rgba(128,128,128,0.35)', borderWidth: 1 },
        label: { show: true, position: 'outside', formatter: (p: { data: { tick: string } }) => p.data.tick },
        labelLine: { show: true, length: 6, length2: 4 },
        data: input.slots.map((s, i) => ({
          value: 1,
          name: input.formatSlot(s.timestampMs),
          tick: input.formatSlot(s.timestampMs),
          label: { show: i % input.labelEvery === 0 },
          labelLine: { show: i % input.labelEvery === 0 },
          itemStyle: { color: STATE_COLORS[slotState(s.offlineSec, input.slotSec)] },
          timestampMs: s.timestampMs,
        })),
      },
    ],
  };
}
