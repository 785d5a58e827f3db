import {
  EmailAddress,
  REPORT_DELIVERIES,
  REPORT_EVERY,
  type MessageLanguage,
  type ReportDelivery,
  type ReportEvery,
  type ReportKind,
  type ReportSchedule,
} from '@meterportal/protocol';
import { DeleteOutlined, EditOutlined, FolderOutlined } from '@ant-design/icons';
import {
  Button,
  Card,
  Empty,
  Flex,
  Form,
  Input,
  List,
  Popconfirm,
  Radio,
  Select,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelectedDevice } from '../devices/selection';
import { installationZone } from '../telemetry/zone';
import {
  useCreateFolderSchedule,
  useCreateSchedule,
  useDeleteSchedule,
  useSchedulesQuery,
  useUpdateSchedule,
} from './api';
import {
  asFolderKind,
  folderValue,
  interfaceLanguage,
  pathOf,
  useDeviceOptions,
  useFolderKindOptions,
  useFolderOptions,
  useKindLabel,
  useKindOptions,
  useLanguageOptions,
} from './options';

/** What a schedule reports on: one device's report, or a folder's report over its devices. */
type Target = 'DEVICE' | 'FOLDER';

interface ScheduleForm {
  target: Target;
  token?: string;
  /** The folder's path as JSON (the select's value). */
  folder?: string;
  kind: ReportKind;
  every: ReportEvery;
  delivery: ReportDelivery;
  email?: string;
  language: MessageLanguage;
}

/** The user's schedules of device and folder reports, and the form that makes or edits one. */
export function SchedulesCard() {
  const { t, i18n } = useTranslation();
  const tz = installationZone();
  const selected = useSelectedDevice();
  const devices = useDeviceOptions();
  const folders = useFolderOptions();
  const languages = useLanguageOptions();
  const query = useSchedulesQuery();
  const create = useCreateSchedule();
  const createFolder = useCreateFolderSchedule();
  const update = useUpdateSchedule();
  const remove = useDeleteSchedule();
  const [editing, setEditing] = useState<ReportSchedule | null>(null);
  const formRef = useRef<HTMLDivElement>(null);
  const [form] = Form.useForm<ScheduleForm>();
  const target = Form.useWatch('target', form);
  const delivery = Form.useWatch('delivery', form);
  const deviceKinds = useKindOptions(Form.useWatch('token', form));
  const folderKinds = useFolderKindOptions();
  const kinds = target === 'FOLDER' ? folderKinds : deviceKinds;
  const kindLabel = useKindLabel();
  const kindValue = Form.useWatch('kind', form);
  // A kind the newly chosen device or a folder does not have falls back to energy and cost.
  useEffect(() => {
    if (kindValue && !kinds.some((k) => k.value === kindValue)) form.setFieldValue('kind', 'ENERGY_COST');
  }, [form, kinds, kindValue]);
  // The new schedule's language follows the interface until the user picks one.
  useEffect(() => {
    if (!form.isFieldTouched('language')) form.setFieldValue('language', interfaceLanguage());
  }, [form, i18n.language]);
  const date = new Intl.DateTimeFormat(i18n.language, { timeZone: tz, dateStyle: 'medium' });

  const stopEditing = () => {
    setEditing(null);
    form.resetFields(['email', 'folder']);
    form.setFieldValue('target', 'DEVICE');
  };
  const startEditing = (s: ReportSchedule) => {
    setEditing(s);
    form.setFieldsValue({
      target: s.folder ? 'FOLDER' : 'DEVICE',
      // A folder's schedule leaves the device choice of the new-schedule form as it was.
      ...(s.token ? { token: s.token } : {}),
      // A folder no longer in the tree is chosen again.
      folder: s.folder && !s.missing ? folderValue(s.folder) : undefined,
      kind: s.kind,
      every: s.every,
      delivery: s.delivery,
      email: s.email ?? undefined,
      language: s.language,
    });
    formRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };

  const submit = (v: ScheduleForm) => {
    const timing = {
      every: v.every,
      delivery: v.delivery,
      language: v.language,
      ...(v.delivery === 'EMAIL' && v.email ? { email: v.email.trim() } : {}),
    };
    const done = { onSuccess: () => (editing ? stopEditing() : form.setFieldValue('email', undefined)) };
    if (editing)
      update.mutate(
        { id: editing.id, ...timing, ...(editing.folder && v.folder ? { folder: pathOf(v.folder) } : {}) },
        done,
      );
    else if (v.target === 'FOLDER' && v.folder)
      createFolder.mutate({ folder: pathOf(v.folder), kind: asFolderKind(v.kind), ...timing }, done);
    else if (v.target === 'DEVICE' && v.token)
      create.mutate({ token: v.token, kind: v.kind, ...timing }, done);
  };

  const describe = (s: ReportSchedule) =>
    [
      t(`reports.every_${s.every}`),
      s.delivery === 'EMAIL'
        ? `${t('reports.delivery_EMAIL')}: ${s.email ?? ''}`
        : t('reports.delivery_KEEP'),
      t(`reports.language_${s.language}`),
      `${t('reports.last_period')}: ${s.lastPeriodMs === null ? t('reports.never') : date.format(s.lastPeriodMs)}`,
      ...(s.missing ? [t('reports.folder_missing_note')] : []),
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
                <Button
                  key="edit"
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={t('reports.edit')}
                  data-testid="schedule-edit"
                  onClick={() => startEditing(s)}
                />,
                <Popconfirm
                  key="delete"
                  title={t('reports.delete_confirm')}
                  onConfirm={() =>
                    remove.mutate(s.id, { onSuccess: () => editing?.id === s.id && stopEditing() })
                  }
                >
                  <Button
                    danger
                    size="small"
                    icon={<DeleteOutlined />}
                    aria-label={t('reports.delete')}
                    data-testid="schedule-delete"
                  />
                </Popconfirm>,
              ]}
            >
              <List.Item.Meta
                title={
                  <ScheduleTitle
                    kind={kindLabel(s)}
                    title={s.title}
                    folder={s.folder !== null}
                    missing={s.missing}
                  />
                }
                description={describe(s)}
              />
            </List.Item>
          )}
        />
        <div ref={formRef}>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {editing ? `${t('reports.edit_schedule')}: ${editing.title}` : t('reports.new_schedule')}
          </Typography.Title>
        </div>
        <Typography.Text type="secondary">
          {editing && !editing.folder ? t('reports.edit_device_note') : t('reports.schedule_note', { tz })}
        </Typography.Text>
        <Form<ScheduleForm>
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{
            target: 'DEVICE',
            token: selected?.token ?? devices[0]?.value,
            kind: 'ENERGY_COST',
            every: 'MONTHLY',
            delivery: 'KEEP',
            language: interfaceLanguage(),
          }}
        >
          <Form.Item name="target" label={t('reports.target')}>
            <Radio.Group
              data-testid="schedule-target"
              optionType="button"
              disabled={editing !== null}
              options={(['DEVICE', 'FOLDER'] as const).map((v) => ({
                value: v,
                label: t(`reports.target_${v}`),
              }))}
            />
          </Form.Item>
          <Flex wrap style={{ columnGap: 12 }}>
            {target === 'FOLDER' ? (
              <Form.Item
                name="folder"
                label={t('reports.folder')}
                rules={[{ required: true, message: t('reports.no_folders') }]}
                help={folders.options.length === 0 && !folders.loading ? t('reports.no_folders') : undefined}
                style={{ minWidth: 220, flex: 2 }}
              >
                <Select
                  data-testid="schedule-folder"
                  options={folders.options}
                  loading={folders.loading}
                  showSearch
                  optionFilterProp="label"
                />
              </Form.Item>
            ) : (
              <Form.Item
                name="token"
                label={t('reports.device')}
                rules={[{ required: true }]}
                style={{ minWidth: 220, flex: 2 }}
              >
                <Select
                  data-testid="schedule-device"
                  options={devices}
                  showSearch
                  optionFilterProp="label"
                  disabled={editing !== null}
                />
              </Form.Item>
            )}
            <Form.Item name="kind" label={t('reports.kind')} style={{ minWidth: 220, flex: 1 }}>
              <Select data-testid="schedule-kind" options={kinds} disabled={editing !== null} />
            </Form.Item>
          </Flex>
          <Flex wrap style={{ columnGap: 12 }}>
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
          <Flex gap={8} wrap>
            <Button
              type="primary"
              htmlType="submit"
              loading={create.isPending || createFolder.isPending || update.isPending}
              data-testid={editing ? 'schedule-save' : 'schedule-create'}
            >
              {editing ? t('reports.save') : t('reports.create')}
            </Button>
            {editing && (
              <Button onClick={stopEditing} data-testid="schedule-cancel">
                {t('reports.cancel')}
              </Button>
            )}
          </Flex>
        </Form>
      </Flex>
    </Card>
  );
}

/** A schedule's or kept report's heading: its kind, a folder mark, the title, and a missing folder. */
export function ScheduleTitle(props: { kind: string; title: string; folder: boolean; missing?: boolean }) {
  const { t } = useTranslation();
  return (
    <span>
      <Tag color={props.folder ? 'gold' : 'blue'}>{props.kind}</Tag>
      {props.folder && <FolderOutlined style={{ marginRight: 6 }} />}
      {props.title}
      {props.missing && (
        <Tag color="error" style={{ marginLeft: 8 }} data-testid="schedule-missing">
          {t('reports.folder_missing')}
        </Tag>
      )}
    </span>
  );
}
