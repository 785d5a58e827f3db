import { useEffect, useRef, useState } from 'react';
import { EChart } from '../../charts/EChart';
import type { EChartsCoreOption, EChartsType } from '../../charts/echarts';

/** What a click on a column or a pie sector reports. */
export interface ChartItemClick {
  seriesIndex: number;
  dataIndex: number;
  data: unknown;
}

interface ClickableChartProps {
  option: EChartsCoreOption;
  dark: boolean;
  onItemClick: (item: ChartItemClick) => void;
  className?: string;
}

/** The shared ECharts wrapper plus item clicks (the drill-down's only input). */
export function ClickableChart({ option, dark, onItemClick, className }: ClickableChartProps) {
  const [chart, setChart] = useState<EChartsType | null>(null);
  const handler = useRef(onItemClick);
  handler.current = onItemClick;

  useEffect(() => {
    if (!chart) return;
    const onClick = (p: unknown) => {
      const e = p as { componentType?: string; seriesIndex?: number; dataIndex?: number; data?: unknown };
      if (e.componentType !== 'series') return;
      handler.current({ seriesIndex: e.seriesIndex ?? 0, dataIndex: e.dataIndex ?? 0, data: e.data });
    };
    chart.on('click', onClick);
    return () => {
      chart.off('click', onClick);
    };
  }, [chart]);

  return <EChart option={option} dark={dark} onReady={setChart} {...(className ? { className } : {})} />;
}
