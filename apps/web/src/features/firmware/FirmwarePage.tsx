import { Application, type DeviceListEntry, type UpgradeEntry } from '@meterportal/protocol';
import { Button, Card, Empty, Flex, Popconfirm, Progress, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthUser, useDeviceList } from '../auth/session';
import {
  useFirmwareStatusQueries,
  useFirmwareVersionsQuery,
  useLiveUpgrades,
  useStartUpgradeMutation,
  type FirmwareStatus,
} from './api';
import { upgradableDevices } from './routes';
import { isRunning, progressStatus, versionsFor, withLiveStep } from './upgradeRules';
import { VersionsCard } from './VersionsCard';
import { formatLocal } from '../telemetry/zone';

const time = (ms: number) => formatLocal(ms, 'L LTS');

interface Row {
  device: DeviceListEntry;
  status: FirmwareStatus | undefined;
}

/** Upgrade history of one device: outcome with the versions before and after. */
function HistoryTable({ upgrades }: { upgrades: UpgradeEntry[] }) {
  const { t } = useTranslation();
  return (
    <Table<UpgradeEntry>
      size="small"
      className="firmware-history"
      rowKey="id"
      dataSource={upgrades}
      pagination={false}
      scroll={{ x: true }}
      locale={{ emptyText: <Empty description={t('firmware.no_history')} /> }}
      columns={[
        { title: t('firmware.started'), key: 'at', render: (_v, u) => time(u.startedAtMs) },
        { title: t('firmware.before'), key: 'from', render: (_v, u) => u.fromFw ?? '—' },
        { title: t('firmware.target'), dataIndex: 'toFw' },
        { title: t('firmware.after'), key: 'after', render: (_v, u) => u.fwAfter ?? '—' },
        { title: t('firmware.state'), key: 'state', render: (_v, u) => t(`firmware.state_${u.state}`) },
        { title: t('firmware.by'), key: 'by', render: (_v, u) => u.login ?? '—' },
      ]}
    />
  );
}

/** Owned devices with their version, a target version each, live progress and history. */
export function FirmwarePage() {
  const { t } = useTranslation();
  const manager = useAuthUser()?.applications.includes(Application.UserManager) === true;
  const devices = upgradableDevices(useDeviceList());
  const versions = useFirmwareVersionsQuery();
  const statuses = useFirmwareStatusQueries(devices);
  const statusData = statuses.map((q) => q.data);
  const live = useLiveUpgrades(devices, statusData);
  const start = useStartUpgradeMutation();
  const [targets, setTargets] = useState<Record<string, string>>({});
  const [selected, setSelected] = useState<string[]>([]);

  const rows: Row[] = devices.map((device, i) => ({ device, status: statusData[i] }));
  const ready = rows.filter(
    (r) =>
      selected.includes(r.device.mac) &&
      targets[r.device.mac] &&
      r.status &&
      !isRunning(r.status.upgrades[0]?.state ?? 'DONE'),
  );
  const startSelected = () => {
    for (const r of ready) start.mutate({ token: r.device.token, fw: targets[r.device.mac] ?? '' });
  };

  return (
    <Flex vertical gap={16}>
      <Card
        title={t('firmware.menu')}
        extra={
          <Popconfirm
            title={t('firmware.confirm_start', { count: ready.length })}
            onConfirm={startSelected}
            okText={t('common.yes')}
            cancelText={t('common.no')}
            disabled={ready.length === 0}
          >
            <Button type="primary" disabled={ready.length === 0}>
              {t('firmware.start')}
            </Button>
          </Popconfirm>
        }
      >
        <Table<Row>
          size="small"
          className="firmware-devices"
          rowKey={(r) => r.device.mac}
          dataSource={rows}
          pagination={false}
          // Narrower than this (a phone), the table scrolls sideways rather than breaking names.
          scroll={{ x: 880 }}
          loading={versions.isLoading}
          locale={{ emptyText: <Empty description={t('firmware.no_devices')} /> }}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
          expandable={{
            expandedRowRender: (r) => <HistoryTable upgrades={r.status?.upgrades ?? []} />,
          }}
          columns={[
            {
              title: t('firmware.device'),
              key: 'device',
              render: (_v, r) => (
                <Flex vertical>
                  <Typography.Text strong>{r.device.title}</Typography.Text>
                  <Typography.Text type="secondary">
                    {t(`firmware.type_names.${String(r.device.type) as '1'}`)}
                  </Typography.Text>
                </Flex>
              ),
            },
            {
              title: t('firmware.current'),
              key: 'fw',
              render: (_v, r) => (
                <Flex gap={4} wrap>
                  <span className="firmware-current">{r.status?.fw ?? '—'}</span>
                  {r.status && (
                    <Tag color={r.status.online ? 'green' : 'default'}>
                      {r.status.online ? t('firmware.online') : t('firmware.offline')}
                    </Tag>
                  )}
                </Flex>
              ),
            },
            {
              title: t('firmware.target'),
              key: 'target',
              render: (_v, r) => {
                const options = versionsFor(versions.data ?? [], r.device.type, r.status?.fw ?? null);
                // The device may run the only version registered for its type.
                const registered = (versions.data ?? []).some((v) => v.deviceType === r.device.type);
                return options.length === 0 ? (
                  <Typography.Text type="secondary">
                    {t(registered ? 'firmware.no_other_version' : 'firmware.no_versions')}
                  </Typography.Text>
                ) : (
                  <Select
                    aria-label={`${t('firmware.target')} ${r.device.title}`}
                    className="firmware-target"
                    placeholder={t('firmware.choose_version')}
                    value={targets[r.device.mac]}
                    onChange={(fw: string) => {
                      setTargets((s) => ({ ...s, [r.device.mac]: fw }));
                      setSelected((s) => (s.includes(r.device.mac) ? s : [...s, r.device.mac]));
                    }}
                    options={options.map((v) => ({ value: v.version, label: v.version }))}
                    style={{ minWidth: 140 }}
                  />
                );
              },
            },
            {
              title: t('firmware.progress'),
              key: 'progress',
              width: 260,
              render: (_v, r) => {
                const step = withLiveStep(r.status?.upgrades[0], live[r.device.mac]);
                if (!step) return null;
                return (
                  <Flex vertical className="firmware-progress" data-state={step.state}>
                    <Progress
                      percent={Math.round(step.progress)}
                      status={progressStatus(step.state)}
                      size="small"
                    />
                    <Typography.Text
                      type={step.state === 'DONE' ? 'success' : isRunning(step.state) ? undefined : 'danger'}
                    >
                      {t(`firmware.state_${step.state}`)} · {step.toFw}
                    </Typography.Text>
                  </Flex>
                );
              },
            },
          ]}
        />
      </Card>
      {manager && <VersionsCard versions={versions.data ?? []} />}
    </Flex>
  );
}
