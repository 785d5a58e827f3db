import type { PqHarmonicOrder, PqHarmonics } from '@meterportal/protocol';
import { Flex, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { formatFixed, formatNumber } from '../../i18n/format';
import { VERDICT_COLOR } from './verdictColor';

/** Props of the harmonic orders' table. */
export interface HarmonicsTableProps {
  harmonics: PqHarmonics;
  /** A phone: the share and worst interval open under each order. */
  narrow: boolean;
  /** An interval start in the installation's time. */
  formatTime: (sec: number) => string;
}

/** The week's individual harmonic voltages against the EN 50160 table, order by order. */
export function HarmonicsTable({ harmonics, narrow, formatTime }: HarmonicsTableProps) {
  const { t } = useTranslation();
  const share = (o: PqHarmonicOrder) =>
    o.achievedPct === null ? (
      <Typography.Text type="secondary">-</Typography.Text>
    ) : (
      <Flex vertical gap={0}>
        <Typography.Text style={{ whiteSpace: 'nowrap' }}>
          {formatNumber(o.achievedPct, 2)} % {o.worstPhase}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('power_quality.within_of', {
            within: formatNumber(o.within, 0),
            assessed: formatNumber(o.assessed, 0),
          })}
        </Typography.Text>
      </Flex>
    );
  const worst = (o: PqHarmonicOrder) =>
    o.worst === null ? (
      <Typography.Text type="secondary">-</Typography.Text>
    ) : (
      <Typography.Text style={{ whiteSpace: 'nowrap' }}>
        {formatTime(o.worst.startSec)}: {formatFixed(o.worst.value, 2)} % {o.worst.phase}
      </Typography.Text>
    );
  const columns: ColumnsType<PqHarmonicOrder> = [
    { key: 'order', title: t('power_quality.harmonic_order'), render: (_, o) => o.order },
    {
      key: 'limit',
      title: t('power_quality.harmonic_limit'),
      render: (_, o) => <span style={{ whiteSpace: 'nowrap' }}>≤ {formatFixed(o.limitPct, 1)} %</span>,
    },
    {
      key: 'result',
      title: t('power_quality.result'),
      render: (_, o) => (
        <Tag color={VERDICT_COLOR[o.verdict]} data-testid={`pq-harmonic-verdict-${o.order}`}>
          {t(`power_quality.verdict_${o.verdict}` as const)}
        </Tag>
      ),
    },
    ...(narrow
      ? []
      : [
          {
            key: 'share',
            title: t('power_quality.harmonic_worst_phase'),
            render: (_: unknown, o: PqHarmonicOrder) => share(o),
          },
          {
            key: 'worst',
            title: t('power_quality.harmonic_worst_interval'),
            render: (_: unknown, o: PqHarmonicOrder) => worst(o),
          },
        ]),
  ];
  return (
    <Flex vertical gap={8} data-testid="pq-harmonics">
      <Flex gap={8} align="center" wrap>
        <Typography.Text strong>{t('power_quality.harmonics_title')}:</Typography.Text>
        <Tag color={VERDICT_COLOR[harmonics.verdict]} data-testid="pq-harmonics-verdict">
          {t(`power_quality.verdict_${harmonics.verdict}` as const)}
        </Tag>
      </Flex>
      <Typography.Text type="secondary" data-testid="pq-harmonics-coverage">
        {t('power_quality.harmonics_coverage', {
          with: formatNumber(harmonics.intervalsWithSpectrum, 0),
          intervals: formatNumber(harmonics.intervalsInWeek, 0),
          pct: formatNumber(harmonics.coveragePct, 2),
          required: formatNumber(harmonics.requiredPct, 1),
        })}
      </Typography.Text>
      {harmonics.intervalsWithSpectrum === 0 ? (
        <Typography.Text type="secondary" data-testid="pq-harmonics-empty">
          {t('power_quality.harmonics_no_data')}
        </Typography.Text>
      ) : (
        <Table<PqHarmonicOrder>
          rowKey="order"
          size="small"
          pagination={false}
          columns={columns}
          dataSource={harmonics.orders}
          data-testid="pq-harmonics-table"
          {...(narrow
            ? {
                expandable: {
                  expandedRowRender: (o: PqHarmonicOrder) => (
                    <Flex vertical gap={8}>
                      <span>
                        <Typography.Text type="secondary">
                          {t('power_quality.harmonic_worst_phase')}:{' '}
                        </Typography.Text>
                        {share(o)}
                      </span>
                      <span>
                        <Typography.Text type="secondary">
                          {t('power_quality.harmonic_worst_interval')}:{' '}
                        </Typography.Text>
                        {worst(o)}
                      </span>
                    </Flex>
                  ),
                },
              }
            : {})}
        />
      )}
    </Flex>
  );
}
