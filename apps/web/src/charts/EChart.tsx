import { useEffect, useRef } from 'react';
import { echarts, type EChartsCoreOption, type EChartsType } from './echarts';

interface EChartProps {
  option: EChartsCoreOption;
  dark: boolean;
  /** Legend clicks, with the full visibility map after the change. */
  onLegendChange?: (selected: Record<string, boolean>) => void;
  /** Receives the instance for exports (null when it goes away). */
  onReady?: (chart: EChartsType | null) => void;
  className?: string;
}

/** One ECharts instance bound to a div; follows the theme and the container's size. */
export function EChart({ option, dark, onLegendChange, onReady, className = 'chart-box' }: EChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const legendHandler = useRef(onLegendChange);
  legendHandler.current = onLegendChange;
  const lastOption = useRef(option);
  lastOption.current = option;

  useEffect(() => {
    if (!el.current) return;
    // A theme change needs a new instance: ECharts themes apply at init only.
    const instance = echarts.init(el.current, dark ? 'dark' : undefined, { renderer: 'canvas' });
    chart.current = instance;
    instance.setOption({ ...lastOption.current, backgroundColor: 'transparent' }, { notMerge: true });
    instance.on('legendselectchanged', (e) => {
      legendHandler.current?.((e as { selected: Record<string, boolean> }).selected);
    });
    onReady?.(instance);
    const ro = new ResizeObserver(() => instance.resize());
    ro.observe(el.current);
    return () => {
      ro.disconnect();
      onReady?.(null);
      instance.dispose();
      chart.current = null;
    };
    // onReady is a setter from the parent and stable; re-running only on theme change is intended.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dark]);

  useEffect(() => {
    chart.current?.setOption({ ...option, backgroundColor: 'transparent' }, { notMerge: true });
  }, [option]);

  return <div ref={el} className={className} />;
}
