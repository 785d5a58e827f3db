import { PlusOutlined } from '@ant-design/icons';
import {
  DEVICE_TYPES,
  REGISTRATION_FAMILIES,
  type DeviceConnectionSettings,
  type JsonMapping,
  type RegistrationFamily,
} from '@meterportal/protocol';
import { Button, Card, Form, Input, Select, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthUser } from '../../auth/session';
import { installationZone } from '../../telemetry/zone';
import { useUsersQuery } from '../api';
import { useRegisterDeviceMutation } from './api';
import { EMPTY_MAPPING, JsonMappingEditor, mappingProblemKey } from './JsonMappingEditor';
import {
  TITLE_MAX,
  TOPIC_MAX,
  TOPIC_PATTERN,
  isIdentifier,
  normalizeIdentifier,
  usesLocalTime,
} from './registrationRules';

interface AddDeviceForm {
  family: RegistrationFamily;
  mac: string;
  title: string;
  type: number;
  topic?: string;
  tz?: string;
  owner: string;
  mapping?: JsonMapping;
}

interface AddDeviceCardProps {
  onRegistered: (settings: DeviceConnectionSettings, title: string) => void;
}

/** Zones the browser knows, for the clock of a Tasmota or P1 device. */
function zones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
}

/** Family, identifier, title, type, topic or prefix, zone (local-time families) and owner. */
export function AddDeviceCard({ onRegistered }: AddDeviceCardProps) {
  const { t } = useTranslation();
  const me = useAuthUser()?.user ?? '';
  const users = useUsersQuery();
  const register = useRegisterDeviceMutation();
  const [form] = Form.useForm<AddDeviceForm>();
  const family = Form.useWatch('family', form) ?? 'shelly';
  const zoneOptions = useMemo(() => zones().map((z) => ({ value: z, label: z })), []);
  const owners = (users.data ?? []).map((u) => ({ value: u.login, label: u.login }));

  const onFinish = (v: AddDeviceForm) => {
    const title = v.title.trim();
    register.mutate(
      {
        family: v.family,
        mac: normalizeIdentifier(v.mac),
        title,
        type: v.type,
        ...(v.family !== 'portal' && v.topic ? { topic: v.topic.trim() } : {}),
        ...(usesLocalTime(v.family) && v.tz ? { tz: v.tz } : {}),
        ...(v.owner && v.owner !== me ? { owner: v.owner } : {}),
        ...(v.family === 'json' && v.mapping ? { mapping: v.mapping } : {}),
      },
      {
        onSuccess: (settings) => {
          form.resetFields(['mac', 'title', 'topic', 'tz', 'mapping']);
          onRegistered(settings, title);
        },
      },
    );
  };

  return (
    <Card title={t('registration.add')}>
      <Typography.Paragraph type="secondary">{t('registration.intro')}</Typography.Paragraph>
      <Form<AddDeviceForm>
        form={form}
        layout="vertical"
        onFinish={onFinish}
        initialValues={{ family: 'shelly', type: 4, owner: me, mapping: EMPTY_MAPPING }}
        className="registration-form"
        style={{ maxWidth: family === 'json' ? 760 : 560 }}
      >
        <Form.Item name="family" label={t('registration.family')} rules={[{ required: true }]}>
          <Select
            options={REGISTRATION_FAMILIES.map((f) => ({ value: f, label: t(`registration.family_${f}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="mac"
          label={t('registration.identifier')}
          extra={t('registration.identifier_hint')}
          rules={[
            { required: true, whitespace: true, message: t('common.required') },
            {
              validator: (_r, value: string | undefined) =>
                !value || isIdentifier(value)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('registration.identifier_rule'))),
            },
          ]}
        >
          <Input autoComplete="off" spellCheck={false} />
        </Form.Item>
        <Form.Item
          name="title"
          label={t('registration.device_title')}
          rules={[
            { required: true, whitespace: true, message: t('common.required') },
            { max: TITLE_MAX, message: t('registration.title_rule', { max: TITLE_MAX }) },
          ]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="type" label={t('registration.type')} rules={[{ required: true }]}>
          <Select
            options={DEVICE_TYPES.map((type) => ({
              value: type,
              label: t(`hierarchy.device_types.${type}` as never),
            }))}
          />
        </Form.Item>
        {family !== 'portal' && (
          <Form.Item
            name="topic"
            label={family === 'shelly' ? t('registration.prefix') : t('registration.topic_field')}
            extra={t(`registration.topic_hint_${family}`)}
            rules={[
              { required: true, whitespace: true, message: t('common.required') },
              { max: TOPIC_MAX, message: t('registration.topic_rule') },
              { pattern: TOPIC_PATTERN, message: t('registration.topic_rule') },
            ]}
          >
            <Input autoComplete="off" spellCheck={false} />
          </Form.Item>
        )}
        {usesLocalTime(family) && (
          <Form.Item name="tz" label={t('registration.tz')}>
            <Select
              showSearch
              allowClear
              placeholder={t('registration.tz_default', { zone: installationZone() })}
              options={zoneOptions}
            />
          </Form.Item>
        )}
        {family === 'json' && (
          <Form.Item
            name="mapping"
            label={t('jsonMeter.mapping')}
            rules={[
              {
                validator: (_r, value: JsonMapping | undefined) => {
                  const problem = mappingProblemKey(value);
                  return problem
                    ? Promise.reject(
                        new Error(t('jsonMeter.invalid', { problem: t(`jsonMeter.${problem}` as never) })),
                      )
                    : Promise.resolve();
                },
              },
            ]}
          >
            <JsonMappingEditor />
          </Form.Item>
        )}
        <Form.Item name="owner" label={t('registration.owner')} extra={t('registration.owner_hint')}>
          <Select showSearch options={owners.length > 0 ? owners : [{ value: me, label: me }]} />
        </Form.Item>
        <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={register.isPending}>
          {t('registration.register')}
        </Button>
      </Form>
    </Card>
  );
}
