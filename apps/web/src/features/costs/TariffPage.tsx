import { DeleteOutlined, EditOutlined, MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  TARIFF_CURRENCIES,
  TARIFF_DAYS,
  TARIFF_MAX_BANDS,
  Tariff,
  type DeviceListEntry,
} from '@meterportal/protocol';
import {
  Alert,
  Button,
  Card,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Select,
  Table,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFixed, formatNumber } from '../../i18n/format';
import { useSelectedDevice } from '../devices/selection';
import { formatInZone, installationZone } from '../telemetry/zone';
import { useDeleteTariffMutation, useSaveTariffMutation, useTariffsQuery } from './api';
import { draftTariff } from './costRules';
import { tariffProblemText } from './tariffProblems';

/** The selected device's tariff versions; its owner adds, edits and removes them. */
export function TariffPage() {
  const { t } = useTranslation();
  const device = useSelectedDevice();
  if (!device) return <Empty description={t('common.data_not_found')} />;
  return <TariffVersions key={device.token} device={device} />;
}

function TariffVersions({ device }: { device: DeviceListEntry }) {
  const { t } = useTranslation();
  const query = useTariffsQuery(device.token);
  const remove = useDeleteTariffMutation(device.token);
  const [editing, setEditing] = useState<Tariff | null>(null);
  const tariffs = query.data?.tariffs ?? [];
  const owner = query.data?.owner === true;
  const today = formatInZone(Date.now(), 'YYYY-MM-DD', installationZone());

  const bandText = (v: Tariff) =>
    v.bands
      .map(
        (b) =>
          `${b.name} · ${t(`costs.days_${b.days}`)} ${b.fromHour}–${b.toHour} h · ${formatNumber(b.priceKwh, 6)}`,
      )
      .join('\n');

  return (
    <Flex vertical gap={16}>
      <Card title={t('costs.tariff_versions')} loading={query.isLoading}>
        {!owner && (
          <Alert type="info" showIcon message={t('costs.owner_only')} style={{ marginBottom: 12 }} />
        )}
        {tariffs.length === 0 ? (
          <Empty description={t('costs.no_tariff')} />
        ) : (
          <Table<Tariff>
            data-testid="tariff-versions"
            rowKey="validFrom"
            size="small"
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={tariffs}
            columns={[
              { title: t('costs.valid_from'), dataIndex: 'validFrom' },
              { title: t('costs.currency'), dataIndex: 'currency' },
              { title: t('costs.vat'), render: (_, v) => formatNumber(v.vatPercent, 2) },
              {
                title: t('costs.bands'),
                render: (_, v) => <span style={{ whiteSpace: 'pre-line' }}>{bandText(v)}</span>,
              },
              { title: t('costs.export_price'), render: (_, v) => formatNumber(v.exportPriceKwh, 6) },
              { title: t('costs.monthly_fee'), render: (_, v) => formatFixed(v.monthlyFee, 2) },
              { title: t('costs.capacity_price'), render: (_, v) => formatNumber(v.capacityPriceKw, 6) },
              ...(owner
                ? [
                    {
                      key: 'actions',
                      render: (_: unknown, v: Tariff) => (
                        <Flex gap={4}>
                          <Button
                            size="small"
                            icon={<EditOutlined />}
                            aria-label={t('costs.edit_version')}
                            onClick={() => setEditing(v)}
                          />
                          <Popconfirm
                            title={t('costs.confirm_delete', { date: v.validFrom })}
                            okText={t('common.delete')}
                            cancelText={t('common.cancel')}
                            onConfirm={() => remove.mutate(v.validFrom)}
                          >
                            <Button
                              size="small"
                              danger
                              icon={<DeleteOutlined />}
                              aria-label={t('common.delete')}
                            />
                          </Popconfirm>
                        </Flex>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        )}
      </Card>
      {owner && (
        <TariffForm
          key={editing?.validFrom ?? `new-${tariffs.length}`}
          token={device.token}
          initial={editing ?? draftTariff(tariffs.at(-1), today)}
          onSaved={() => setEditing(null)}
        />
      )}
    </Flex>
  );
}

interface TariffFormProps {
  token: string;
  initial: Tariff;
  onSaved: () => void;
}

/** One version's fields; the protocol's rules are checked before it is sent. */
function TariffForm({ token, initial, onSaved }: TariffFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Tariff>();
  const save = useSaveTariffMutation(token);
  const [problem, setProblem] = useState<string | null>(null);

  const onFinish = (values: Tariff) => {
    const parsed = Tariff.safeParse(values);
    if (!parsed.success) {
      setProblem(tariffProblemText(t, parsed.error.issues[0]?.path ?? [], values.holidays ?? []));
      return;
    }
    setProblem(null);
    save.mutate(parsed.data, { onSuccess: onSaved });
  };
  const number = (decimals: number) => ({
    min: 0,
    step: 1 / 10 ** Math.min(decimals, 2),
    style: { width: '100%' },
  });

  return (
    <Card title={t('costs.new_version')}>
      <Form<Tariff>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={onFinish}
        data-testid="tariff-form"
      >
        <Flex gap={12} wrap>
          <Form.Item name="validFrom" label={t('costs.valid_from')} rules={[{ required: true }]}>
            <Input type="date" />
          </Form.Item>
          <Form.Item name="currency" label={t('costs.currency')}>
            <Select style={{ width: 100 }} options={TARIFF_CURRENCIES.map((c) => ({ value: c, label: c }))} />
          </Form.Item>
          <Form.Item name="vatPercent" label={t('costs.vat')}>
            <InputNumber {...number(2)} max={100} />
          </Form.Item>
        </Flex>
        <Typography.Title level={5}>{t('costs.bands')}</Typography.Title>
        <Form.List name="bands">
          {(fields, { add, remove }) => (
            <Flex vertical gap={4}>
              {fields.map((f) => (
                <Flex key={f.key} gap={8} wrap align="end" data-testid="tariff-band">
                  <Form.Item
                    name={[f.name, 'name']}
                    label={t('costs.band_name')}
                    rules={[{ required: true }]}
                  >
                    <Input maxLength={20} style={{ width: 110 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'days']} label={t('costs.days')}>
                    <Select
                      style={{ width: 190 }}
                      options={TARIFF_DAYS.map((d) => ({ value: d, label: t(`costs.days_${d}`) }))}
                    />
                  </Form.Item>
                  <Form.Item name={[f.name, 'fromHour']} label={t('costs.from_hour')}>
                    <InputNumber min={0} max={23} style={{ width: 80 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'toHour']} label={t('costs.to_hour')}>
                    <InputNumber min={1} max={24} style={{ width: 80 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'priceKwh']} label={t('costs.price_kwh')}>
                    <InputNumber min={0} step={0.01} style={{ width: 120 }} />
                  </Form.Item>
                  <Form.Item>
                    <Button
                      icon={<MinusCircleOutlined />}
                      aria-label={t('costs.remove_band')}
                      disabled={fields.length <= 1}
                      onClick={() => remove(f.name)}
                    />
                  </Form.Item>
                </Flex>
              ))}
              <Button
                icon={<PlusOutlined />}
                disabled={fields.length >= TARIFF_MAX_BANDS}
                onClick={() => add({ name: '', days: 'ALL', fromHour: 0, toHour: 24, priceKwh: 0 })}
                style={{ alignSelf: 'flex-start', marginBottom: 16 }}
              >
                {t('costs.add_band')}
              </Button>
            </Flex>
          )}
        </Form.List>
        <Form.Item name="holidays" label={t('costs.holidays')} extra={t('costs.holidays_hint')}>
          <Select mode="tags" tokenSeparators={[',', ' ']} open={false} />
        </Form.Item>
        <Flex gap={12} wrap>
          <Form.Item name="exportPriceKwh" label={t('costs.export_price')}>
            <InputNumber {...number(6)} />
          </Form.Item>
          <Form.Item name="monthlyFee" label={t('costs.monthly_fee')}>
            <InputNumber {...number(2)} />
          </Form.Item>
          <Form.Item name="capacityPriceKw" label={t('costs.capacity_price')}>
            <InputNumber {...number(6)} />
          </Form.Item>
        </Flex>
        <Typography.Paragraph type="secondary">{t('costs.net_note')}</Typography.Paragraph>
        {problem && <Alert type="error" showIcon message={problem} style={{ marginBottom: 12 }} />}
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}
