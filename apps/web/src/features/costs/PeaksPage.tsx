import type { DeviceListEntry, MonthPeak, RunningQuarter } from '@meterportal/protocol';
import { Card, Empty, Flex, Progress, Statistic, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isDataNotFound } from '../../api/http';
import { ChartCard } from '../../charts/ChartCard';
import type { ChartBuckets, ChartLine, ChartSeries } from '../../charts/options';
import { formatFixed } from '../../i18n/format';
import { useSelectedDevice } from '../devices/selection';
import { useYAxisType } from '../telemetry/chartState';
import { LIMIT_COLORS } from '../telemetry/contractLimits';
import { GraphToolbar } from '../telemetry/GraphToolbar';
import { formatInZone, installationZone } from '../telemetry/zone';
import { usePeaksQuery } from './api';
import { percentOf, shareStatus } from './costRules';
import { MeterRecordCard, hasMeterRecord, meterColumns, meterSeries } from './MeterPeaks';

/**
 * Monthly quarter-hour peaks, their 12-month average, and the running quarter against MRK and RK;
 * for a meter that records its own peaks (Belgian capacity tariff), those beside the portal's.
 */
export function PeaksPage() {
  const { t } = useTranslation();
  const device = useSelectedDevice();
  return (
    <>
      <GraphToolbar showSource={false} />
      {device ? <PeaksView device={device} /> : <Empty description={t('common.data_not_found')} />}
    </>
  );
}

function PeaksView({ device }: { device: DeviceListEntry }) {
  const { t } = useTranslation();
  const tz = installationZone();
  const query = usePeaksQuery(device.token);
  const [yAxisType, setYAxisType] = useYAxisType();
  const [visible, setVisible] = useState<Record<string, boolean>>({});
  const data = query.isError ? undefined : query.data;
  const peakName = t('costs.peak_kw');
  const avgName = t('costs.avg12_kw');
  const meterPeakName = t('costs.meter_peak_kw');
  const meterAvgName = t('costs.meter_avg12_kw');
  const ownRecord = hasMeterRecord(data);
  const series = useMemo<ChartSeries[]>(
    () => [
      {
        name: peakName,
        kind: 'bar',
        color: '#1668dc',
        points: (data?.months ?? []).flatMap((m) => (m.peakKw === null ? [] : [[m.monthMs, m.peakKw]])),
      },
      {
        name: avgName,
        kind: 'line',
        color: '#722ed1',
        points: (data?.months ?? []).flatMap((m) => (m.avg12Kw === null ? [] : [[m.monthMs, m.avg12Kw]])),
      },
      ...(ownRecord ? meterSeries(data.months, meterPeakName, meterAvgName) : []),
    ],
    [data, ownRecord, peakName, avgName, meterPeakName, meterAvgName],
  );
  // Each month is a column of its own, labelled with its name, as on the monthly energy chart.
  const buckets = useMemo<ChartBuckets | undefined>(
    () =>
      data && data.months.length > 0
        ? {
            times: data.months.map((m) => m.monthMs).sort((a, b) => a - b),
            label: (ms) => formatInZone(ms, 'MMM YY', tz),
          }
        : undefined,
    // The labels are in the current language.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [data, tz, t],
  );
  const shown = (name: string) => visible[name] ?? true;
  const running = data?.running;
  const lines = useMemo<ChartLine[]>(
    () => [
      ...(running && running.mrkKw > 0
        ? [{ name: t('chart.mrk'), value: running.mrkKw, color: LIMIT_COLORS.MRK }]
        : []),
      ...(running && running.rkKw > 0
        ? [{ name: t('chart.rk'), value: running.rkKw, color: LIMIT_COLORS.RK }]
        : []),
    ],
    [running, t],
  );
  const empty = query.isError
    ? isDataNotFound(query.error)
      ? t('common.data_not_found')
      : t('common.api_communication_error')
    : undefined;
  const kw = (v: number | null) => (v === null ? '-' : `${formatFixed(v, 3)} kW`);

  return (
    <Flex vertical gap={16}>
      {running && <RunningCard running={running} tz={tz} />}
      {ownRecord && <MeterRecordCard data={data} tz={tz} />}
      <ChartCard
        title={t('costs.monthly_peaks')}
        fileName="capacity-peaks"
        series={series}
        unit="kW"
        yAxisType={yAxisType}
        onYAxisTypeChange={setYAxisType}
        selected={{
          [peakName]: shown(peakName),
          [avgName]: shown(avgName),
          ...(ownRecord
            ? { [meterPeakName]: shown(meterPeakName), [meterAvgName]: shown(meterAvgName) }
            : {}),
        }}
        onLegendChange={setVisible}
        lines={lines}
        highlightAbove
        loading={query.isFetching && !data}
        timeFormat="MMMM YYYY"
        {...(buckets ? { buckets } : {})}
        {...(empty ? { emptyText: empty } : {})}
      />
      <Card title={t('costs.monthly_peaks')}>
        <Table<MonthPeak>
          data-testid="peaks-table"
          rowKey="monthMs"
          size="small"
          pagination={false}
          scroll={{ x: 'max-content' }}
          dataSource={[...(data?.months ?? [])].reverse()}
          columns={[
            { title: t('costs.month'), render: (_, m) => formatInZone(m.monthMs, 'MMMM YYYY', tz) },
            { title: t('costs.peak_kw'), align: 'right', render: (_, m) => kw(m.peakKw) },
            {
              title: t('costs.peak_time'),
              render: (_, m) => (m.atMs === null ? '-' : formatInZone(m.atMs, 'L LT', tz)),
            },
            { title: t('costs.avg12_kw'), align: 'right', render: (_, m) => kw(m.avg12Kw) },
            ...(ownRecord ? meterColumns(t, tz) : []),
          ]}
        />
      </Card>
    </Flex>
  );
}

/** The running quarter hour: demand so far, its projection, and its share of MRK, RK and the month's peak. */
function RunningCard({ running, tz }: { running: RunningQuarter; tz: string }) {
  const { t } = useTranslation();
  const shares = [
    { key: 'mrk', name: t('chart.mrk'), label: t('costs.of_mrk'), limit: running.mrkKw },
    { key: 'rk', name: t('chart.rk'), label: t('costs.of_rk'), limit: running.rkKw },
    { key: 'peak', name: t('costs.month_peak'), label: t('costs.of_month_peak'), limit: running.monthPeakKw },
  ];
  return (
    <Card
      title={t('costs.running_quarter')}
      extra={
        <Typography.Text type="secondary">
          {t('costs.since', { time: formatInZone(running.startMs, 'LT', tz), elapsed: running.elapsedSec })}
        </Typography.Text>
      }
      data-testid="running-quarter"
    >
      <Flex gap={24} wrap>
        <Statistic title={t('costs.demand_so_far')} value={formatFixed(running.demandKw, 3)} suffix="kW" />
        <Statistic title={t('costs.projected')} value={formatFixed(running.projectedKw, 3)} suffix="kW" />
        <Flex vertical gap={4} style={{ minWidth: 240, flex: 1 }}>
          {shares.map((s) => {
            const pct = percentOf(running.projectedKw, s.limit);
            return (
              <div key={s.key}>
                <Typography.Text>
                  {pct === null
                    ? `${s.name}: ${t('costs.not_set')}`
                    : `${pct} % ${s.label} (${formatFixed(s.limit, 3)} kW)`}
                </Typography.Text>
                <Progress
                  percent={Math.min(pct ?? 0, 100)}
                  status={shareStatus(pct)}
                  showInfo={false}
                  strokeColor={pct !== null && pct > 100 ? '#cf1322' : undefined}
                />
              </div>
            );
          })}
        </Flex>
      </Flex>
    </Card>
  );
}
