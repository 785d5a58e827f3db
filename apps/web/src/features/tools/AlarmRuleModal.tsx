import {
  ALARM_QUANTITIES,
  ALARM_SEVERITIES,
  ALARM_UNITS,
  type AlarmLanguage,
  type AlarmRule,
} from '@meterportal/protocol';
import { Form, Input, InputNumber, Modal, Select } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { snackbar } from '../../api/notify';
import { currentLanguage } from '../../i18n/format';
import { NEW_RULE_FORM, formFromRule, ruleFromForm, type AlarmRuleForm } from './alarmRules';
import { useSaveRuleMutation } from './alarmsApi';

interface AlarmRuleModalProps {
  deviceToken: string;
  /** The rule to edit; none for a new one. */
  editing: AlarmRule | null;
  onClose: () => void;
}

const LANGS: readonly AlarmLanguage[] = ['en', 'sk', 'de'];

/** Creates or edits an alarm rule; the fields follow the rule type. */
export function AlarmRuleModal({ deviceToken, editing, onClose }: AlarmRuleModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AlarmRuleForm>();
  const kind = Form.useWatch('kind', form) ?? NEW_RULE_FORM.kind;
  const condition = Form.useWatch('condition', form) ?? NEW_RULE_FORM.condition;
  const quantity = Form.useWatch('quantity', form) ?? NEW_RULE_FORM.quantity;
  const save = useSaveRuleMutation(deviceToken);
  const unit = ALARM_UNITS[quantity];

  const required = { required: true, message: t('common.required') };
  const range = (min: number, max: number): Rule => ({
    type: 'number',
    min,
    max,
    message: t('alarms.errors.range', { min, max }),
  });

  const onFinish = async (v: AlarmRuleForm) => {
    const lang = LANGS.find((l) => currentLanguage().startsWith(l)) ?? 'en';
    await save.mutateAsync({ ID: editing?.ID, lang, rule: ruleFromForm({ ...NEW_RULE_FORM, ...v }) });
    snackbar('success', t('alarms.rule_saved'));
    onClose();
  };

  return (
    <Modal
      open
      title={editing ? t('alarms.edit_rule') : t('alarms.new_rule')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<AlarmRuleForm>
        form={form}
        layout="vertical"
        initialValues={editing ? formFromRule(editing.rule) : NEW_RULE_FORM}
        onFinish={(v) => {
          onFinish(v).catch(() => undefined);
        }}
      >
        <Form.Item
          name="name"
          label={t('alarms.name')}
          rules={[required, { whitespace: true, max: 80, message: t('alarms.errors.name_length') }]}
        >
          <Input maxLength={80} />
        </Form.Item>
        <Form.Item name="kind" label={t('alarms.kind')} rules={[required]}>
          <Select
            aria-label={t('alarms.kind')}
            options={(['threshold', 'offline', 'demand'] as const).map((k) => ({
              value: k,
              label: t(`alarms.kinds.${k}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="severity" label={t('alarms.severity')} rules={[required]}>
          <Select
            aria-label={t('alarms.severity')}
            options={ALARM_SEVERITIES.map((s) => ({ value: s, label: t(`alarms.severities.${s}`) }))}
          />
        </Form.Item>
        {kind === 'threshold' && (
          <>
            <Form.Item name="quantity" label={t('alarms.quantity')} rules={[required]}>
              <Select
                aria-label={t('alarms.quantity')}
                options={ALARM_QUANTITIES.map((q) => ({ value: q, label: t(`alarms.quantities.${q}`) }))}
              />
            </Form.Item>
            {quantity !== 'F' && (
              <Form.Item name="phase" label={t('alarms.phase')} rules={[required]}>
                <Select
                  aria-label={t('alarms.phase')}
                  options={(['L1', 'L2', 'L3', 'SUM'] as const).map((p) => ({
                    value: p,
                    label: p === 'SUM' ? t('alarms.sum') : p,
                  }))}
                />
              </Form.Item>
            )}
            <Form.Item name="condition" label={t('alarms.condition')} rules={[required]}>
              <Select
                aria-label={t('alarms.condition')}
                options={(['above', 'below', 'outside'] as const).map((c) => ({
                  value: c,
                  label: t(`alarms.conditions.${c}`),
                }))}
              />
            </Form.Item>
            <Form.Item
              name="threshold"
              label={condition === 'outside' ? t('alarms.threshold_low') : t('alarms.threshold')}
              rules={[required, range(-1e9, 1e9)]}
            >
              <InputNumber style={{ width: '100%' }} suffix={unit || undefined} />
            </Form.Item>
            {condition === 'outside' && (
              <Form.Item
                name="thresholdHigh"
                label={t('alarms.threshold_high')}
                dependencies={['threshold']}
                rules={[
                  required,
                  range(-1e9, 1e9),
                  ({ getFieldValue }) => ({
                    validator: (_r, v: number | null) =>
                      v === null || v === undefined || v > Number(getFieldValue('threshold'))
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('alarms.errors.high_above_low'))),
                  }),
                ]}
              >
                <InputNumber style={{ width: '100%' }} suffix={unit || undefined} />
              </Form.Item>
            )}
            <Form.Item
              name="hysteresis"
              label={t('alarms.hysteresis')}
              extra={t('alarms.hysteresis_help')}
              dependencies={['threshold', 'thresholdHigh', 'condition']}
              rules={[
                range(0, 1e9),
                ({ getFieldValue }) => ({
                  validator: (_r, v: number | null) => {
                    if (getFieldValue('condition') !== 'outside' || !v) return Promise.resolve();
                    const band = Number(getFieldValue('thresholdHigh')) - Number(getFieldValue('threshold'));
                    return 2 * v < band
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('alarms.errors.hysteresis_band')));
                  },
                }),
              ]}
            >
              <InputNumber style={{ width: '100%' }} min={0} suffix={unit || undefined} />
            </Form.Item>
            <Form.Item
              name="holdSec"
              label={t('alarms.hold_sec')}
              extra={t('alarms.hold_help')}
              rules={[range(0, 86_400)]}
            >
              <InputNumber style={{ width: '100%' }} precision={0} />
            </Form.Item>
          </>
        )}
        {kind === 'offline' && (
          <Form.Item name="offlineMin" label={t('alarms.offline_min')} rules={[required, range(1, 10_080)]}>
            <InputNumber style={{ width: '100%' }} precision={0} />
          </Form.Item>
        )}
        {kind === 'demand' && (
          <>
            <Form.Item name="limit" label={t('alarms.limit')} rules={[required]}>
              <Select
                aria-label={t('alarms.limit')}
                options={[
                  { value: 'MRK', label: 'MRK' },
                  { value: 'RK', label: 'RK' },
                ]}
              />
            </Form.Item>
            <Form.Item
              name="sharePct"
              label={t('alarms.share_pct')}
              extra={t('alarms.demand_help')}
              rules={[required, range(1, 200)]}
            >
              <InputNumber style={{ width: '100%' }} />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
