import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { AlarmRule } from '@meterportal/protocol';
import { Alert, Button, Card, Empty, Flex, Popconfirm, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { snackbar } from '../../api/notify';
import { useSelectedDevice } from '../devices/selection';
import { AlarmList, SEVERITY_COLOR } from './AlarmList';
import { AlarmRuleModal } from './AlarmRuleModal';
import { ruleSummary } from './alarmRules';
import { useAlarmRulesQuery, useAlarmsQuery, useDeleteRuleMutation } from './alarmsApi';

/** Alarms of the selected device: its active alarms, the user's rules, and the alarm list. */
export function AlarmsPage() {
  const { t } = useTranslation();
  const device = useSelectedDevice();
  if (!device) return <Empty description={t('tools.no_device')} />;
  return (
    <Flex vertical gap={16}>
      <ActiveAlarms deviceToken={device.token} />
      <RulesCard deviceToken={device.token} />
      <AlarmList deviceToken={device.token} />
    </Flex>
  );
}

function ActiveAlarms({ deviceToken }: { deviceToken: string }) {
  const { t } = useTranslation();
  const active = useAlarmsQuery(deviceToken, { state: 'active' }).data ?? [];
  return (
    <Alert
      type={active.length ? 'error' : 'success'}
      showIcon
      message={active.length ? t('alarms.active_title') : t('alarms.none_active')}
      description={
        active.length ? (
          <Space wrap data-testid="active-alarms">
            {active.map((a) => (
              <Tag key={a.ID} color={SEVERITY_COLOR[a.severity]}>
                {a.name} · {t(`alarms.states.${a.state}`)}
              </Tag>
            ))}
          </Space>
        ) : undefined
      }
    />
  );
}

function RulesCard({ deviceToken }: { deviceToken: string }) {
  const { t } = useTranslation();
  const rules = useAlarmRulesQuery(deviceToken);
  const remove = useDeleteRuleMutation(deviceToken);
  const [editing, setEditing] = useState<AlarmRule | null | 'new'>(null);

  return (
    <Card
      title={t('alarms.rules')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('alarms.add_rule')}
        </Button>
      }
    >
      <Table<AlarmRule>
        size="small"
        rowKey="ID"
        loading={rules.isFetching || remove.isPending}
        dataSource={rules.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('alarms.no_rules')} /> }}
        columns={[
          { title: t('alarms.name'), key: 'name', render: (_v, r) => r.rule.name },
          { title: t('alarms.watches'), key: 'what', render: (_v, r) => ruleSummary(t, r.rule) },
          {
            title: t('alarms.severity'),
            key: 'severity',
            render: (_v, r) => (
              <Tag color={SEVERITY_COLOR[r.rule.severity]}>{t(`alarms.severities.${r.rule.severity}`)}</Tag>
            ),
          },
          {
            title: '',
            key: 'actions',
            width: 100,
            render: (_v, r) => (
              <Space size={0}>
                <Button
                  type="text"
                  icon={<EditOutlined />}
                  aria-label={t('alarms.edit')}
                  onClick={() => setEditing(r)}
                />
                <Popconfirm
                  title={t('alarms.confirm_delete')}
                  okText={t('common.yes')}
                  cancelText={t('common.no')}
                  onConfirm={() =>
                    remove.mutate(r.ID, { onSuccess: () => snackbar('success', t('alarms.rule_deleted')) })
                  }
                >
                  <Button danger type="text" icon={<DeleteOutlined />} aria-label={t('alarms.delete_rule')} />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing !== null && (
        <AlarmRuleModal
          deviceToken={deviceToken}
          editing={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Card>
  );
}
