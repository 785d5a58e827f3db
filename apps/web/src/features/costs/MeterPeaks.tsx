import type { MonthPeak, PeaksData } from '@meterportal/protocol';
import { Card, Flex, Statistic, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ChartSeries } from '../../charts/options';
import { formatFixed } from '../../i18n/format';
import { formatInZone } from '../telemetry/zone';

/** Colours of the meter's own peaks and their average in the chart. */
const METER_PEAK_COLOR = '#fa8c16';
const METER_AVG_COLOR = '#13a8a8';

/**
 * Whether the answer carries the meter's own record of the capacity tariff (a P1 meter that
 * reports its monthly peaks, as Belgian meters do).
 */
export function hasMeterRecord(data: PeaksData | undefined): data is PeaksData {
  return !!data && data.months.some((m) => m.meterPeakKw !== undefined);
}

/** The meter's monthly peaks (columns) and their 12-month average (line), beside the portal's. */
export function meterSeries(months: readonly MonthPeak[], peakName: string, avgName: string): ChartSeries[] {
  const points = (pick: (m: MonthPeak) => number | null | undefined) =>
    months.flatMap((m) => {
      const v = pick(m);
      return v === null || v === undefined ? [] : [[m.monthMs, v] as [number, number]];
    });
  return [
    { name: peakName, kind: 'bar', color: METER_PEAK_COLOR, points: points((m) => m.meterPeakKw) },
    { name: avgName, kind: 'line', color: METER_AVG_COLOR, points: points((m) => m.meterAvg12Kw) },
  ];
}

/** Table columns of the meter's own record, under one heading so that they stay narrow. */
export function meterColumns(t: TFunction, tz: string): TableColumnsType<MonthPeak> {
  const kw = (v: number | null | undefined) =>
    v === null || v === undefined ? '-' : `${formatFixed(v, 3)} kW`;
  return [
    {
      title: t('costs.meter_group'),
      children: [
        { title: t('costs.peak_kw'), align: 'right', render: (_, m: MonthPeak) => kw(m.meterPeakKw) },
        {
          title: t('costs.meter_time'),
          render: (_, m: MonthPeak) =>
            m.meterAtMs === null || m.meterAtMs === undefined ? '-' : formatInZone(m.meterAtMs, 'L LT', tz),
        },
        { title: t('costs.avg12_kw'), align: 'right', render: (_, m: MonthPeak) => kw(m.meterAvg12Kw) },
      ],
    },
  ];
}

/** A figure in kW, or a dash without a unit when there is none. */
function KwStatistic({
  title,
  value,
  testId,
}: {
  title: string;
  value: number | null | undefined;
  testId: string;
}) {
  const known = value !== null && value !== undefined;
  return (
    <Statistic
      title={title}
      value={known ? formatFixed(value, 3) : '-'}
      {...(known ? { suffix: 'kW' } : {})}
      data-testid={testId}
    />
  );
}

/**
 * What the meter recorded against what the portal measured: the 12-month average the grid operator
 * bills from the meter's own monthly peaks, the portal's, this month's peak, and the meter's
 * running quarter-hour average as last reported.
 */
export function MeterRecordCard({ data, tz }: { data: PeaksData; tz: string }) {
  const { t } = useTranslation();
  const latest = data.months.at(-1);
  const { meterAverageKw, meterAverageAtMs } = data.running;
  return (
    <Card title={t('costs.meter_record')} data-testid="meter-record">
      <Typography.Paragraph type="secondary">{t('costs.meter_record_note')}</Typography.Paragraph>
      <Flex gap={24} wrap>
        <KwStatistic title={t('costs.meter_billed_avg')} value={latest?.meterAvg12Kw} testId="meter-avg12" />
        <KwStatistic title={t('costs.portal_avg')} value={latest?.avg12Kw} testId="portal-avg12" />
        <KwStatistic
          title={t('costs.meter_month_peak')}
          value={latest?.meterPeakKw}
          testId="meter-month-peak"
        />
        <Flex vertical>
          <KwStatistic
            title={t('costs.meter_running_average')}
            value={meterAverageKw}
            testId="meter-average"
          />
          {meterAverageAtMs !== null && meterAverageAtMs !== undefined && (
            <Typography.Text type="secondary">
              {t('costs.meter_reported', { time: formatInZone(meterAverageAtMs, 'L LTS', tz) })}
            </Typography.Text>
          )}
        </Flex>
      </Flex>
    </Card>
  );
}
