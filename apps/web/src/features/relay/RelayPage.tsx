import type { NotificationEntry, RelayCause, RelayState, RelaySwitching } from '@meterportal/protocol';
import { Button, Card, Col, Empty, Flex, List, Popconfirm, Row, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from '../../api/notify';
import { useDeviceList } from '../auth/session';
import { selectDevice } from '../devices/selection';
import { ownedDisconnectors } from '../firmware/routes';
import { NOTIFICATIONS_ROUTE } from '../tools/routes';
import { useRelayHistoryQuery, useSwitchRelayMutation } from './api';
import { formatLocal } from '../telemetry/zone';

const time = (ms: number) => formatLocal(ms, 'L LTS');

/** Relay control of an owned disconnector: state, open/close with confirmation, history, notifications. */
export function RelayPage() {
  const { t } = useTranslation();
  const devices = ownedDisconnectors(useDeviceList());
  const [mac, setMac] = useState<string | undefined>(devices[0]?.mac);
  const device = devices.find((d) => d.mac === mac) ?? devices[0];
  const history = useRelayHistoryQuery(device?.token);
  const switching = useSwitchRelayMutation(device?.token);

  if (!device) return <Empty description={t('relay.no_device')} />;
  const state = history.data?.state ?? null;
  const switchTo = (to: RelayState) =>
    switching.mutate(to, {
      onSuccess: (answered) => toast('success', t(answered === 'OPEN' ? 'relay.opened' : 'relay.closed')),
    });
  const causeText = (c: RelayCause) => t(`relay.cause_${c}`);

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={14}>
        <Card title={t('relay.menu')} className="relay-card">
          <Flex vertical gap={16}>
            {devices.length > 1 && (
              <Select
                aria-label={t('relay.device')}
                value={device.mac}
                onChange={setMac}
                options={devices.map((d) => ({ value: d.mac, label: d.title }))}
                style={{ maxWidth: 320 }}
              />
            )}
            <Flex gap={8} align="center" wrap>
              <Typography.Text strong>{t('relay.state')}:</Typography.Text>
              <Tag
                color={state === 'OPEN' ? 'red' : state === 'CLOSED' ? 'green' : 'default'}
                data-testid="relay-state"
              >
                {state ? t(`relay.state_${state}`) : t('relay.state_unknown')}
              </Tag>
            </Flex>
            <Flex gap={8} wrap>
              <Popconfirm
                title={t('relay.confirm_open')}
                onConfirm={() => switchTo('OPEN')}
                okText={t('common.yes')}
                cancelText={t('common.no')}
              >
                <Button
                  danger
                  loading={switching.isPending && switching.variables === 'OPEN'}
                  disabled={switching.isPending}
                >
                  {t('relay.open')}
                </Button>
              </Popconfirm>
              <Popconfirm
                title={t('relay.confirm_close')}
                onConfirm={() => switchTo('CLOSED')}
                okText={t('common.yes')}
                cancelText={t('common.no')}
              >
                <Button
                  type="primary"
                  loading={switching.isPending && switching.variables === 'CLOSED'}
                  disabled={switching.isPending}
                >
                  {t('relay.close')}
                </Button>
              </Popconfirm>
            </Flex>
            <Typography.Title level={5} style={{ margin: 0 }}>
              {t('relay.history')}
            </Typography.Title>
            <Table<RelaySwitching>
              size="small"
              className="relay-history"
              rowKey={(r) => `${r.atMs}-${r.state}-${r.cause}`}
              loading={history.isFetching}
              dataSource={history.data?.switchings ?? []}
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
              scroll={{ x: true }}
              locale={{ emptyText: <Empty description={t('relay.no_history')} /> }}
              columns={[
                { title: t('relay.when'), key: 'when', render: (_v, r) => time(r.atMs) },
                {
                  title: t('relay.position'),
                  key: 'state',
                  render: (_v, r) => t(`relay.position_${r.state}`),
                },
                { title: t('relay.who'), key: 'who', render: (_v, r) => r.login ?? t('relay.device_itself') },
                { title: t('relay.why'), key: 'why', render: (_v, r) => causeText(r.cause) },
              ]}
            />
          </Flex>
        </Card>
      </Col>
      <Col xs={24} xl={10}>
        <Card
          title={t('relay.notifications')}
          // A long title (German) wraps beside the settings link instead of being cut.
          styles={{ title: { whiteSpace: 'normal' } }}
          extra={
            <Link to={NOTIFICATIONS_ROUTE} onClick={() => selectDevice(device.mac)}>
              {t('relay.notification_settings')}
            </Link>
          }
        >
          <List<NotificationEntry>
            size="small"
            className="relay-notifications"
            dataSource={history.data?.notifications ?? []}
            locale={{ emptyText: <Empty description={t('relay.no_notifications')} /> }}
            pagination={{ pageSize: 10, hideOnSinglePage: true, size: 'small' }}
            renderItem={(n) => (
              <List.Item>
                <Flex vertical>
                  <Typography.Text>
                    {n.data.event === 'OPEN' || n.data.event === 'CLOSED'
                      ? t(`relay.position_${n.data.event}`)
                      : n.data.event}
                    {n.data.message === 'OVERLOAD' ||
                    n.data.message === 'MANUAL' ||
                    n.data.message === 'COMMAND'
                      ? ` · ${causeText(n.data.message)}`
                      : ''}
                  </Typography.Text>
                  <Typography.Text type="secondary">{time(n.data.timestamp)}</Typography.Text>
                </Flex>
              </List.Item>
            )}
          />
        </Card>
      </Col>
    </Row>
  );
}
