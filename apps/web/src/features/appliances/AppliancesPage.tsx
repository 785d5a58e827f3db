import type { ApplianceEntry, DeviceListEntry, NilmSettings } from '@meterportal/protocol';
import { DeleteOutlined, ScissorOutlined } from '@ant-design/icons';
import {
  Button,
  Card,
  Col,
  Empty,
  Flex,
  Grid,
  Popconfirm,
  Row,
  Switch,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../api/notify';
import { useSelectedDevice } from '../devices/selection';
import { GraphToolbar, useRange } from '../telemetry/GraphToolbar';
import { useAppliancesQuery, useNilmSettingsMutation, useRemoveApplianceMutation } from './api';
import { formatEdge, formatRuntime, formatWh } from './applianceRules';
import { hasAppliances } from './routes';
import { TeachCard } from './TeachCard';

/** The appliances a household meter has learned, teaching a new one, and its NILM switches. */
export function AppliancesPage() {
  const { t } = useTranslation();
  const device = useSelectedDevice();
  return (
    <>
      <GraphToolbar granularity="day" showSource={false} />
      {hasAppliances(device) ? (
        <ApplianceView device={device} />
      ) : (
        <Empty description={t('appliances.not_household')} />
      )}
    </>
  );
}

function ApplianceView({ device }: { device: DeviceListEntry }) {
  const { t, i18n } = useTranslation();
  const [range] = useRange('day');
  // The toolbar's range ends on its last second; the figures take the whole of it.
  const query = useAppliancesQuery(device.token, range.from * 1000, (range.to + 1) * 1000);
  const remove = useRemoveApplianceMutation(device.token);
  const settings = useNilmSettingsMutation(device.token);
  const current = query.data?.settings;
  const narrow = !Grid.useBreakpoint().md;

  const save = (next: NilmSettings) =>
    settings.mutate(next, { onSuccess: () => toast('success', t('common.settings_saved')) });
  const removeOne = (name: string, whole: boolean) =>
    remove.mutate(
      { name, whole },
      {
        onSuccess: () =>
          toast('success', t(whole ? 'appliances.removed_appliance' : 'appliances.removed_imprint')),
      },
    );

  const name: TableColumnsType<ApplianceEntry>[number] = {
    title: t('appliances.name'),
    key: 'name',
    render: (_v, a) => (
      <Flex vertical>
        <Typography.Text strong style={{ whiteSpace: narrow ? 'normal' : 'nowrap' }}>
          {a.name}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t(a.origin === 'TAUGHT' ? 'appliances.origin_taught' : 'appliances.origin_learned')}
          {narrow && a.phase ? ` · ${a.phase}` : ''}
        </Typography.Text>
      </Flex>
    ),
  };
  const imprint: TableColumnsType<ApplianceEntry>[number] = {
    title: t('appliances.imprint'),
    key: 'imprint',
    render: (_v, a) =>
      a.imprint ? (
        <Flex gap={4} wrap vertical={narrow} align="start">
          {a.imprint.map((e, i) => (
            <Tag key={i} color={e.deltaW >= 0 ? 'green' : 'orange'}>
              {formatEdge(e, i18n.language)}
            </Tag>
          ))}
        </Flex>
      ) : (
        <Typography.Text type="secondary">{t('appliances.no_imprint')}</Typography.Text>
      ),
  };
  const energy = (a: ApplianceEntry) => (
    <span className="appliance-energy">{formatWh(a.energyWh, i18n.language)}</span>
  );
  const actions: TableColumnsType<ApplianceEntry>[number] = {
    title: '',
    key: 'actions',
    render: (_v, a) => (
      <Flex gap={4} vertical={narrow}>
        {a.imprint && (
          <Popconfirm
            title={t('appliances.confirm_remove_imprint', { name: a.name })}
            onConfirm={() => removeOne(a.name, false)}
            okText={t('common.yes')}
            cancelText={t('common.no')}
          >
            <Button
              title={t('appliances.remove_imprint')}
              size="small"
              icon={<ScissorOutlined />}
              aria-label={t('appliances.remove_imprint')}
              disabled={remove.isPending}
            />
          </Popconfirm>
        )}
        <Popconfirm
          title={t('appliances.confirm_remove', { name: a.name })}
          onConfirm={() => removeOne(a.name, true)}
          okText={t('common.yes')}
          cancelText={t('common.no')}
        >
          <Button
            title={t('common.delete')}
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('common.delete')}
            disabled={remove.isPending}
          />
        </Popconfirm>
      </Flex>
    ),
  };
  // On a phone the figures share one column, so energy stays in sight without scrolling sideways.
  const columns: TableColumnsType<ApplianceEntry> = narrow
    ? [
        name,
        imprint,
        {
          title: t('appliances.energy'),
          key: 'figures',
          align: 'right',
          render: (_v, a) => (
            <Flex vertical align="end">
              {energy(a)}
              <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
                {a.runs}× · {formatRuntime(a.runtimeSec)}
              </Typography.Text>
            </Flex>
          ),
        },
        actions,
      ]
    : [
        name,
        { title: t('appliances.phase'), key: 'phase', render: (_v, a) => a.phase ?? '–' },
        imprint,
        { title: t('appliances.runs'), key: 'runs', align: 'right', render: (_v, a) => a.runs },
        {
          title: t('appliances.runtime'),
          key: 'runtime',
          align: 'right',
          render: (_v, a) => formatRuntime(a.runtimeSec),
        },
        { title: t('appliances.energy'), key: 'energy', align: 'right', render: (_v, a) => energy(a) },
        actions,
      ];

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={16}>
        <Card
          title={t('appliances.list_title')}
          className="appliance-list-card"
          size={narrow ? 'small' : 'default'}
        >
          <Table<ApplianceEntry>
            size="small"
            className="appliance-list"
            rowKey="name"
            loading={query.isFetching}
            dataSource={query.data?.appliances ?? []}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            scroll={{ x: true }}
            locale={{ emptyText: <Empty description={t('appliances.none')} /> }}
            columns={columns}
          />
        </Card>
      </Col>
      <Col xs={24} xl={8}>
        <Flex vertical gap={16}>
          <TeachCard token={device.token} />
          <Card title={t('appliances.settings_title')} className="appliance-settings">
            <Flex vertical gap={12}>
              <Flex justify="space-between" align="center" gap={8}>
                <Typography.Text>{t('appliances.process')}</Typography.Text>
                <Switch
                  aria-label={t('appliances.process')}
                  checked={current?.process ?? false}
                  disabled={!current}
                  loading={settings.isPending}
                  onChange={(process) => current && save({ ...current, process })}
                />
              </Flex>
              <Flex justify="space-between" align="center" gap={8}>
                <Typography.Text>{t('appliances.auto_learn')}</Typography.Text>
                <Switch
                  aria-label={t('appliances.auto_learn')}
                  checked={current?.autoLearn ?? false}
                  disabled={!current}
                  loading={settings.isPending}
                  onChange={(autoLearn) => current && save({ ...current, autoLearn })}
                />
              </Flex>
            </Flex>
          </Card>
        </Flex>
      </Col>
    </Row>
  );
}
