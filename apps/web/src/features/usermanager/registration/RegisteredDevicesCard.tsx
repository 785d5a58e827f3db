import { EditOutlined, SyncOutlined, StopOutlined } from '@ant-design/icons';
import type { DeviceConnectionSettings, RegisteredDevice } from '@meterportal/protocol';
import { Button, Card, Empty, Flex, Grid, Popconfirm, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { snackbar } from '../../../api/notify';
import { MappingDialog } from './MappingDialog';
import { useRegisteredDevicesQuery, useRevokeCredentialsMutation, useRotateCredentialsMutation } from './api';

interface RegisteredDevicesCardProps {
  onRotated: (settings: DeviceConnectionSettings, title: string) => void;
}

/** Registered devices: family, identifier, topic, state; a new password or revocation per device. */
export function RegisteredDevicesCard({ onRotated }: RegisteredDevicesCardProps) {
  const { t } = useTranslation();
  const devices = useRegisteredDevicesQuery();
  const rotate = useRotateCredentialsMutation();
  const revoke = useRevokeCredentialsMutation();
  // Phones: identifier, family and topic move under the title, so the row fits without scrolling.
  const phone = Grid.useBreakpoint().sm === false;
  const [editing, setEditing] = useState<RegisteredDevice | null>(null);

  const state = (d: RegisteredDevice) =>
    !d.credentials ? (
      <Tag color="default">{t('registration.revoked')}</Tag>
    ) : d.online ? (
      <Tag color="green">{t('registration.online')}</Tag>
    ) : (
      <Tag color="orange">{t('registration.offline')}</Tag>
    );
  const where = (d: RegisteredDevice) => (
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {t(`registration.family_${d.family}`)}
      {d.topic ? ` · ${d.topic}` : ''}
    </Typography.Text>
  );
  const actions = (d: RegisteredDevice) => (
    <Flex gap={4}>
      {d.family === 'json' && (
        <Tooltip title={t('jsonMeter.edit')}>
          <Button
            icon={<EditOutlined />}
            aria-label={`${t('jsonMeter.edit')} ${d.title}`}
            onClick={() => setEditing(d)}
          />
        </Tooltip>
      )}
      <Popconfirm
        title={t('registration.rotate')}
        description={t('registration.rotate_confirm', { title: d.title })}
        okText={t('common.yes')}
        cancelText={t('common.no')}
        onConfirm={() => rotate.mutate(d.mac, { onSuccess: (s) => onRotated(s, d.title) })}
      >
        <Tooltip title={t('registration.rotate')}>
          <Button icon={<SyncOutlined />} aria-label={`${t('registration.rotate')} ${d.title}`} />
        </Tooltip>
      </Popconfirm>
      <Popconfirm
        title={t('registration.revoke')}
        description={t('registration.revoke_confirm', { title: d.title })}
        okText={t('common.yes')}
        cancelText={t('common.no')}
        okButtonProps={{ danger: true }}
        disabled={!d.credentials}
        onConfirm={() =>
          revoke.mutate(d.mac, { onSuccess: () => snackbar('success', t('registration.revoked_done')) })
        }
      >
        <Tooltip title={t('registration.revoke')}>
          <Button
            danger
            icon={<StopOutlined />}
            disabled={!d.credentials}
            aria-label={`${t('registration.revoke')} ${d.title}`}
          />
        </Tooltip>
      </Popconfirm>
    </Flex>
  );

  return (
    <Card title={t('registration.devices')}>
      <Table<RegisteredDevice>
        size="small"
        rowKey="mac"
        className="registered-devices"
        loading={devices.isLoading}
        dataSource={devices.data ?? []}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description={t('registration.no_devices')} /> }}
        columns={
          phone
            ? [
                {
                  title: t('registration.device_title'),
                  key: 'device',
                  render: (_v, d) => (
                    <Flex vertical gap={2}>
                      <span>{d.title}</span>
                      <Typography.Text style={{ fontSize: 12 }}>{d.mac}</Typography.Text>
                      {where(d)}
                      <span>{state(d)}</span>
                    </Flex>
                  ),
                },
                {
                  title: t('registration.actions'),
                  key: 'actions',
                  width: 136,
                  render: (_v, d) => actions(d),
                },
              ]
            : [
                { title: t('registration.device_title'), key: 'title', dataIndex: 'title' },
                { title: t('registration.identifier_short'), key: 'mac', dataIndex: 'mac' },
                {
                  title: t('registration.family'),
                  key: 'family',
                  render: (_v, d) => t(`registration.family_${d.family}`),
                },
                {
                  title: t('registration.topic_column'),
                  key: 'topic',
                  render: (_v, d) => d.topic ?? '—',
                },
                { title: t('registration.state'), key: 'state', render: (_v, d) => state(d) },
                {
                  title: t('registration.actions'),
                  key: 'actions',
                  width: 136,
                  render: (_v, d) => actions(d),
                },
              ]
        }
      />
      {editing && <MappingDialog device={editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}
