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
import { Button, Card, Dropdown, Empty, Flex, Spin, Table, theme, type MenuProps } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../app/settings';
import { EChart } from './EChart';
import type { EChartsCoreOption, EChartsType } from './echarts';
import { exportCsv, exportPdf, exportPng, exportXlsx, printChart } from './exporters';
import { format3, toTable, type NamedSeries } from './series';

/** What the first column of the data table and of the files holds: a time, or a number. */
export interface FrameKey {
  /** Header of the key column in the data table. */
  tableHeader: string;
  /** The key as the data table shows it. */
  formatTable: (key: number) => string;
  /** Header of the key column in CSV files. */
  csvHeader: string;
  /** The key as CSV files hold it. */
  formatFile: (key: number) => string;
  /** Header of the key column in XLSX files. */
  xlsxHeader: string;
  /** XLSX cells: a spreadsheet date-time, or a plain number. */
  xlsxKind: 'time' | 'number';
}

interface ChartFrameProps {
  title: string;
  /** File name stem for exports. */
  fileName: string;
  /** Null until there is something to draw. */
  option: EChartsCoreOption | null;
  onLegendChange: (selected: Record<string, boolean>) => void;
  /** The drawn series, for the files and the data table. */
  columns: readonly NamedSeries[];
  /** Titles of the columns in the data table, when they differ from the series' names. */
  tableTitles?: readonly string[];
  dataKey: FrameKey;
  loading: boolean;
  /** Shown over the chart when there is nothing to draw; without it an empty chart stays bare. */
  emptyText?: string;
  /** Controls in the header before the chart's own. */
  extra?: ReactNode;
  /** A line of figures above the chart (the period's maximum, THD per phase). */
  above?: ReactNode;
  /**
   * `buttons`: the export menu, a data-table toggle and full screen side by side (time charts);
   * `menu`: every action in one menu (the device-command charts of the precision area).
   */
  actions: 'buttons' | 'menu';
  className?: string;
}

/**
 * The one shell of every chart: the card, full screen, the files (PNG, CSV, XLSX, PDF, print),
 * the data table and the loading and empty states around an ECharts option.
 */
export function ChartFrame(props: ChartFrameProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
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
  const key = props.dataKey;
  const note = t('chart.file_note');

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void frame.current?.requestFullscreen();
  };
  const onAction: MenuProps['onClick'] = ({ key: action }) => {
    if (action === 'fullscreen') return toggleFullscreen();
    if (action === 'data') return setShowData((v) => !v);
    if (action === 'csv')
      return exportCsv(props.columns, props.fileName, key.csvHeader, key.formatFile, note);
    if (action === 'xlsx')
      return void exportXlsx(props.columns, props.fileName, key.xlsxHeader, note, key.xlsxKind);
    if (!chart) return;
    if (action === 'png') exportPng(chart, props.fileName, background);
    else if (action === 'pdf') void exportPdf(chart, props.fileName, props.title, background);
    else if (action === 'print') printChart(chart, props.title);
  };

  const menu = props.actions === 'menu';
  const files: NonNullable<MenuProps['items']> = menu
    ? [
        { key: 'csv', icon: <FileTextOutlined />, label: t('chart.csv'), title: note },
        { key: 'xlsx', icon: <FileExcelOutlined />, label: t('chart.xlsx'), title: note },
        { key: 'png', icon: <FileImageOutlined />, label: t('chart.png') },
        { key: 'pdf', icon: <FilePdfOutlined />, label: t('chart.pdf') },
      ]
    : [
        { key: 'png', label: t('chart.png') },
        { key: 'csv', label: t('chart.csv'), title: note },
        { key: 'xlsx', label: t('chart.xlsx'), title: note },
        { key: 'pdf', label: t('chart.pdf') },
        { key: 'print', icon: <PrinterOutlined />, label: t('chart.print') },
      ];
  const dataLabel = showData ? t('chart.hide_data') : t('chart.view_data');
  const fullscreenLabel = fullscreen ? t('chart.exit_fullscreen') : t('chart.fullscreen');
  const fullscreenIcon = fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />;
  const items: MenuProps['items'] = menu
    ? [
        { key: 'fullscreen', icon: fullscreenIcon, label: fullscreenLabel },
        { key: 'print', icon: <PrinterOutlined />, label: t('chart.print') },
        { type: 'divider' },
        ...files,
        { type: 'divider' },
        { key: 'data', icon: <TableOutlined />, label: dataLabel },
      ]
    : files;

  const table = toTable(props.columns);
  const titles = props.tableTitles ?? props.columns.map((c) => c.name);
  return (
    <div
      ref={frame}
      className={['chart-card', props.className].filter(Boolean).join(' ')}
      style={{ background: fullscreen ? token.colorBgContainer : undefined }}
    >
      <Card
        title={props.title}
        extra={
          <Flex gap={8} wrap align="center" className="chart-actions">
            {props.extra}
            <Dropdown menu={{ items, onClick: onAction }} trigger={['click']} disabled={!hasData}>
              <Button size="small" icon={<DownloadOutlined />}>
                {t('chart.export')}
              </Button>
            </Dropdown>
            {!menu && (
              <>
                <Button
                  size="small"
                  icon={<TableOutlined />}
                  onClick={() => setShowData((v) => !v)}
                  disabled={!hasData}
                  aria-pressed={showData}
                >
                  {dataLabel}
                </Button>
                <Button
                  size="small"
                  aria-label={fullscreenLabel}
                  title={fullscreenLabel}
                  icon={fullscreenIcon}
                  onClick={toggleFullscreen}
                />
              </>
            )}
          </Flex>
        }
      >
        {props.above}
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
          {(props.loading || (!hasData && props.emptyText)) && (
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
              { key: 'key', title: key.tableHeader, render: (_v, r) => key.formatTable(r[0] ?? 0) },
              ...titles.map((title, i) => ({
                key: title,
                title,
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
