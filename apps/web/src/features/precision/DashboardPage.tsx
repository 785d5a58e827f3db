import { Alert, Card, Col, Empty, Row, Table, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { liveStore } from '../../api/live';
import type { LiveDataMessage } from '@meterportal/protocol';
import { useStore } from '../../app/store';
import { format3 } from '../../charts/series';
import { formatFixed, withUnit } from '../../i18n/format';
import { useSelectedDevice } from '../devices/selection';
import { dashboardTables, framePayload, isDeviceOnline, type DashboardRow } from './dashboardRows';
import { useLiveData } from './useLiveData';
import { formatLocal } from '../telemetry/zone';

/** Live values of the selected precision device: load, more and energy values. */
export function DashboardPage() {
  const device = useSelectedDevice();
  // A new device starts from an empty frame.
  return <DashboardTables key={device?.mac ?? ''} />;
}

function DashboardTables() {
  const { t } = useTranslation();
  const device = useSelectedDevice();
  const runtime = useStore(liveStore, (s) => (device ? s.devices[device.mac] : undefined));
  // Without the socket nothing new arrives: the last values stay, marked as stale.
  const connected = useStore(liveStore, (s) => s.connected);
  const [frame, setFrame] = useState<LiveDataMessage | null>(null);
  useLiveData(device, setFrame);

  if (!isDeviceOnline(runtime)) {
    return (
      <Card>
        <Empty
          data-testid="dashboard-offline"
          description={
            <>
              <Typography.Title level={4}>{t('precision.offline_title')}</Typography.Title>
              <Typography.Text type="secondary">{t('precision.offline_text')}</Typography.Text>
            </>
          }
        />
      </Card>
    );
  }

  const tables = dashboardTables(frame);
  const ts = framePayload(frame)?.ts;
  const stale = !connected && frame !== null;
  const updated =
    typeof ts === 'number' ? (
      <Typography.Text type="secondary" data-testid="dashboard-updated">
        {formatLocal(ts * 1000, 'L LTS')}
      </Typography.Text>
    ) : (
      <Typography.Text type="secondary">{t('chart.waiting_live')}</Typography.Text>
    );
  const frequency = (
    <Typography.Text strong data-testid="dashboard-frequency" className="live-value">
      {t('precision.frequency', { value: withUnit(formatFixed(tables.frequency, 3), 'Hz') })}
    </Typography.Text>
  );
  return (
    <div className={stale ? 'dashboard dashboard--stale' : 'dashboard'}>
      {stale && (
        <Alert
          type="warning"
          showIcon
          data-testid="dashboard-stale"
          style={{ marginBottom: 16 }}
          title={t('precision.stale', {
            time: typeof ts === 'number' ? formatLocal(ts * 1000, 'LTS') : '-',
          })}
        />
      )}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <ValuesCard title={t('precision.load_values')} rows={tables.load} extra={updated} withSum />
        </Col>
        <Col xs={24} xl={12}>
          <Row gutter={[16, 16]}>
            <Col span={24}>
              <ValuesCard title={t('precision.more_values')} rows={tables.more} extra={frequency} />
            </Col>
            <Col span={24}>
              <ValuesCard title={t('precision.energy_values')} rows={tables.energy} withSum />
            </Col>
          </Row>
        </Col>
      </Row>
    </div>
  );
}

interface ValuesCardProps {
  title: string;
  rows: DashboardRow[];
  withSum?: boolean;
  extra?: ReactNode;
}

function ValuesCard({ title, rows, withSum = false, extra }: ValuesCardProps) {
  const { t } = useTranslation();
  const value = (v: number | null | undefined) => <span className="live-value">{format3(v)}</span>;
  return (
    <Card title={title} extra={extra} styles={{ body: { padding: 0 } }}>
      <Table<DashboardRow>
        size="middle"
        rowKey="key"
        pagination={false}
        dataSource={rows}
        scroll={{ x: true }}
        columns={[
          {
            key: 'quantity',
            title: t('precision.quantity'),
            render: (_v, r) => (
              <>
                {t(`precision.quantities.${r.key}`)}{' '}
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {r.key}
                </Typography.Text>
              </>
            ),
          },
          ...(['L1', 'L2', 'L3'] as const).map((p) => ({
            key: p,
            title: p,
            align: 'right' as const,
            render: (_v: unknown, r: DashboardRow) => value(r.values[p]),
          })),
          ...(withSum
            ? [
                {
                  key: 'sum',
                  title: t('precision.sum'),
                  align: 'right' as const,
                  render: (_v: unknown, r: DashboardRow) =>
                    r.sum === undefined ? null : <strong>{value(r.sum)}</strong>,
                },
              ]
            : []),
          { key: 'unit', title: t('precision.unit'), render: (_v, r) => r.unit },
        ]}
      />
    </Card>
  );
}
