import {
  DeviceType,
  EmailAddress,
  MESSAGE_LANGUAGES,
  REPORT_DELIVERIES,
  REPORT_EVERY,
  REPORT_KINDS,
  type MessageLanguage,
  type ReportDelivery,
  type ReportEvery,
  type ReportKind,
  type ReportSchedule,
} from '@meterportal/protocol';
import { DeleteOutlined, DownloadOutlined, FilePdfOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Form, Input, List, Popconfirm, Select, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/format';
import { useDeviceList } from '../auth/session';
import { useSelectedDevice } from '../devices/selection';
import { inZone, installationZone } from '../telemetry/zone';
import {
  useCreateSchedule,
  useDeleteSchedule,
  useKeptDownload,
  useKeptQuery,
  useReportDownload,
  useSchedulesQuery,
} from './api';
import { FolderReportCard } from './FolderReportCard';

/** The interface language as a report language. */
function interfaceLanguage(): MessageLanguage {
  const l = currentLanguage();
  return MESSAGE_LANGUAGES.find((m) => l.startsWith(m)) ?? 'en';
}

/** The 24 local months ending with the current one, newest first, as YYYY-MM. */
function recentMonths(tz: string, nowMs: number): string[] {
  const now = inZone(nowMs, tz);
  return Array.from({ length: 24 }, (_, i) => now.startOf('month').subtract(i, 'month').format('YYYY-MM'));
}

/** PDF reports: download one now, schedule them by e-mail or for keeping, download kept ones. */
export function ReportsPage() {
  const { i18n } = useTranslation();
  const tz = installationZone();
  const months = useMemo(() => recentMonths(tz, Date.now()), [tz]);
  const monthLabel = useMemo(() => {
    const f = new Intl.DateTimeFormat(i18n.language, { year: 'numeric', month: 'long', timeZone: 'UTC' });
    return (m: string) => f.format(Date.UTC(Number(m.slice(0, 4)), Number(m.slice(5, 7)) - 1, 15));
  }, [i18n.language]);
  return (
    <Flex vertical gap={16} className="reports-page">
      <DownloadCard />
      <FolderReportCard months={months} monthLabel={monthLabel} defaultLanguage={interfaceLanguage()} />
      <SchedulesCard />
      <KeptCard />
    </Flex>
  );
}

function useDeviceOptions() {
  const devices = useDeviceList();
  return devices.map((d) => ({ value: d.token, label: d.title ? `${d.title} (${d.mac})` : d.mac }));
}

/** The kinds of report a device has: power quality only for analyzers (type 3). */
function useKindOptions(token: string | undefined) {
  const { t } = useTranslation();
  const analyzer = useDeviceList().find((d) => d.token === token)?.type === DeviceType.Precision;
  return REPORT_KINDS.filter((k) => k !== 'POWER_QUALITY' || analyzer).map((k) => ({
    value: k,
    label: t(`reports.kind_${k}`),
  }));
}

function useLanguageOptions() {
  const { t } = useTranslation();
  return MESSAGE_LANGUAGES.map((l) => ({ value: l, label: t(`reports.language_${l}`) }));
}

function DownloadCard() {
  const { t, i18n } = useTranslation();
  const tz = installationZone();
  const selected = useSelectedDevice();
  const devices = useDeviceOptions();
  const languages = useLanguageOptions();
  const months = useMemo(() => recentMonths(tz, Date.now()), [tz]);
  const monthLabel = useMemo(() => {
    const f = new Intl.DateTimeFormat(i18n.language, { year: 'numeric', month: 'long', timeZone: 'UTC' });
    return (m: string) => f.format(Date.UTC(Number(m.slice(0, 4)), Number(m.slice(5, 7)) - 1, 15));
  }, [i18n.language]);
  const [token, setToken] = useState<string | undefined>(selected?.token ?? devices[0]?.value);
  const kinds = useKindOptions(token);
  const [chosenKind, setKind] = useState<ReportKind>('ENERGY_COST');
  // A kind the device does not have falls back to the first one.
  const kind = kinds.some((k) => k.value === chosenKind) ? chosenKind : 'ENERGY_COST';
  const [month, setMonth] = useState<string>(months[1] ?? months[0]!);
  // The interface language until the user picks another.
  const [picked, setLanguage] = useState<MessageLanguage | null>(null);
  const language = picked ?? interfaceLanguage();
  const mutation = useReportDownload();
  return (
    <Card title={t('reports.title')} size="small">
      <Form layout="vertical" className="reports-download">
        <Form.Item label={t('reports.device')}>
          <Select
            data-testid="report-device"
            value={token}
            options={devices}
            onChange={setToken}
            showSearch
            optionFilterProp="label"
          />
        </Form.Item>
        <Flex wrap style={{ columnGap: 12 }}>
          <Form.Item label={t('reports.kind')} style={{ minWidth: 220, flex: 1 }}>
            <Select data-testid="report-kind" value={kind} options={kinds} onChange={setKind} />
          </Form.Item>
          <Form.Item label={t('reports.month')} style={{ minWidth: 160, flex: 1 }}>
            <Select
              data-testid="report-month"
              value={month}
              options={months.map((m) => ({ value: m, label: monthLabel(m) }))}
              onChange={setMonth}
            />
          </Form.Item>
          <Form.Item label={t('reports.language')} style={{ minWidth: 140, flex: 1 }}>
            <Select
              data-testid="report-language"
              value={language}
              options={languages}
              onChange={setLanguage}
            />
          </Form.Item>
        </Flex>
        <Button
          type="primary"
          icon={<DownloadOutlined />}
          disabled={!token}
          loading={mutation.isPending}
          onClick={() => token && mutation.mutate({ token, kind, month, language })}
          data-testid="report-download"
        >
          {t('reports.download')}
        </Button>
      </Form>
    </Card>
  );
}

interface ScheduleForm {
  token?: string;
  kind: ReportKind;
  every: ReportEvery;
  delivery: ReportDelivery;
  email?: string;
  language: MessageLanguage;
}

function SchedulesCard() {
  const { t, i18n } = useTranslation();
  const tz = installationZone();
  const selected = useSelectedDevice();
  const devices = useDeviceOptions();
  const languages = useLanguageOptions();
  const query = useSchedulesQuery();
  const create = useCreateSchedule();
  const remove = useDeleteSchedule();
  const [form] = Form.useForm<ScheduleForm>();
  const delivery = Form.useWatch('delivery', form);
  const kinds = useKindOptions(Form.useWatch('token', form));
  const kindValue = Form.useWatch('kind', form);
  // A kind the newly chosen device does not have falls back to energy and cost.
  useEffect(() => {
    if (kindValue && !kinds.some((k) => k.value === kindValue)) form.setFieldValue('kind', 'ENERGY_COST');
  }, [form, kinds, kindValue]);
  // The new schedule's language follows the interface until the user picks one.
  useEffect(() => {
    if (!form.isFieldTouched('language')) form.setFieldValue('language', interfaceLanguage());
  }, [form, i18n.language]);
  const date = new Intl.DateTimeFormat(i18n.language, { timeZone: tz, dateStyle: 'medium' });

  const submit = (v: ScheduleForm) => {
    if (!v.token) return;
    create.mutate(
      {
        token: v.token,
        kind: v.kind,
        every: v.every,
        delivery: v.delivery,
        language: v.language,
        ...(v.delivery === 'EMAIL' && v.email ? { email: v.email.trim() } : {}),
      },
      { onSuccess: () => form.setFieldValue('email', undefined) },
    );
  };

  const describe = (s: ReportSchedule) =>
    [
      t(`reports.every_${s.every}`),
      s.delivery === 'EMAIL'
        ? `${t('reports.delivery_EMAIL')}: ${s.email ?? ''}`
        : t('reports.delivery_KEEP'),
      t(`reports.language_${s.language}`),
      `${t('reports.last_period')}: ${s.lastPeriodMs === null ? t('reports.never') : date.format(s.lastPeriodMs)}`,
    ].join(' · ');

  return (
    <Card title={t('reports.schedules')} size="small">
      <Flex vertical gap={12}>
        <List
          data-testid="report-schedules"
          size="small"
          loading={query.isLoading}
          dataSource={query.data ?? []}
          locale={{ emptyText: <Empty description={t('reports.no_schedules')} /> }}
          renderItem={(s) => (
            <List.Item
              data-testid="report-schedule"
              actions={[
                <Popconfirm
                  key="delete"
                  title={t('reports.delete_confirm')}
                  onConfirm={() => remove.mutate(s.id)}
                >
                  <Button danger size="small" icon={<DeleteOutlined />} aria-label={t('reports.delete')} />
                </Popconfirm>,
              ]}
            >
              <List.Item.Meta
                title={
                  <span>
                    <Tag color="blue">{t(`reports.kind_${s.kind}`)}</Tag>
                    {s.title}
                  </span>
                }
                description={describe(s)}
              />
            </List.Item>
          )}
        />
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('reports.new_schedule')}
        </Typography.Title>
        <Typography.Text type="secondary">{t('reports.schedule_note', { tz })}</Typography.Text>
        <Form<ScheduleForm>
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{
            token: selected?.token ?? devices[0]?.value,
            kind: 'ENERGY_COST',
            every: 'MONTHLY',
            delivery: 'KEEP',
            language: interfaceLanguage(),
          }}
        >
          <Form.Item name="token" label={t('reports.device')} rules={[{ required: true }]}>
            <Select data-testid="schedule-device" options={devices} showSearch optionFilterProp="label" />
          </Form.Item>
          <Flex wrap style={{ columnGap: 12 }}>
            <Form.Item name="kind" label={t('reports.kind')} style={{ minWidth: 220, flex: 1 }}>
              <Select data-testid="schedule-kind" options={kinds} />
            </Form.Item>
            <Form.Item name="every" label={t('reports.every')} style={{ minWidth: 160, flex: 1 }}>
              <Select
                data-testid="schedule-every"
                options={REPORT_EVERY.map((e) => ({ value: e, label: t(`reports.every_${e}`) }))}
              />
            </Form.Item>
            <Form.Item name="language" label={t('reports.language')} style={{ minWidth: 140, flex: 1 }}>
              <Select data-testid="schedule-language" options={languages} />
            </Form.Item>
          </Flex>
          <Flex wrap style={{ columnGap: 12 }}>
            <Form.Item name="delivery" label={t('reports.delivery')} style={{ minWidth: 200, flex: 1 }}>
              <Select
                data-testid="schedule-delivery"
                options={REPORT_DELIVERIES.map((d) => ({ value: d, label: t(`reports.delivery_${d}`) }))}
              />
            </Form.Item>
            {delivery === 'EMAIL' && (
              <Form.Item
                name="email"
                label={t('reports.email')}
                style={{ minWidth: 220, flex: 2 }}
                rules={[
                  {
                    validator: (_, v: string | undefined) =>
                      EmailAddress.safeParse((v ?? '').trim()).success
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('reports.email_invalid'))),
                  },
                ]}
              >
                <Input data-testid="schedule-email" type="email" autoComplete="email" />
              </Form.Item>
            )}
          </Flex>
          <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="schedule-create">
            {t('reports.create')}
          </Button>
        </Form>
      </Flex>
    </Card>
  );
}

function KeptCard() {
  const { t, i18n } = useTranslation();
  const tz = installationZone();
  const query = useKeptQuery();
  const get = useKeptDownload();
  const date = new Intl.DateTimeFormat(i18n.language, { timeZone: tz, dateStyle: 'medium' });
  const size = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  return (
    <Card title={t('reports.kept')} size="small">
      <List
        data-testid="report-kept"
        size="small"
        loading={query.isLoading}
        dataSource={query.data ?? []}
        locale={{ emptyText: <Empty description={t('reports.no_kept')} /> }}
        renderItem={(r) => (
          <List.Item
            data-testid="report-kept-item"
            actions={[
              <Button
                key="get"
                size="small"
                icon={<FilePdfOutlined />}
                loading={get.isPending && get.variables === r.id}
                onClick={() => get.mutate(r.id)}
                aria-label={t('reports.download')}
              >
                PDF
              </Button>,
            ]}
          >
            <List.Item.Meta
              title={
                <span>
                  <Tag color="blue">{t(`reports.kind_${r.kind}`)}</Tag>
                  {r.title}
                </span>
              }
              description={`${t('reports.period')}: ${date.format(r.fromMs)} – ${date.format(r.toMs - 1)} · ${t(
                `reports.language_${r.language}`,
              )} · ${size.format(r.sizeBytes / 1024)} kB`}
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
