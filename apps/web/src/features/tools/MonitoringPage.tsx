import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Spin, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isDataNotFound } from '../../api/http';
import { useSettings } from '../../app/settings';
import { ChartCard } from '../../charts/ChartCard';
import type { ChartSeries } from '../../charts/options';
import { useSelectedDevice } from '../devices/selection';
import { useRange } from '../telemetry/GraphToolbar';
import { useMonitoringDaysQuery, useMonitoringSlotsQuery, type MonitoringSlot } from './api';
import { ClickableChart, type ChartItemClick } from './ClickableChart';
import { dayColumnsOption, slotPieOption } from './monitoringOptions';
import { SLOT_SEC, dayBounds, dayColumns, slotBounds, weekBounds, type Bounds } from './monitoringRules';

/** Availability of the selected device over the week toolbar's range, with its drill-down. */
export function MonitoringPage() {
  const device = useSelectedDevice();
  const [range] = useRange('week');
  // A new device or range starts the drill-down afresh.
  return <MonitoringCharts key={`${device?.token ?? ''}|${range.from}|${range.to}`} />;
}

/** Translation key of a failed load's empty chart. */
function errorKey(error: unknown): 'common.data_not_found' | 'common.api_communication_error' {
  return isDataNotFound(error) ? 'common.data_not_found' : 'common.api_communication_error';
}

function MonitoringCharts() {
  const { t } = useTranslation();
  const dark = useSettings((s) => s.theme) === 'dark';
  const device = useSelectedDevice();
  const [range] = useRange('week');
  const week = weekBounds(range);
  const days = useMonitoringDaysQuery(device?.token, week);
  const [dayMs, setDayMs] = useState<number | null>(null);
  const [slotMs, setSlotMs] = useState<number | null>(null);
  const dayRange: Bounds | null = dayMs === null ? null : dayBounds(dayMs);
  const slots = useMonitoringSlotsQuery(device?.token, '30MINUTE', dayRange);
  const minutes = useMonitoringSlotsQuery(
    device?.token,
    'MINUTE',
    slotMs === null ? null : slotBounds(slotMs),
  );

  // A failed answer (610 included) empties the chart; the toast comes from the query's meta.
  const daysData = days.isError ? undefined : days.data;
  const columnData = useMemo(
    () => dayColumns(daysData?.online ?? [], daysData?.offline ?? [], { from: range.from, to: range.to }),
    [daysData, range.from, range.to],
  );
  const columns = useMemo(
    () =>
      dayColumnsOption({
        columns: columnData,
        labels: { online: t('tools.online'), offline: t('tools.offline'), unit: t('tools.hours') },
        formatDay: (ms) => dayjs(ms).format('dd L'),
        selectedMs: dayMs,
      }),
    [columnData, dayMs, t],
  );
  const hasDays = columnData.length > 0;

  const onColumnClick = ({ data }: ChartItemClick) => {
    const day = (data as { day?: unknown } | null)?.day;
    if (typeof day !== 'number') return;
    setDayMs(day);
    setSlotMs(null);
  };

  // The uptime chart follows the drill-down: the week's days, a day's slots, or a slot's minutes.
  const uptimePoints =
    slotMs !== null && minutes.data
      ? minutes.data.map((s) => [s.timestampMs, s.uptimeH] as [number, number])
      : dayMs !== null && slots.data
        ? slots.data.map((s) => [s.timestampMs, s.uptimeH] as [number, number])
        : (daysData?.uptime ?? []);

  return (
    <Flex vertical gap={16}>
      <Card
        title={t('tools.availability')}
        extra={<Typography.Text type="secondary">{t('tools.pick_day')}</Typography.Text>}
      >
        <ChartFrame
          loading={days.isFetching}
          empty={
            days.isError
              ? t(errorKey(days.error))
              : !hasDays && !days.isFetching
                ? t('common.data_not_found')
                : null
          }
        >
          <div data-testid="monitoring-days">
            <ClickableChart option={columns} dark={dark} onItemClick={onColumnClick} />
          </div>
        </ChartFrame>
      </Card>
      {dayMs !== null && (
        <SlotPie
          key={slotMs === null ? 'day' : 'slot'}
          dark={dark}
          title={
            slotMs === null
              ? t('tools.day_slots', { day: dayjs(dayMs).format('dd L') })
              : t('tools.slot_minutes', {
                  from: dayjs(slotMs).format('LT'),
                  to: dayjs(slotMs + SLOT_SEC * 1000).format('LT'),
                })
          }
          centerText={slotMs === null ? dayjs(dayMs).format('L') : dayjs(slotMs).format('LT')}
          query={slotMs === null ? slots : minutes}
          slotSec={slotMs === null ? SLOT_SEC : 60}
          labelEvery={slotMs === null ? 6 : 5}
          hint={slotMs === null ? t('tools.pick_slot') : null}
          onBack={slotMs === null ? null : () => setSlotMs(null)}
          onSlotClick={slotMs === null ? setSlotMs : null}
        />
      )}
      <UptimeChart
        points={uptimePoints}
        loading={days.isFetching || slots.isFetching || minutes.isFetching}
      />
    </Flex>
  );
}

function ChartFrame({
  loading,
  empty,
  children,
}: {
  loading: boolean;
  empty: string | null;
  children: ReactNode;
}) {
  return (
    <div style={{ position: 'relative' }}>
      {children}
      {(loading || empty) && (
        <div className="loader-overlay" style={{ background: 'transparent' }}>
          {loading ? <Spin /> : <Empty description={empty} />}
        </div>
      )}
    </div>
  );
}

interface SlotPieProps {
  dark: boolean;
  title: string;
  centerText: string;
  query: { data?: MonitoringSlot[] | undefined; isError: boolean; error: unknown; isFetching: boolean };
  slotSec: number;
  labelEvery: number;
  hint: string | null;
  onBack: (() => void) | null;
  onSlotClick: ((slotMs: number) => void) | null;
}

/** The ring of a day's 30-minute slots or of a slot's minutes. */
function SlotPie({
  dark,
  title,
  centerText,
  query,
  slotSec,
  labelEvery,
  hint,
  onBack,
  onSlotClick,
}: SlotPieProps) {
  const { t } = useTranslation();
  const data = query.isError ? undefined : query.data;
  const option = useMemo(
    () =>
      slotPieOption({
        slots: data ?? [],
        slotSec,
        labelEvery,
        title: centerText,
        formatSlot: (ms) => dayjs(ms).format('LT'),
        tooltip: (s) =>
          `${dayjs(s.timestampMs).format('LT')}: ${
            s.offlineSec > 0 ? t('tools.offline_seconds', { seconds: s.offlineSec }) : t('tools.online')
          }`,
      }),
    [data, slotSec, labelEvery, centerText, t],
  );
  return (
    <Card
      title={title}
      data-testid="monitoring-pie"
      extra={
        <Flex gap={8} align="center">
          {hint && <Typography.Text type="secondary">{hint}</Typography.Text>}
          {onBack && (
            <Button size="small" icon={<ArrowLeftOutlined />} onClick={onBack}>
              {t('tools.back_to_day')}
            </Button>
          )}
        </Flex>
      }
    >
      <ChartFrame
        loading={query.isFetching}
        empty={
          query.isError
            ? t(errorKey(query.error))
            : !query.isFetching && !data?.length
              ? t('common.data_not_found')
              : null
        }
      >
        <ClickableChart
          option={option}
          dark={dark}
          onItemClick={({ data: item }) => {
            const ms = (item as { timestampMs?: unknown } | null)?.timestampMs;
            if (onSlotClick && typeof ms === 'number') onSlotClick(ms);
          }}
        />
      </ChartFrame>
    </Card>
  );
}

/** Uptime hours on a logarithmic axis (hours span minutes to weeks). */
function UptimeChart({ points, loading }: { points: readonly [number, number][]; loading: boolean }) {
  const { t } = useTranslation();
  const [yAxisType, setYAxisType] = useState<'linear' | 'logarithmic'>('logarithmic');
  const [selected, setSelected] = useState<Record<string, boolean>>({});
  const series: ChartSeries[] = [{ name: t('tools.uptime'), points, kind: 'area', color: '#1668dc' }];
  return (
    <ChartCard
      title={t('tools.uptime')}
      fileName="monitoring-uptime"
      series={series}
      unit={t('tools.hours')}
      yAxisType={yAxisType}
      onYAxisTypeChange={setYAxisType}
      selected={selected}
      onLegendChange={setSelected}
      loading={loading}
      emptyText={t('common.data_not_found')}
      timeFormat="L LT"
    />
  );
}
