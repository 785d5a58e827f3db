import type { ReactNode } from 'react';
import { ChartFrame } from '../../charts/ChartFrame';
import type { EChartsCoreOption } from '../../charts/echarts';
import type { NamedSeries } from '../../charts/series';

/** Keys in files: plain dot-decimal numbers (orders, milliseconds). */
const machineKey = (key: number) => String(Number(key.toPrecision(12)));

export interface TableColumn extends NamedSeries {
  /** Unit shown in the data table's header. */
  unit: string;
}

interface CommandChartCardProps {
  title: string;
  /** File name stem for exports. */
  fileName: string;
  /** Null until there is something to draw. */
  option: EChartsCoreOption | null;
  /** The drawn series for the files and the data table, keyed by order or time in ms. */
  columns: readonly TableColumn[];
  keyHeader: string;
  formatKey: (key: number) => string;
  loading: boolean;
  emptyText: string;
  onLegendChange: (selected: Record<string, boolean>) => void;
  /** Controls in the header before the chart menu (Refresh). */
  extra?: ReactNode;
  /** A line of figures above the chart (THD per phase). */
  summary?: ReactNode;
}

/**
 * A device-command chart (harmonics, waveform) in the charts' one shell, with every action in its
 * menu: full screen, print, CSV, XLSX, PNG, PDF and the data table.
 */
export function CommandChartCard(props: CommandChartCardProps) {
  return (
    <ChartFrame
      title={props.title}
      fileName={props.fileName}
      option={props.option}
      onLegendChange={props.onLegendChange}
      columns={props.columns}
      tableTitles={props.columns.map((c) => `${c.name} (${c.unit})`)}
      dataKey={{
        tableHeader: props.keyHeader,
        formatTable: props.formatKey,
        csvHeader: props.keyHeader,
        formatFile: machineKey,
        xlsxHeader: props.keyHeader,
        xlsxKind: 'number',
      }}
      loading={props.loading}
      emptyText={props.emptyText}
      actions="menu"
      className="command-chart"
      extra={props.extra}
      above={props.summary}
    />
  );
}
