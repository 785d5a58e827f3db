import { COST_PERIODS, type CostPeriod, type CostRow, type DeviceListEntry } from '@meterportal/protocol';
import { Card, Empty, Flex, Segmented, Table, Typography } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isDataNotFound } from '../../api/http';
import { ChartCard } from '../../charts/ChartCard';
import type { ChartSeries } from '../../charts/options';
import { useSelectedDevice } from '../devices/selection';
import { useYAxisType } from '../telemetry/chartState';
import { GraphToolbar, useRange } from '../telemetry/GraphToolbar';
import { formatInZone, installationZone } from '../telemetry/zone';
import { useCostQuery } from './api';
import { PERIOD_FORMATS, bandSeries, formatKwh, formatMoney, granularityFor } from './costRules';

const BAND_COLORS = ['#1668dc', '#52c41a', '#faad14', '#722ed1', '#13c2c2', '#eb2f96', '#fa8c16', '#2f54eb'];

/** Energy and its cost per hour, day, month or year over the toolbar's range, per band. */
export function CostPage() {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<CostPeriod>('MONTH');
  const device = useSelectedDevice();
  return (
    <>
      <GraphToolbar granularity={granularityFor(period)} showSource={false} />
      <Flex vertical gap={16}>
        <Segmented<CostPeriod>
          aria-label={t('costs.period')}
          value={period}
          onChange={setPeriod}
          options={COST_PERIODS.map((p) => ({ value: p, label: t(`costs.period_${p}`) }))}
          style={{ alignSelf: 'flex-start' }}
        />
        {device ? (
          <CostView device={device} period={period} />
        ) : (
          <Empty description={t('common.data_not_found')} />
        )}
      </Flex>
    </>
  );
}

function CostView({ device, period }: { device: DeviceListEntry; period: CostPeriod }) {
  const { t } = useTranslation();
  const tz = installationZone();
  const [range] = useRange(granularityFor(period));
  const query = useCostQuery(device.token, period, range.from, range.to);
  const [yAxisType, setYAxisType] = useYAxisType();
  const [visible, setVisible] = useState<Record<string, boolean>>({});
  const data = query.isError ? undefined : query.data;
  const currency = data?.currency ?? '';
  const bandNames = data?.bandNames ?? [];
  const series = useMemo<ChartSeries[]>(
    () =>
      bandSeries(data?.rows ?? [], data?.bandNames ?? []).map(([name, points], i) => ({
        name,
        points,
        kind: 'bar',
        color: BAND_COLORS[i % BAND_COLORS.length]!,
      })),
    [data],
  );
  const money = (cents: number) => formatMoney(cents, currency);
  const empty = query.isError
    ? isDataNotFound(query.error)
      ? t('costs.no_tariff')
      : t('common.api_communication_error')
    : undefined;

  // A right-aligned column of one figure of a row.
  const figure = (key: string, title: string, text: (r: CostRow) => ReactNode) => ({
    key,
    title,
    align: 'right' as const,
    render: (_: unknown, r: CostRow) => text(r),
  });
  const columns = [
    {
      title: t('costs.time'),
      key: 't',
      fixed: 'left' as const,
      render: (_: unknown, r: CostRow): ReactNode => formatInZone(r.t, PERIOD_FORMATS[period], tz),
    },
    figure('imp', t('costs.import_kwh'), (r) => formatKwh(r.importWh)),
    figure('exp', t('costs.export_kwh'), (r) => formatKwh(r.exportWh)),
    ...bandNames.map((name) => figure(`band-${name}`, name, (r) => money(r.bands[name] ?? 0))),
    figure('energy', t('costs.energy'), (r) => money(r.energyCents)),
    figure('fixed', t('costs.fixed'), (r) => money(r.fixedCents)),
    figure('cap', t('costs.capacity'), (r) => money(r.capacityCents)),
    figure('vat', t('costs.vat_amount'), (r) => money(r.vatCents)),
    figure('credit', t('costs.export_credit'), (r) => money(0 - r.exportCreditCents)),
    figure('total', t('costs.total'), (r) => <strong>{money(r.totalCents)}</strong>),
  ];

  return (
    <>
      <ChartCard
        title={t('costs.cost_chart', { currency })}
        fileName="energy-cost"
        series={series}
        unit={currency}
        yAxisType={yAxisType}
        onYAxisTypeChange={setYAxisType}
        selected={Object.fromEntries(bandNames.map((n) => [n, visible[n] ?? true]))}
        onLegendChange={setVisible}
        loading={query.isFetching}
        timeFormat={PERIOD_FORMATS[period]}
        {...(empty ? { emptyText: empty } : {})}
      />
      <Card title={t('costs.menu_cost')}>
        {data ? (
          <Table<CostRow>
            data-testid="cost-table"
            rowKey="t"
            size="small"
            pagination={period === 'HOUR' || period === 'DAY' ? { pageSize: 31 } : false}
            scroll={{ x: 'max-content' }}
            dataSource={data.rows}
            columns={columns}
            summary={() => (
              <Table.Summary fixed>
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0}>
                    <strong>{t('costs.sum')}</strong>
                  </Table.Summary.Cell>
                  {columns.slice(1).map((c, i) => (
                    <Table.Summary.Cell key={c.key} index={i + 1} align="right">
                      {c.render(undefined, data.total)}
                    </Table.Summary.Cell>
                  ))}
                </Table.Summary.Row>
              </Table.Summary>
            )}
          />
        ) : (
          <Empty description={empty ?? t('common.loading')} />
        )}
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('costs.fees_note')} {t('costs.net_note')}
        </Typography.Paragraph>
      </Card>
    </>
  );
}
