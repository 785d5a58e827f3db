import {
  DownloadOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  PrinterOutlined,
  TableOutlined,
} from '@ant-design/icons';
import {
  Button,
  Card,
  Dropdown,
  Empty,
  Flex,
  Segmented,
  Spin,
  Table,
  theme,
  Typography,
  type MenuProps,
} from 'antd';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../app/settings';
import { formatInZone, installationZone } from '../features/telemetry/zone';
import { EChart } from './EChart';
import type { EChartsType } from './echarts';
import { exportCsv, exportPdf, exportPng, exportXlsx, printChart } from './exporters';
import { formatNumber, isoTime, withUnit } from '../i18n/format';
import {
  periodMaximum,
  timeChartOption,
  type AxisRule,
  type ChartBuckets,
  type ChartLine,
  type ChartSeries,
} from './options';
import { format3, toTable } from './series';

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
}

/** A chart with its menu: y-axis type, export (PNG, CSV, XLSX, PDF, print), full screen, data. */
export function ChartCard(props: ChartCardProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const { token } = theme.useToken();
  const dark = useSettings((s) => s.theme) === 'dark';
  const [chart, setChart] = useState<EChartsType | null>(null);
  const [showData, setShowData] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const card = useRef<HTMLDivElement>(null);
  const fmt = props.timeFormat ?? 'L LTS';
  // Times read in the installation's zone, like the ranges the charts ask for.
  const tz = installationZone();
  const formatTime = useMemo(() => (ms: number) => formatInZone(ms, fmt, tz), [fmt, tz]);

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === card.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

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
  const hasData = props.series.some((s) => s.points.length > 0);
  const background = dark ? '#141414' : '#ffffff';

  const exportItems: MenuProps['items'] = [
    { key: 'png', label: t('chart.png') },
    { key: 'csv', label: t('chart.csv'), title: t('chart.file_note') },
    { key: 'xlsx', label: t('chart.xlsx'), title: t('chart.file_note') },
    { key: 'pdf', label: t('chart.pdf') },
    { key: 'print', icon: <PrinterOutlined />, label: t('chart.print') },
  ];
  const onExport: MenuProps['onClick'] = ({ key }) => {
    if (key === 'csv')
      return exportCsv(named, props.fileName, t('chart.time_iso'), isoTime, t('chart.file_note'));
    if (key === 'xlsx') return void exportXlsx(named, props.fileName, t('chart.time'), t('chart.file_note'));
    if (!chart) return;
    if (key === 'png') exportPng(chart, props.fileName, background);
    else if (key === 'pdf') void exportPdf(chart, props.fileName, props.title, background);
    else if (key === 'print') printChart(chart, props.title);
  };
  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void card.current?.requestFullscreen();
  };

  const table = toTable(named);
  return (
    <div
      ref={card}
      className="chart-card"
      style={{ background: fullscreen ? token.colorBgContainer : undefined }}
    >
      <Card
        title={props.title}
        extra={
          <Flex gap={8} wrap align="center" className="chart-actions">
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
            <Dropdown
              menu={{ items: exportItems, onClick: onExport }}
              trigger={['click']}
              disabled={!hasData}
            >
              <Button size="small" icon={<DownloadOutlined />}>
                {t('chart.export')}
              </Button>
            </Dropdown>
            <Button
              size="small"
              icon={<TableOutlined />}
              onClick={() => setShowData((v) => !v)}
              disabled={!hasData}
              aria-pressed={showData}
            >
              {showData ? t('chart.hide_data') : t('chart.view_data')}
            </Button>
            <Button
              size="small"
              aria-label={fullscreen ? t('chart.exit_fullscreen') : t('chart.fullscreen')}
              title={fullscreen ? t('chart.exit_fullscreen') : t('chart.fullscreen')}
              icon={fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
              onClick={toggleFullscreen}
            />
          </Flex>
        }
      >
        {maximum && (
          <Typography.Text type="secondary" className="chart-maximum" data-testid="chart-maximum">
            {t('chart.maximum', {
              value: withUnit(formatNumber(maximum.v), props.unit),
              time: formatTime(maximum.t),
              series: maximum.name,
            })}
          </Typography.Text>
        )}
        <div style={{ position: 'relative' }}>
          <EChart option={option} dark={dark} onLegendChange={props.onLegendChange} onReady={setChart} />
          {(props.loading || (!hasData && props.emptyText)) && (
            <div className="loader-overlay" style={{ background: 'transparent' }}>
              {props.loading ? <Spin /> : <Empty description={props.emptyText} />}
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
              { key: 'time', title: t('chart.time'), render: (_v, r) => formatTime(r[0] ?? 0) },
              ...table.header.map((h, i) => ({
                key: h,
                title: h,
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
