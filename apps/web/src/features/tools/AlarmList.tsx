import { ALARM_SEVERITIES, ALARM_STATES, type Alarm } from '@meterportal/protocol';
import { Button, Card, DatePicker, Empty, Form, Input, Modal, Select, Space, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { snackbar } from '../../api/notify';
import { formatNumber } from '../../i18n/format';
import { useAcknowledgeMutation, useAlarmsQuery, type AlarmFilters } from './alarmsApi';
import { formatLocal } from '../telemetry/zone';

/** Tag colour of each severity and state. */
export const SEVERITY_COLOR = { info: 'blue', warning: 'orange', critical: 'red' } as const;
const STATE_COLOR = { raised: 'red', acknowledged: 'gold', cleared: 'green' } as const;

const when = (ms: number | null) => (ms === null ? '' : formatLocal(ms, 'L LTS'));

/** The alarms of a device with filters by state, severity and time, and acknowledgement. */
export function AlarmList({ deviceToken }: { deviceToken: string }) {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<AlarmFilters>({});
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const alarms = useAlarmsQuery(deviceToken, filters);
  const [acking, setAcking] = useState<Alarm | null>(null);

  const setRangeFilter = (r: [Dayjs | null, Dayjs | null] | null) => {
    setRange(r);
    const from = r?.[0]?.startOf('day').unix();
    const to = r?.[1]?.endOf('day').unix();
    setFilters(({ from: _f, to: _t, ...rest }) => ({
      ...rest,
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to: to + 1 } : {}),
    }));
  };

  return (
    <Card title={t('alarms.list')}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select<AlarmFilters['state'] | ''>
          aria-label={t('alarms.state')}
          style={{ minWidth: 150 }}
          value={filters.state ?? ''}
          onChange={(v) => setFilters(({ state: _s, ...rest }) => (v ? { ...rest, state: v } : rest))}
          options={[
            { value: '', label: `${t('alarms.state')}: ${t('alarms.any')}` },
            ...(['active', ...ALARM_STATES] as const).map((s) => ({
              value: s,
              label: t(`alarms.states.${s}`),
            })),
          ]}
        />
        <Select<AlarmFilters['severity'] | ''>
          aria-label={t('alarms.severity')}
          style={{ minWidth: 150 }}
          value={filters.severity ?? ''}
          onChange={(v) => setFilters(({ severity: _s, ...rest }) => (v ? { ...rest, severity: v } : rest))}
          options={[
            { value: '', label: `${t('alarms.severity')}: ${t('alarms.any')}` },
            ...ALARM_SEVERITIES.map((s) => ({ value: s, label: t(`alarms.severities.${s}`) })),
          ]}
        />
        <DatePicker.RangePicker
          aria-label={t('alarms.time_range')}
          value={range}
          onChange={(r) => setRangeFilter(r)}
          allowEmpty={[true, true]}
        />
      </Space>
      <Table<Alarm>
        size="small"
        rowKey="ID"
        loading={alarms.isLoading}
        dataSource={alarms.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('alarms.no_alarms')} /> }}
        columns={[
          { title: t('alarms.raised'), key: 'raised', render: (_v, a) => when(a.raised) },
          { title: t('alarms.name'), dataIndex: 'name' },
          {
            title: t('alarms.severity'),
            key: 'severity',
            render: (_v, a) => (
              <Tag color={SEVERITY_COLOR[a.severity]}>{t(`alarms.severities.${a.severity}`)}</Tag>
            ),
          },
          {
            title: t('alarms.state'),
            key: 'state',
            render: (_v, a) => <Tag color={STATE_COLOR[a.state]}>{t(`alarms.states.${a.state}`)}</Tag>,
          },
          { title: t('alarms.value'), key: 'value', render: (_v, a) => formatNumber(a.value) },
          {
            title: t('alarms.acknowledged_by'),
            key: 'ack',
            render: (_v, a) =>
              a.acknowledgedBy
                ? `${a.acknowledgedBy}, ${when(a.acknowledged)}${a.note ? `: ${a.note}` : ''}`
                : '',
          },
          { title: t('alarms.cleared'), key: 'cleared', render: (_v, a) => when(a.cleared) },
          {
            title: '',
            key: 'action',
            render: (_v, a) =>
              a.state === 'raised' ? (
                <Button size="small" onClick={() => setAcking(a)}>
                  {t('alarms.acknowledge')}
                </Button>
              ) : null,
          },
        ]}
      />
      {acking && (
        <AcknowledgeModal deviceToken={deviceToken} alarm={acking} onClose={() => setAcking(null)} />
      )}
    </Card>
  );
}

function AcknowledgeModal({
  deviceToken,
  alarm,
  onClose,
}: {
  deviceToken: string;
  alarm: Alarm;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ note?: string }>();
  const ack = useAcknowledgeMutation(deviceToken);
  const onFinish = async (v: { note?: string }) => {
    await ack.mutateAsync({ ID: alarm.ID, note: v.note?.trim() ?? '' });
    snackbar('success', t('alarms.ack_saved'));
    onClose();
  };
  return (
    <Modal
      open
      title={t('alarms.ack_title', { name: alarm.name })}
      okText={t('alarms.acknowledge')}
      cancelText={t('common.cancel')}
      confirmLoading={ack.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) => {
          onFinish(v).catch(() => undefined);
        }}
      >
        <Form.Item name="note" label={t('alarms.note')} rules={[{ max: 500 }]}>
          <Input.TextArea rows={3} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
