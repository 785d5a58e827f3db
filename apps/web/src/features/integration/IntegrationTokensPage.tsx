import { ApiOutlined, CopyOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { IntegrationTokenEntry } from '@meterportal/protocol';
import {
  Alert,
  Button,
  Card,
  Empty,
  Flex,
  Grid,
  Input,
  Modal,
  Popconfirm,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { getConfig } from '../../api/config';
import { snackbar } from '../../api/notify';
import { DEFAULT_ROUTE } from '../../app/routeMemory';
import { useAuthUser, useDeviceList } from '../auth/session';
import { formatInZone, installationZone } from '../telemetry/zone';
import { useIntegrationTokensQuery, useRevokeIntegrationTokenMutation } from './api';
import { CreateTokenModal } from './CreateTokenModal';
import { canUseIntegrationTokens } from './routes';
import { curlExample, integrationApiUrl, isExpired } from './tokenRules';

type Created = IntegrationTokenEntry & { secret: string };

/** Integration tokens of the signed-in user: create (secret shown once), list and revoke. */
export function IntegrationTokensPage() {
  const { t } = useTranslation();
  const user = useAuthUser();
  const tokens = useIntegrationTokensQuery();
  const revoke = useRevokeIntegrationTokenMutation();
  const devices = useDeviceList();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Created | null>(null);
  const tz = installationZone();
  // Phones: created, last use and expiry move under the name, so the row fits without scrolling.
  const phone = Grid.useBreakpoint().sm === false;

  if (!canUseIntegrationTokens(user)) return <Navigate to={DEFAULT_ROUTE} replace />;
  const title = (mac: string) => devices.find((d) => d.mac === mac)?.title ?? mac;
  const time = (ms: number) => formatInZone(ms, 'L LT', tz);
  const deviceTags = (r: IntegrationTokenEntry) =>
    r.devices === null ? (
      <Tag color="blue">{t('integration.all_devices')}</Tag>
    ) : (
      <Flex wrap gap={4}>
        {r.devices.map((mac) => (
          <Tag key={mac}>{title(mac)}</Tag>
        ))}
      </Flex>
    );
  const lastUsed = (r: IntegrationTokenEntry) =>
    r.lastUsedAt === null ? t('integration.never_used') : time(r.lastUsedAt);
  const expiry = (r: IntegrationTokenEntry) =>
    r.expiresAt === null ? (
      t('integration.no_expiry')
    ) : (
      <Space size={4}>
        {time(r.expiresAt * 1000)}
        {isExpired(r.expiresAt, Date.now()) && <Tag color="red">{t('integration.expired')}</Tag>}
      </Space>
    );

  return (
    <Card
      title={t('integration.title')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {t('integration.create')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        {t('integration.intro')}{' '}
        <a href="/api/docs" target="_blank" rel="noreferrer">
          <ApiOutlined /> {t('integration.api_docs')}
        </a>
      </Typography.Paragraph>
      <Table<IntegrationTokenEntry>
        size="small"
        rowKey="id"
        loading={tokens.isFetching || revoke.isPending}
        dataSource={tokens.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('integration.no_tokens')} /> }}
        columns={[
          {
            title: t('integration.name'),
            key: 'name',
            render: (_v, r) =>
              phone ? (
                <Flex vertical gap={2}>
                  <Typography.Text strong>{r.name}</Typography.Text>
                  {deviceTags(r)}
                  <Typography.Text type="secondary">
                    {t('integration.last_used')}: {lastUsed(r)}
                  </Typography.Text>
                  <Typography.Text type="secondary">
                    {t('integration.expiry')}: {expiry(r)}
                  </Typography.Text>
                </Flex>
              ) : (
                r.name
              ),
          },
          ...(phone
            ? []
            : [
                {
                  title: t('integration.devices'),
                  key: 'devices',
                  render: (_v: unknown, r: IntegrationTokenEntry) => deviceTags(r),
                },
                {
                  title: t('integration.created'),
                  key: 'created',
                  render: (_v: unknown, r: IntegrationTokenEntry) => time(r.createdAt),
                },
                {
                  title: t('integration.last_used'),
                  key: 'lastUsed',
                  render: (_v: unknown, r: IntegrationTokenEntry) => lastUsed(r),
                },
                {
                  title: t('integration.expiry'),
                  key: 'expiry',
                  render: (_v: unknown, r: IntegrationTokenEntry) => expiry(r),
                },
              ]),
          {
            title: t('integration.revoke'),
            key: 'revoke',
            width: phone ? 56 : 90,
            align: 'center' as const,
            render: (_v, r) => (
              <Popconfirm
                title={t('integration.revoke_confirm', { name: r.name })}
                okText={t('integration.revoke')}
                okButtonProps={{ danger: true }}
                cancelText={t('common.cancel')}
                onConfirm={() =>
                  revoke.mutate(r.id, { onSuccess: () => snackbar('success', t('integration.revoked')) })
                }
              >
                <Button
                  danger
                  type="text"
                  icon={<DeleteOutlined />}
                  aria-label={`${t('integration.revoke')} ${r.name}`}
                />
              </Popconfirm>
            ),
          },
        ]}
      />
      {creating && (
        <CreateTokenModal
          onClose={() => setCreating(false)}
          onCreated={(c) => {
            setCreating(false);
            setCreated(c);
          }}
        />
      )}
      {created && <SecretDialog created={created} onClose={() => setCreated(null)} />}
    </Card>
  );
}

/** The new token's secret, shown this once, with a copy button and a curl example. */
function SecretDialog({ created, onClose }: { created: Created; onClose: () => void }) {
  const { t } = useTranslation();
  const url = integrationApiUrl(getConfig().readBase, window.location.origin, '/devices');
  const copy = () => {
    // The clipboard exists only in secure contexts; the token stays visible to copy by hand.
    void (navigator.clipboard?.writeText(created.secret) ?? Promise.reject(new Error('no clipboard')))
      .then(() => snackbar('success', t('integration.copied')))
      .catch(() => snackbar('warning', t('integration.copy_failed')));
  };
  return (
    <Modal
      open
      title={t('integration.secret_title', { name: created.name })}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('integration.done')}
        </Button>
      }
      destroyOnHidden
    >
      <Alert type="warning" showIcon message={t('integration.secret_warning')} style={{ marginBottom: 16 }} />
      <Space.Compact style={{ width: '100%' }}>
        <Input
          readOnly
          value={created.secret}
          aria-label={t('integration.secret')}
          className="integration-secret"
          style={{ fontFamily: 'monospace' }}
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button icon={<CopyOutlined />} onClick={copy}>
          {t('integration.copy')}
        </Button>
      </Space.Compact>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 4 }}>
        {t('integration.example')}
      </Typography.Paragraph>
      <Typography.Paragraph code style={{ wordBreak: 'break-all' }}>
        {curlExample(url, created.secret)}
      </Typography.Paragraph>
    </Modal>
  );
}
