import { CheckOutlined, LineChartOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { NOTIFICATION_TYPES, type HistoryEntry, type NotificationType } from '@meterportal/protocol';
import { Badge, Button, Card, DatePicker, Empty, Flex, List, Select, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { settingsStore, updateSettings } from '../../app/settings';
import { useDeviceList } from '../auth/session';
import { selectDevice } from '../devices/selection';
import { notificationKind, notificationText, notificationTimeMs } from '../shell/notificationText';
import { customRange } from '../telemetry/dateRanges';
import { formatInZone, installationZone } from '../telemetry/zone';
import { useMarkReadMutation, useNotificationHistoryQuery } from './historyApi';
import { chartTarget, type HistoryFilters } from './historyRules';

const dayOfCell = (d: Dayjs) => ({ y: d.year(), m: d.month() + 1, d: d.date() });

/**
 * Every stored notification of the user's devices, newest first, a page at a time, with filters
 * by device, type, time and read state; each row opens the device's chart at that time.
 */
export function NotificationHistoryPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const devices = useDeviceList();
  const tz = installationZone();
  const [filters, setFilters] = useState<HistoryFilters>({ types: [] });
  // Cursors of the pages before the current one; the last is the current page's.
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  const beforeId = cursors[cursors.length - 1];
  const history = useNotificationHistoryQuery(filters, beforeId);
  const markRead = useMarkReadMutation();
  const items = history.data?.items ?? [];
  const unreadIds = items.filter((n) => !n.read).map((n) => n.id);

  const filter = (change: Partial<HistoryFilters>) => {
    setFilters((f) => ({ ...f, ...change }));
    setCursors([undefined]);
  };

  const openChart = (n: HistoryEntry) => {
    const device = devices.find((d) => d.mac === n.mac);
    if (!device) return;
    const target = chartTarget(n.type, device.type, notificationTimeMs(n.data.timestamp) ?? n.at_ms, tz);
    selectDevice(device.mac);
    if (target.range) updateSettings({ ranges: { ...settingsStore.get().ranges, day: target.range } });
    void navigate(target.route);
  };

  return (
    <Card title={t('notification_history.title')}>
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        <Select<string>
          aria-label={t('notification_history.device')}
          allowClear
          placeholder={t('notification_history.all_devices')}
          style={{ minWidth: 180, flex: '1 1 180px' }}
          value={filters.deviceToken ?? null}
          onChange={(v) => filter({ deviceToken: v ?? undefined })}
          options={devices.map((d) => ({ value: d.token, label: d.title }))}
        />
        <Select<NotificationType[]>
          aria-label={t('notification_history.type')}
          mode="multiple"
          allowClear
          placeholder={t('notification_history.all_types')}
          style={{ minWidth: 180, flex: '1 1 180px' }}
          value={filters.types}
          onChange={(v) => filter({ types: v })}
          options={NOTIFICATION_TYPES.map((type) => ({ value: type, label: notificationKind(t, type) }))}
        />
        <DatePicker.RangePicker
          aria-label={t('notification_history.period')}
          format="D.M.YYYY"
          style={{ flex: '1 1 220px' }}
          getPopupContainer={(node) => node.parentElement ?? document.body}
          onChange={(dates) => {
            const [a, b] = dates ?? [];
            filter({ range: a && b ? customRange(dayOfCell(a), dayOfCell(b), tz) : undefined });
          }}
        />
        <Select<'ALL' | 'READ' | 'UNREAD'>
          aria-label={t('notification_history.state')}
          style={{ minWidth: 160, flex: '1 1 160px' }}
          value={filters.read ?? 'ALL'}
          onChange={(v) => filter({ read: v === 'ALL' ? undefined : v })}
          options={[
            { value: 'ALL', label: t('notification_history.all_states') },
            { value: 'UNREAD', label: t('notification_history.unread') },
            { value: 'READ', label: t('notification_history.read') },
          ]}
        />
        <Button
          icon={<CheckOutlined />}
          disabled={unreadIds.length === 0}
          loading={markRead.isPending}
          onClick={() => markRead.mutate(unreadIds)}
        >
          {t('notification_history.mark_page_read')}
        </Button>
      </Flex>
      <List<HistoryEntry>
        className="notification-history"
        loading={history.isFetching || markRead.isPending}
        dataSource={items}
        locale={{ emptyText: <Empty description={t('notification_history.empty')} /> }}
        renderItem={(n) => {
          const device = devices.find((d) => d.mac === n.mac);
          const timeMs = notificationTimeMs(n.data.timestamp) ?? n.at_ms;
          const title = device?.title ?? n.mac;
          return (
            <List.Item
              data-notification={n.id}
              actions={[
                ...(n.read
                  ? []
                  : [
                      <Button
                        key="read"
                        type="text"
                        icon={<CheckOutlined />}
                        aria-label={t('notification_history.mark_read')}
                        title={t('notification_history.mark_read')}
                        onClick={() => markRead.mutate([n.id])}
                      />,
                    ]),
                ...(device
                  ? [
                      <Button
                        key="chart"
                        type="link"
                        icon={<LineChartOutlined />}
                        aria-label={t('notification_history.chart_of', { title })}
                        onClick={() => openChart(n)}
                      >
                        {t('notification_history.show_chart')}
                      </Button>,
                    ]
                  : []),
              ]}
            >
              <List.Item.Meta
                avatar={<Badge status={n.read ? 'default' : 'processing'} />}
                title={
                  <Flex gap={6} wrap align="center">
                    <Tag>{notificationKind(t, n.type)}</Tag>
                    <Typography.Text strong={!n.read}>{title}</Typography.Text>
                    {!n.read && <Tag color="blue">{t('notification_history.unread')}</Tag>}
                  </Flex>
                }
                description={
                  <>
                    <div>{notificationText(t, n)}</div>
                    <Typography.Text type="secondary">{formatInZone(timeMs, 'L LTS', tz)}</Typography.Text>
                    {!device && (
                      <Typography.Text type="secondary">
                        {' '}
                        · {t('notification_history.unknown_device')}
                      </Typography.Text>
                    )}
                  </>
                }
              />
            </List.Item>
          );
        }}
      />
      <Flex justify="space-between" align="center" style={{ marginTop: 12 }}>
        <Button
          icon={<LeftOutlined />}
          disabled={cursors.length <= 1}
          onClick={() => setCursors((c) => c.slice(0, -1))}
        >
          {t('notification_history.newer')}
        </Button>
        <Typography.Text type="secondary">
          {t('notification_history.page', { page: cursors.length })}
        </Typography.Text>
        <Button
          disabled={(history.data?.next_before_id ?? null) === null}
          onClick={() => {
            const next = history.data?.next_before_id;
            if (next !== undefined && next !== null) setCursors((c) => [...c, next]);
          }}
        >
          {t('notification_history.older')} <RightOutlined />
        </Button>
      </Flex>
    </Card>
  );
}
