import {
  DownloadOutlined,
  FileExcelOutlined,
  FileImageOutlined,
  FilePdfOutlined,
  FileTextOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  PrinterOutlined,
  TableOutlined,
} from '@ant-design/icons';
import { Button, Card, Dropdown, Empty, Flex, Spin, Table, type MenuProps } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../app/settings';
import { EChart } from '../../charts/EChart';
import type { EChartsCoreOption, EChartsType } from '../../charts/echarts';
import { exportCsv, exportPdf, exportPng, exportXlsx, printChart } from '../../charts/exporters';
import { format3, toTable, type NamedSeries } from '../../charts/series';

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
 * A device-command chart (harmonics, waveform) with its menu: full screen, print, CSV, XLSX, PNG,
 * PDF and the data table.
 */
export function CommandChartCard(props: CommandChartCardProps) {
  const { t } = useTranslation();
  const dark = useSettings((s) => s.theme) === 'dark';
  const [chart, setChart] = useState<EChartsType | null>(null);
  const [showData, setShowData] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const frame = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === frame.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const hasData = props.option !== null && props.columns.some((c) => c.points.length > 0);
  const background = dark ? '#141414' : '#ffffff';
  const items: MenuProps['items'] = [
    {
      key: 'fullscreen',
      icon: fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />,
      label: fullscreen ? t('chart.exit_fullscreen') : t('chart.fullscreen'),
    },
    { key: 'print', icon: <PrinterOutlined />, label: t('chart.print') },
    { type: 'divider' },
    { key: 'csv', icon: <FileTextOutlined />, label: t('chart.csv'), title: t('chart.file_note') },
    { key: 'xlsx', icon: <FileExcelOutlined />, label: t('chart.xlsx'), title: t('chart.file_note') },
    { key: 'png', icon: <FileImageOutlined />, label: t('chart.png') },
    { key: 'pdf', icon: <FilePdfOutlined />, label: t('chart.pdf') },
    { type: 'divider' },
    { key: 'data', icon: <TableOutlined />, label: showData ? t('chart.hide_data') : t('chart.view_data') },
  ];
  const onMenu: MenuProps['onClick'] = ({ key }) => {
    if (key === 'fullscreen') {
      if (document.fullscreenElement) void document.exitFullscreen();
      else void frame.current?.requestFullscreen();
    } else if (key === 'data') setShowData((v) => !v);
    else if (key === 'csv')
      exportCsv(props.columns, props.fileName, props.keyHeader, machineKey, t('chart.file_note'));
    else if (key === 'xlsx')
      void exportXlsx(props.columns, props.fileName, props.keyHeader, t('chart.file_note'), 'number');
    else if (!chart) return;
    else if (key === 'png') exportPng(chart, props.fileName, background);
    else if (key === 'pdf') void exportPdf(chart, props.fileName, props.title, background);
    else if (key === 'print') printChart(chart, props.title);
  };

  const table = toTable(props.columns);
  return (
    <div ref={frame} className="chart-card command-chart" style={fullscreen ? { background } : undefined}>
      <Card
        title={props.title}
        extra={
          <Flex gap={8} wrap align="center">
            {props.extra}
            <Dropdown menu={{ items, onClick: onMenu }} trigger={['click']} disabled={!hasData}>
              <Button size="small" icon={<DownloadOutlined />}>
                {t('chart.export')}
              </Button>
            </Dropdown>
          </Flex>
        }
      >
        {props.summary}
        <div style={{ position: 'relative' }}>
          {props.option ? (
            <EChart
              option={props.option}
              dark={dark}
              onLegendChange={props.onLegendChange}
              onReady={setChart}
            />
          ) : (
            <div className="chart-box" />
          )}
          {(props.loading || !hasData) && (
            <div className="loader-overlay" style={{ background: 'transparent' }}>
              {props.loading ? <Spin size="large" /> : <Empty description={props.emptyText} />}
            </div>
          )}
        </div>
        {showData && hasData && (
          <Table
            size="small"
            style={{ marginTop: 16 }}
            rowKey={(r) => String(r[0])}
            dataSource={table.rows}
            pagination={{ pageSize: 10, showSizeChanger: false }}
            scroll={{ x: true }}
            columns={[
              { key: 'key', title: props.keyHeader, render: (_v, r) => props.formatKey(r[0] ?? 0) },
              ...props.columns.map((c, i) => ({
                key: c.name,
                title: `${c.name} (${c.unit})`,
                align: 'right' as const,
                render: (_v: unknown, r: (number | null)[]) => format3(r[i + 1]),
              })),
            ]}
          />
        )}
      </Card>
    </div>
  );
}
