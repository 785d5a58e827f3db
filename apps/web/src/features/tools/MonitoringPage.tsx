import { ArrowLeftOutlined } from '@ant-design/icons';
import type { DeviceListEntry } from '@meterportal/protocol';
import { Button, Card, Empty, Flex, Grid, Spin, Typography } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isDataNotFound } from '../../api/http';
import { useSettings } from '../../app/settings';
import { ChartCard } from '../../charts/ChartCard';
import type { ChartSeries } from '../../charts/options';
import { useDeviceList } from '../auth/session';
import { useSelectedDevice } from '../devices/selection';
import { useRange } from '../telemetry/GraphToolbar';
import { formatInZone, installationZone } from '../telemetry/zone';
import { useMonitoringDaysQuery, useMonitoringSlotsQuery, useTimelineRowQuery } from './api';
import { ClickableChart, type ChartItemClick } from './ClickableChart';
import { dayColumnsOption } from './monitoringOptions';
import {
  SLOT_SEC,
  dayBounds,
  dayColumns,
  hourTicks,
  slotBounds,
  timelineCells,
  weekBounds,
  type AxisTick,
  type Bounds,
} from './monitoringRules';
import { TimelineAxis, TimelineLegend, TimelineRow } from './monitoringTimeline';

/** Availability over the week toolbar's range, with the day's state timeline of every device. */
export function MonitoringPage() {
  const { t } = useTranslation();
  const devices = useDeviceList();
  const device = useSelectedDevice();
  const [range] = useRange('week');
  // Nothing to monitor: one empty state rather than one per chart.
  if (devices.length === 0 || !device) {
    return (
      <Card>
        <Empty description={t('common.data_not_found')} />
      </Card>
    );
  }
  // A new device or range starts the drill-down afresh.
  return <MonitoringCharts key={`${device.token}|${range.from}|${range.to}`} device={device} />;
}

/** Translation key of a failed load's empty chart. */
function errorKey(error: unknown): 'common.data_not_found' | 'common.api_communication_error' {
  return isDataNotFound(error) ? 'common.data_not_found' : 'common.api_communication_error';
}

/** A slot picked in a device's row: its minutes are shown. */
interface PickedSlot {
  device: DeviceListEntry;
  slotMs: number;
}

function MonitoringCharts({ device }: { device: DeviceListEntry }) {
  const { t } = useTranslation();
  const dark = useSettings((s) => s.theme) === 'dark';
  const tz = installationZone();
  const [range] = useRange('week');
  const week = weekBounds(range);
  const days = useMonitoringDaysQuery(device.token, week);
  const [dayMs, setDayMs] = useState<number | null>(null);
  const [picked, setPicked] = useState<PickedSlot | null>(null);
  const dayRange: Bounds | null = dayMs === null ? null : dayBounds(dayMs, tz);
  const slots = useTimelineRowQuery(device.token, dayRange);
  const minutes = useMonitoringSlotsQuery(
    picked?.device.token,
    'MINUTE',
    picked === null ? null : slotBounds(picked.slotMs),
  );

  // A failed answer (610 included) empties the chart; the toast comes from the query's meta.
  const daysData = days.isError ? undefined : days.data;
  const columnData = useMemo(
    () => dayColumns(daysData?.online ?? [], daysData?.offline ?? [], { from: range.from, to: range.to }, tz),
    [daysData, range.from, range.to, tz],
  );
  const columns = useMemo(
    () =>
      dayColumnsOption({
        columns: columnData,
        labels: { online: t('tools.online'), offline: t('tools.offline'), unit: t('tools.hours') },
        formatDay: (ms) => formatInZone(ms, 'dd L', tz),
        selectedMs: dayMs,
      }),
    [columnData, dayMs, t, tz],
  );
  const hasDays = columnData.length > 0;

  const onColumnClick = ({ data }: ChartItemClick) => {
    const day = (data as { day?: unknown } | null)?.day;
    if (typeof day !== 'number') return;
    setDayMs(day);
    setPicked(null);
  };

  // The uptime chart follows the drill-down: the week's days, the day's slots, or a slot's minutes.
  const uptimePoints =
    picked !== null && minutes.data
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
      {dayRange !== null && dayMs !== null && (
        <DayTimeline
          day={dayRange}
          title={t('tools.day_timeline', { day: formatInZone(dayMs, 'dd L', tz) })}
          tz={tz}
          picked={picked}
          onPick={setPicked}
        />
      )}
      {picked !== null && (
        <MinuteTimeline picked={picked} tz={tz} query={minutes} onBack={() => setPicked(null)} />
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

interface DayTimelineProps {
  day: Bounds;
  title: string;
  tz: string;
  picked: PickedSlot | null;
  onPick: (slot: PickedSlot) => void;
}

/** Every device's day as a row of 30-minute states on one 24-hour axis, with a legend. */
function DayTimeline({ day, title, tz, picked, onPick }: DayTimelineProps) {
  const { t } = useTranslation();
  const devices = useDeviceList();
  const mobile = Grid.useBreakpoint().md === false;
  const ticks = useMemo(() => hourTicks(day, tz, mobile ? 6 : 3), [day, tz, mobile]);
  return (
    <Card
      title={title}
      data-testid="monitoring-timeline"
      extra={<Typography.Text type="secondary">{t('tools.pick_slot')}</Typography.Text>}
    >
      <Flex vertical gap={8}>
        {devices.map((d) => (
          <DeviceDayRow
            key={d.mac}
            device={d}
            day={day}
            tz={tz}
            selectedMs={picked?.device.mac === d.mac ? picked.slotMs : null}
            onPick={onPick}
          />
        ))}
        <TimelineAxis ticks={ticks} />
        <TimelineLegend />
      </Flex>
    </Card>
  );
}

function DeviceDayRow({
  device,
  day,
  tz,
  selectedMs,
  onPick,
}: {
  device: DeviceListEntry;
  day: Bounds;
  tz: string;
  selectedMs: number | null;
  onPick: (slot: PickedSlot) => void;
}) {
  const query = useTimelineRowQuery(device.token, day);
  const cells = useMemo(() => timelineCells(day, SLOT_SEC, query.data ?? []), [day, query.data]);
  return (
    <TimelineRow
      label={device.title}
      cells={cells}
      tz={tz}
      loading={query.isFetching}
      selectedMs={selectedMs}
      onCellClick={(c) => c.state !== 'none' && onPick({ device, slotMs: c.startMs })}
    />
  );
}

interface MinuteTimelineProps {
  picked: PickedSlot;
  tz: string;
  query: {
    data?: { timestampMs: number; offlineSec: number }[] | undefined;
    isError: boolean;
    isFetching: boolean;
  };
  onBack: () => void;
}

/** The minutes of one picked slot of one device. */
function MinuteTimeline({ picked, tz, query, onBack }: MinuteTimelineProps) {
  const { t } = useTranslation();
  const cells = useMemo(
    () => timelineCells(slotBounds(picked.slotMs), 60, query.isError ? [] : (query.data ?? [])),
    [picked.slotMs, query.data, query.isError],
  );
  const ticks: AxisTick[] = [0, 5, 10, 15, 20, 25, 30].map((m) => ({
    at: m / 30,
    label: formatInZone(picked.slotMs + m * 60_000, 'HH:mm', tz),
  }));
  return (
    <Card
      data-testid="monitoring-minutes"
      title={`${t('tools.slot_minutes', {
        from: formatInZone(picked.slotMs, 'HH:mm', tz),
        to: formatInZone(picked.slotMs + SLOT_SEC * 1000, 'HH:mm', tz),
      })} · ${picked.device.title}`}
      extra={
        <Button size="small" icon={<ArrowLeftOutlined />} onClick={onBack}>
          {t('tools.back_to_day')}
        </Button>
      }
    >
      <Flex vertical gap={8}>
        <TimelineRow label={picked.device.title} cells={cells} tz={tz} loading={query.isFetching} />
        <TimelineAxis ticks={ticks} />
      </Flex>
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
