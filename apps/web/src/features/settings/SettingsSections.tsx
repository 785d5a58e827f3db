import {
  ACCURACY_CLASSES,
  CHANNELS,
  POWER_SCALES,
  SETTINGS_LIMITS,
  type Channel,
  type DeviceSettings,
  type IpSettings,
  type LoraSettingsView,
  type MeasurementSettings,
  type SettingsWriteRequest,
  type WifiSettingsView,
} from '@meterportal/protocol';
import type { Rule } from 'antd/es/form';
import { Button, Card, Checkbox, Form, Input, InputNumber, Radio, Select, Tag } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ipProblem,
  keyProblem,
  passwordProblem,
  rangeProblem,
  ssidProblem,
  staticProblem,
  type Problem,
  type SettingsKey,
} from './settingsRules';

/** Saves one section; resolves once the device has confirmed, rejects otherwise. */
export type SaveSection = (body: SettingsWriteRequest) => Promise<DeviceSettings>;

interface SectionProps<T> {
  token: string;
  value: T;
  saving: boolean;
  onSave: SaveSection;
}

/** An antd rule from a pure check, its message in the chosen language. */
function useRule() {
  const { t } = useTranslation();
  return <V,>(check: (v: V) => Problem | null): Rule => ({
    validator: (_r, v: V) => {
      const p = check(v);
      return p
        ? Promise.reject(new Error(t(p.key, { min: 0, max: 0, c: '', ...p.values })))
        : Promise.resolve();
    },
  });
}

/** A write-only secret: empty keeps what the device has; the tag says whether one is set. */
function SecretState({ set }: { set: boolean }) {
  const { t } = useTranslation();
  return (
    <Tag color={set ? 'green' : 'default'} className="settings-secret-state">
      {set ? t('settings.secret_set') : t('settings.secret_unset')}
    </Tag>
  );
}

const compact = (v: string | undefined) => (v ? v.replace(/\s+/g, '').toUpperCase() : undefined);

interface LoraForm {
  appKey?: string;
  netKey?: string;
  echoIntervalSec: number;
  aliveIntervalSec: number;
}

/** LoRa radio: the two root keys (write-only, masked) and the echo and alive intervals. */
export function LoraSection({ token, value, saving, onSave }: SectionProps<LoraSettingsView>) {
  const { t } = useTranslation();
  const rule = useRule();
  const [form] = Form.useForm<LoraForm>();
  useEffect(() => {
    form.setFieldsValue({
      appKey: '',
      netKey: '',
      echoIntervalSec: value.echoIntervalSec,
      aliveIntervalSec: value.aliveIntervalSec,
    });
  }, [form, value]);
  const submit = (v: LoraForm) => {
    const appKey = compact(v.appKey);
    const netKey = compact(v.netKey);
    void onSave({
      token,
      section: 'lora',
      lora: {
        ...(appKey ? { appKey } : {}),
        ...(netKey ? { netKey } : {}),
        echoIntervalSec: v.echoIntervalSec,
        aliveIntervalSec: v.aliveIntervalSec,
      },
    })
      // The keys are not shown again, also not the ones just typed.
      .then(() => form.setFieldsValue({ appKey: '', netKey: '' }))
      .catch(() => undefined);
  };
  return (
    <Card title={t('settings.lora')} className="settings-lora">
      <Form<LoraForm> form={form} layout="vertical" onFinish={submit} disabled={saving}>
        <Form.Item
          name="appKey"
          label={t('settings.application_key')}
          extra={<SecretState set={value.appKeySet} />}
          rules={[rule(keyProblem)]}
        >
          <Input.Password autoComplete="off" placeholder={t('settings.key_placeholder')} />
        </Form.Item>
        <Form.Item
          name="netKey"
          label={t('settings.network_key')}
          extra={<SecretState set={value.netKeySet} />}
          rules={[rule(keyProblem)]}
        >
          <Input.Password autoComplete="off" placeholder={t('settings.key_placeholder')} />
        </Form.Item>
        <Form.Item
          name="echoIntervalSec"
          label={t('settings.echo_interval')}
          rules={[rule((v: number | null) => rangeProblem(v, SETTINGS_LIMITS.echoIntervalSec, true))]}
        >
          <InputNumber addonAfter="s" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="aliveIntervalSec"
          label={t('settings.alive_interval')}
          rules={[rule((v: number | null) => rangeProblem(v, SETTINGS_LIMITS.aliveIntervalSec, true))]}
        >
          <InputNumber addonAfter="s" style={{ width: '100%' }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('settings.save')}
        </Button>
      </Form>
    </Card>
  );
}

interface WifiForm {
  ssid: string;
  password?: string;
  mode: IpSettings['mode'];
  address?: string;
  mask?: string;
  gateway?: string;
  dns?: string;
}

/** WiFi network (name, write-only password) and IP settings: DHCP or a static address. */
export function WifiSection({ token, value, saving, onSave }: SectionProps<WifiSettingsView>) {
  const { t } = useTranslation();
  const rule = useRule();
  const [form] = Form.useForm<WifiForm>();
  const mode = Form.useWatch('mode', form);
  useEffect(() => {
    form.setFieldsValue({
      ssid: value.ssid,
      password: '',
      ...(value.ip.mode === 'STATIC'
        ? value.ip
        : { mode: 'DHCP', address: '', mask: '255.255.255.0', gateway: '', dns: '' }),
    });
  }, [form, value]);
  const together = (field: 'address' | 'mask' | 'gateway'): Rule => ({
    validator: () => {
      const p = staticProblem(form.getFieldsValue(['address', 'mask', 'gateway']) as WifiForm);
      return p && p.field === field ? Promise.reject(new Error(t(p.problem.key))) : Promise.resolve();
    },
  });
  const submit = (v: WifiForm) => {
    const ip: IpSettings =
      v.mode === 'STATIC'
        ? {
            mode: 'STATIC',
            address: v.address ?? '',
            mask: v.mask ?? '',
            gateway: v.gateway ?? '',
            dns: v.dns ?? '',
          }
        : { mode: 'DHCP' };
    void onSave({
      token,
      section: 'wifi',
      wifi: { ssid: v.ssid, ...(v.password ? { password: v.password } : {}), ip },
    })
      .then(() => form.setFieldsValue({ password: '' }))
      .catch(() => undefined);
  };
  const ipField = (name: 'address' | 'mask' | 'gateway' | 'dns', label: SettingsKey) => (
    <Form.Item
      name={name}
      label={t(label)}
      dependencies={name === 'dns' ? [] : ['address', 'mask', 'gateway']}
      rules={[rule(ipProblem), ...(name === 'dns' ? [] : [together(name)])]}
    >
      <Input inputMode="decimal" autoComplete="off" />
    </Form.Item>
  );
  return (
    <Card title={t('settings.wifi')} className="settings-wifi">
      <Form<WifiForm> form={form} layout="vertical" onFinish={submit} disabled={saving}>
        <Form.Item name="ssid" label={t('settings.wifi_network')} rules={[rule(ssidProblem)]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('settings.wifi_password')}
          extra={<SecretState set={value.passwordSet} />}
          rules={[rule(passwordProblem)]}
        >
          <Input.Password autoComplete="new-password" placeholder={t('settings.key_placeholder')} />
        </Form.Item>
        <Form.Item name="mode" label={t('settings.ip_settings')}>
          <Radio.Group
            options={[
              { value: 'DHCP', label: t('settings.dhcp') },
              { value: 'STATIC', label: t('settings.static') },
            ]}
          />
        </Form.Item>
        {mode === 'STATIC' && (
          <>
            {ipField('address', 'settings.ip_address')}
            {ipField('mask', 'settings.subnet_mask')}
            {ipField('gateway', 'settings.gateway')}
            {ipField('dns', 'settings.dns')}
          </>
        )}
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('settings.save')}
        </Button>
      </Form>
    </Card>
  );
}

/** Measurement: power scale, time scale, channels, accuracy, energy offset, ratio and threshold. */
export function MeasurementSection({
  token,
  value,
  saving,
  onSave,
  phases,
}: SectionProps<MeasurementSettings> & { phases: number }) {
  const { t } = useTranslation();
  const rule = useRule();
  const [form] = Form.useForm<MeasurementSettings>();
  useEffect(() => form.setFieldsValue(value), [form, value]);
  const submit = (v: MeasurementSettings) => {
    void onSave({ token, section: 'measurement', measurement: v }).catch(() => undefined);
  };
  const number = (
    name: 'timeScaleSec' | 'energyOffsetWh' | 'transformationRatio' | 'activePowerThresholdW',
    label: SettingsKey,
    unit: string | null,
    whole: boolean,
  ) => (
    <Form.Item
      name={name}
      label={t(label)}
      rules={[rule((v: number | null) => rangeProblem(v, SETTINGS_LIMITS[name], whole))]}
    >
      <InputNumber
        {...(unit ? { addonAfter: unit } : {})}
        {...(whole ? { precision: 0 } : {})}
        style={{ width: '100%' }}
      />
    </Form.Item>
  );
  return (
    <Card title={t('settings.measurement')} className="settings-measurement">
      <Form<MeasurementSettings> form={form} layout="vertical" onFinish={submit} disabled={saving}>
        <Form.Item name="powerScale" label={t('settings.power_scale')}>
          <Select options={POWER_SCALES.map((s) => ({ value: s, label: s }))} />
        </Form.Item>
        {number('timeScaleSec', 'settings.time_scale', 's', true)}
        <Form.Item
          name="activeChannels"
          label={t('settings.active_channels')}
          rules={[
            rule((v: Channel[] | undefined) => (v && v.length > 0 ? null : { key: 'settings.err_channels' })),
          ]}
        >
          <Checkbox.Group options={CHANNELS.map((c, i) => ({ value: c, label: c, disabled: i >= phases }))} />
        </Form.Item>
        <Form.Item name="accuracy" label={t('settings.accuracy')}>
          <Select
            options={ACCURACY_CLASSES.map((c) => ({ value: c, label: t('settings.accuracy_class', { c }) }))}
          />
        </Form.Item>
        {number('energyOffsetWh', 'settings.energy_offset', 'Wh', true)}
        {number('transformationRatio', 'settings.transformation_ratio', null, false)}
        {number('activePowerThresholdW', 'settings.active_power_threshold', 'W', false)}
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('settings.save')}
        </Button>
      </Form>
    </Card>
  );
}
