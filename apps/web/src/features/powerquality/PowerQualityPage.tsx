import type { DeviceListEntry, PqCriterion, PqCriterionResult, PqWorstInterval } from '@meterportal/protocol';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Grid, Select, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFixed, formatNumber } from '../../i18n/format';
import { useSelectedDevice } from '../devices/selection';
import { addDays, formatInZone, installationZone, startOfDaySec } from '../telemetry/zone';
import { usePowerQualityWeekQuery } from './api';
import { isoDay, recentMondays } from './weeks';
import { HarmonicsTable } from './HarmonicsTable';
import { VERDICT_COLOR } from './verdictColor';

/** Weeks offered in the picker, the current one included. */
const WEEKS_OFFERED = 13;

/** Criteria the analyzer gives no data for: the page says why. */
const UNMEASURED = ['FLICKER', 'DIPS'] as const;
const isUnmeasured = (c: PqCriterion): c is (typeof UNMEASURED)[number] =>
  (UNMEASURED as readonly string[]).includes(c);

/** The EN 50160 weekly assessment of the selected analyzer: a verdict per criterion, worst intervals, coverage. */
export function PowerQualityPage() {
  const { t } = useTranslation();
  const device = useSelectedDevice();
  return device ? <PowerQualityView device={device} /> : <Empty description={t('power_quality.no_device')} />;
}

function PowerQualityView({ device }: { device: DeviceListEntry }) {
  const { t } = useTranslation();
  const tz = installationZone();
  const screens = Grid.useBreakpoint();
  const narrow = !screens.md;
  const mondays = useMemo(() => recentMondays(Date.now(), tz, WEEKS_OFFERED), [tz]);
  // The last complete week is the standard's unit; the running week can be picked too.
  const [index, setIndex] = useState(1);
  const monday = mondays[index]!;
  const query = usePowerQualityWeekQuery(device.token, isoDay(monday));
  const data = query.isError ? undefined : query.data;

  const day = (d: typeof monday) => formatInZone(startOfDaySec(d, tz) * 1000, 'L', tz);
  const weekLabel = (d: typeof monday) =>
    t('power_quality.week_option', { from: day(d), to: day(addDays(d, 6)) });
  const time = (sec: number) => formatInZone(sec * 1000, 'L LT', tz);
  const limits = (c: PqCriterionResult) =>
    c.lowLimit === null || c.highLimit === null
      ? ''
      : c.lowLimit === 0
        ? t('power_quality.limit_max', { high: formatNumber(c.highLimit, 2), unit: c.unit })
        : t('power_quality.limit_range', {
            low: formatNumber(c.lowLimit, 2),
            high: formatNumber(c.highLimit, 2),
            unit: c.unit,
          });
  const worstList = (c: PqCriterionResult) =>
    isUnmeasured(c.criterion) ? (
      <Typography.Text type="secondary">{t(`power_quality.reason_${c.criterion}` as const)}</Typography.Text>
    ) : c.criterion === 'HARMONICS' ? (
      <Typography.Text type="secondary">{t('power_quality.harmonics_by_order')}</Typography.Text>
    ) : c.worst.length === 0 ? (
      <Typography.Text type="secondary">{t('power_quality.no_worst')}</Typography.Text>
    ) : (
      <Flex vertical gap={0} className="pq-worst">
        {c.worst.map((w: PqWorstInterval) => (
          <Typography.Text key={`${w.startSec}-${w.phase}`} style={{ whiteSpace: 'nowrap' }}>
            {time(w.startSec)}: {formatFixed(w.value, c.unit === 'Hz' ? 3 : 2)} {c.unit}
            {w.phase ? ` ${w.phase}` : ''}
          </Typography.Text>
        ))}
      </Flex>
    );
  const shares = (c: PqCriterionResult) =>
    isUnmeasured(c.criterion) ? (
      <Typography.Text type="secondary">-</Typography.Text>
    ) : (
      <Flex vertical gap={0}>
        <Typography.Text style={{ whiteSpace: 'nowrap' }}>
          {c.achievedPct === null ? '-' : `${formatNumber(c.achievedPct, 2)} %`} /{' '}
          {formatNumber(c.requiredPct, 1)} %
        </Typography.Text>
        {c.assessed > 0 && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('power_quality.within_of', {
              within: formatNumber(c.within, 0),
              assessed: formatNumber(c.assessed, 0),
            })}
          </Typography.Text>
        )}
        {c.week && (
          <>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`pq-span-${c.criterion}`}>
              {t('power_quality.span_year', {
                from: formatInZone(c.spanFromSec * 1000, 'L', tz),
                to: formatInZone((c.spanToSec - 1) * 1000, 'L', tz),
              })}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('power_quality.week_share', {
                pct: c.week.achievedPct === null ? '-' : formatNumber(c.week.achievedPct, 2),
                within: formatNumber(c.week.within, 0),
                assessed: formatNumber(c.week.assessed, 0),
              })}
            </Typography.Text>
          </>
        )}
      </Flex>
    );

  const columns: ColumnsType<PqCriterionResult> = [
    {
      key: 'criterion',
      title: t('power_quality.criterion'),
      render: (_, c) => (
        <Flex vertical gap={0}>
          <Typography.Text strong>{t(`power_quality.criterion_${c.criterion}` as const)}</Typography.Text>
          {limits(c) && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {limits(c)}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      key: 'result',
      title: t('power_quality.result'),
      render: (_, c) => (
        <Tag
          color={VERDICT_COLOR[c.verdict]}
          data-testid={`pq-verdict-${c.criterion}`}
          style={{ whiteSpace: 'normal' }}
        >
          {t(`power_quality.verdict_${c.verdict}` as const)}
        </Tag>
      ),
    },
    ...(narrow
      ? []
      : [
          {
            key: 'required',
            title: `${t('power_quality.achieved')} / ${t('power_quality.required')}`,
            render: (_: unknown, c: PqCriterionResult) => shares(c),
          },
          {
            key: 'worst',
            title: t('power_quality.worst'),
            render: (_: unknown, c: PqCriterionResult) => worstList(c),
          },
        ]),
  ];

  return (
    <Card title={t('power_quality.title')} className="power-quality-card">
      <Flex vertical gap={16}>
        <Flex gap={8} align="center" wrap>
          <Typography.Text strong>{t('power_quality.week')}:</Typography.Text>
          <Flex gap={4} align="center">
            <Button
              icon={<LeftOutlined />}
              aria-label={t('power_quality.previous_week')}
              disabled={index >= mondays.length - 1}
              onClick={() => setIndex(index + 1)}
            />
            <Select
              aria-label={t('power_quality.week')}
              data-testid="pq-week"
              value={index}
              onChange={setIndex}
              options={mondays.map((m, i) => ({ value: i, label: weekLabel(m) }))}
              style={{ minWidth: 220 }}
              popupMatchSelectWidth={false}
            />
            <Button
              icon={<RightOutlined />}
              aria-label={t('power_quality.next_week')}
              disabled={index === 0}
              onClick={() => setIndex(index - 1)}
            />
          </Flex>
        </Flex>
        {data && (
          <Flex gap={8} align="center" wrap>
            <Typography.Text strong>{t('power_quality.week_verdict')}:</Typography.Text>
            <Tag color={VERDICT_COLOR[data.verdict]} data-testid="pq-week-verdict">
              {t(`power_quality.verdict_${data.verdict}` as const)}
            </Tag>
          </Flex>
        )}
        <Table<PqCriterionResult>
          rowKey="criterion"
          size="small"
          pagination={false}
          loading={query.isFetching}
          columns={columns}
          dataSource={data?.criteria ?? []}
          data-testid="pq-criteria"
          locale={{ emptyText: query.isError ? t('common.api_communication_error') : ' ' }}
          {...(narrow
            ? {
                expandable: {
                  expandedRowRender: (c: PqCriterionResult) => (
                    <Flex vertical gap={8}>
                      <span>
                        <Typography.Text type="secondary">
                          {t('power_quality.achieved')} / {t('power_quality.required')}:{' '}
                        </Typography.Text>
                        {shares(c)}
                      </span>
                      <span>
                        <Typography.Text type="secondary">{t('power_quality.worst')}: </Typography.Text>
                        {worstList(c)}
                      </span>
                    </Flex>
                  ),
                },
              }
            : {})}
        />
        {data && <HarmonicsTable harmonics={data.harmonics} narrow={narrow} formatTime={time} />}
        {data && (
          <Flex vertical gap={4}>
            <Typography.Text data-testid="pq-coverage">
              <Typography.Text strong>{t('power_quality.coverage')}: </Typography.Text>
              {t('power_quality.coverage_text', {
                pct: formatNumber(data.coverage.pct, 2),
                assessed: formatNumber(data.coverage.intervalsAssessed, 0),
                intervals: formatNumber(data.coverage.intervalsInWeek, 0),
              })}
            </Typography.Text>
            <Typography.Text type="secondary">
              {t('power_quality.nominal', {
                voltage: formatNumber(data.nominalV, 1),
                frequency: formatNumber(data.nominalHz, 1),
                zone: data.timeZone,
              })}
            </Typography.Text>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              {t('power_quality.method')}
            </Typography.Paragraph>
          </Flex>
        )}
      </Flex>
    </Card>
  );
}
