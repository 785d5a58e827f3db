import { INTEGRATION_TOKEN_NAME_MAX, type IntegrationTokenEntry } from '@meterportal/protocol';
import { DatePicker, Form, Input, Modal, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useDeviceList } from '../auth/session';
import { compareDays, dayOf, installationZone, type CalendarDay } from '../telemetry/zone';
import { useCreateIntegrationTokenMutation } from './api';
import { expiryAfterDay } from './tokenRules';

interface CreateTokenModalProps {
  onClose: () => void;
  onCreated: (created: IntegrationTokenEntry & { secret: string }) => void;
}

interface TokenForm {
  name: string;
  devices?: string[];
  expiry?: Dayjs | null;
}

/** A picker cell as the calendar day it shows. */
const pickedDay = (d: Dayjs): CalendarDay => ({ y: d.year(), m: d.month() + 1, d: d.date() });

/** Name, optional devices (none chosen: all of the user's) and optional last valid day. */
export function CreateTokenModal({ onClose, onCreated }: CreateTokenModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TokenForm>();
  const devices = useDeviceList();
  const create = useCreateIntegrationTokenMutation();
  const tz = installationZone();
  const today = dayOf(Date.now(), tz);

  const onFinish = (v: TokenForm) => {
    create.mutate(
      {
        name: v.name.trim(),
        devices: v.devices && v.devices.length > 0 ? v.devices : null,
        expiresAt: v.expiry ? expiryAfterDay(pickedDay(v.expiry), tz) : null,
      },
      { onSuccess: onCreated },
    );
  };

  return (
    <Modal
      open
      title={t('integration.create')}
      okText={t('integration.create')}
      cancelText={t('common.cancel')}
      confirmLoading={create.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<TokenForm> form={form} layout="vertical" onFinish={onFinish}>
        <Form.Item
          name="name"
          label={t('integration.name')}
          rules={[
            { required: true, whitespace: true, message: t('common.required') },
            {
              max: INTEGRATION_TOKEN_NAME_MAX,
              message: t('integration.name_rule', { max: INTEGRATION_TOKEN_NAME_MAX }),
            },
            { pattern: /^[^<>]*$/, message: t('integration.name_rule', { max: INTEGRATION_TOKEN_NAME_MAX }) },
          ]}
        >
          <Input autoFocus autoComplete="off" />
        </Form.Item>
        <Form.Item name="devices" label={t('integration.devices')} extra={t('integration.devices_hint')}>
          <Select
            mode="multiple"
            allowClear
            placeholder={t('integration.all_devices')}
            optionFilterProp="label"
            options={devices.map((d) => ({ value: d.mac, label: d.title }))}
          />
        </Form.Item>
        <Form.Item name="expiry" label={t('integration.valid_until')}>
          <DatePicker
            style={{ width: '100%' }}
            format="D.M.YYYY"
            placeholder={t('integration.no_expiry')}
            disabledDate={(d) => compareDays(pickedDay(d), today) < 0}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
