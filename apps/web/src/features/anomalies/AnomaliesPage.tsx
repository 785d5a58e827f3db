import type { AnomalyEpisode } from '@meterportal/protocol';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Flex,
  Form,
  InputNumber,
  Row,
  Select,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../api/notify';
import { formatFixed, formatNumber } from '../../i18n/format';
import { useDeviceList } from '../auth/session';
import { formatInZone, installationZone } from '../telemetry/zone';
import { useAnomalyModelQuery, useTrainAnomalyModelMutation } from './api';
import { ownedHouseholdMeters } from './routes';

const kwh = (wh: number) => formatFixed(wh / 1000);

/** Anomaly models of owned household meters: the model, what it learned from, training, anomalies. */
export function AnomaliesPage() {
  const { t } = useTranslation();
  const devices = ownedHouseholdMeters(useDeviceList());
  const [mac, setMac] = useState<string | undefined>(devices[0]?.mac);
  const device = devices.find((d) => d.mac === mac) ?? devices[0];
  const query = useAnomalyModelQuery(device?.token);
  const training = useTrainAnomalyModelMutation(device?.token);
  const [weeks, setWeeks] = useState(8);
  const [hoursInRow, setHoursInRow] = useState(2);
  const tz = installationZone();
  const time = (ms: number) => formatInZone(ms, 'L LT', tz);

  if (!device) return <Empty description={t('anomalies.no_device')} />;
  const data = query.data;
  const model = data?.model ?? null;
  const short = data?.notEnoughHistory ?? null;

  const columns = [
    { title: t('anomalies.start'), key: 'start', render: (a: AnomalyEpisode) => time(a.startMs) },
    {
      title: t('anomalies.end'),
      key: 'end',
      render: (a: AnomalyEpisode) =>
        a.endMs === null ? <Tag color="orange">{t('anomalies.ongoing')}</Tag> : time(a.endMs),
    },
    { title: t('anomalies.hours'), key: 'hours', render: (a: AnomalyEpisode) => formatNumber(a.hours) },
    {
      title: t('anomalies.direction'),
      key: 'direction',
      render: (a: AnomalyEpisode) => (
        <Tag color={a.direction === 'HIGH' ? 'red' : 'blue'}>{t(`anomalies.direction_${a.direction}`)}</Tag>
      ),
    },
    {
      title: t('anomalies.expected'),
      key: 'expected',
      render: (a: AnomalyEpisode) => `${kwh(a.expectedLowWh)} – ${kwh(a.expectedHighWh)} kWh`,
    },
    { title: t('anomalies.seen'), key: 'seen', render: (a: AnomalyEpisode) => `${kwh(a.seenWh)} kWh` },
  ];

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={10}>
        <Card title={t('anomalies.menu')} className="anomaly-model-card" loading={query.isLoading}>
          <Flex vertical gap={16}>
            {devices.length > 1 && (
              <Select
                aria-label={t('anomalies.device')}
                value={device.mac}
                onChange={setMac}
                options={devices.map((d) => ({ value: d.mac, label: d.title }))}
                style={{ maxWidth: 320 }}
              />
            )}
            {short && (
              <Alert
                type="warning"
                showIcon
                data-testid="anomaly-not-enough"
                message={t('anomalies.not_enough_history', { weeks: short.weeks, hours: short.hours })}
                {...(short.fromMs !== null && short.toMs !== null
                  ? {
                      description: t('anomalies.not_enough_range', {
                        from: time(short.fromMs),
                        to: time(short.toMs),
                      }),
                    }
                  : {})}
              />
            )}
            {model ? (
              <Descriptions
                size="small"
                column={1}
                bordered
                data-testid="anomaly-model"
                items={[
                  {
                    key: 'trained',
                    label: t('anomalies.trained_at'),
                    children: `${time(model.trainedAtMs)} (${t(model.scheduled ? 'anomalies.trained_by_schedule' : 'anomalies.trained_by_owner')})`,
                  },
                  {
                    key: 'on',
                    label: t('anomalies.trained_on'),
                    children: t('anomalies.trained_on_value', {
                      from: time(model.fromMs),
                      to: time(model.toMs),
                    }),
                  },
                  { key: 'weeks', label: t('anomalies.weeks'), children: formatNumber(model.weeks) },
                  { key: 'hours', label: t('anomalies.hours_used'), children: formatNumber(model.hoursUsed) },
                  {
                    key: 'row',
                    label: t('anomalies.hours_in_row'),
                    children: formatNumber(model.hoursInRow),
                  },
                ]}
              />
            ) : (
              !short && <Typography.Text type="secondary">{t('anomalies.no_model')}</Typography.Text>
            )}
            <Form
              layout="vertical"
              onFinish={() =>
                training.mutate(
                  { weeks, hoursInRow },
                  {
                    onSuccess: (d) => {
                      if (d.model && !d.notEnoughHistory) toast('success', t('anomalies.trained'));
                    },
                  },
                )
              }
            >
              <Flex gap={16} wrap>
                <Form.Item label={t('anomalies.weeks')} style={{ marginBottom: 8 }}>
                  <InputNumber
                    min={3}
                    max={52}
                    value={weeks}
                    onChange={(v) => setWeeks(v ?? 8)}
                    aria-label={t('anomalies.weeks')}
                  />
                </Form.Item>
                <Form.Item label={t('anomalies.hours_in_row')} style={{ marginBottom: 8 }}>
                  <InputNumber
                    min={1}
                    max={24}
                    value={hoursInRow}
                    onChange={(v) => setHoursInRow(v ?? 2)}
                    aria-label={t('anomalies.hours_in_row')}
                  />
                </Form.Item>
              </Flex>
              <Button
                type="primary"
                htmlType="submit"
                loading={training.isPending}
                data-testid="anomaly-train"
              >
                {model ? t('anomalies.retrain') : t('anomalies.train')}
              </Button>
            </Form>
          </Flex>
        </Card>
      </Col>
      <Col xs={24} xl={14}>
        <Card title={t('anomalies.anomalies')}>
          <Table<AnomalyEpisode>
            size="small"
            rowKey="id"
            data-testid="anomaly-list"
            columns={columns}
            dataSource={data?.anomalies ?? []}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: t('anomalies.no_anomalies') }}
          />
        </Card>
      </Col>
    </Row>
  );
}
