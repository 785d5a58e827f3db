import { METER_TEXT_FIELDS } from '@meterportal/protocol';
import { Col, Divider, Form, Input, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { enumOptions } from './enumLabels';
import { isEnumField, scalarText, type MeterField } from './meterRules';
import { isFieldValid, ruleOf } from './wizardRules';

type Cols = { xs: number; sm: number; lg: number };
const THIRDS: Cols = { xs: 24, sm: 12, lg: 8 };
const QUARTERS: Cols = { xs: 24, sm: 12, lg: 6 };

/** A wizard field: its label, and the shared MeterInput rule with its explanation. */
function MeterFormItem({
  field,
  readOnly = false,
  cols = THIRDS,
}: {
  field: MeterField;
  readOnly?: boolean;
  cols?: Cols;
}) {
  const { t } = useTranslation();
  const label = t(`meters.fields.${field}`);
  const rule = ruleOf(field);
  return (
    <Col {...cols}>
      <Form.Item
        name={field}
        label={label}
        required={rule === 'serial' || rule === 'constant' || rule === 'selection'}
        rules={[
          {
            validator: (_r, value: unknown) =>
              isFieldValid(field, typeof value === 'string' ? value.trim() : value)
                ? Promise.resolve()
                : Promise.reject(new Error(t(`meters.rules.${rule}`))),
          },
        ]}
      >
        {isEnumField(field) ? (
          <Select<number> aria-label={label} options={enumOptions(field, t)} />
        ) : (
          <Input aria-label={label} readOnly={readOnly} variant={readOnly ? 'filled' : 'outlined'} />
        )}
      </Form.Item>
    </Col>
  );
}

/** Step 1/3: the meter itself. */
export function MeterStep() {
  return (
    <Row gutter={16}>
      {(
        [
          'SNUM',
          'TYPE',
          'PRODUCER',
          'YMAN',
          'CLASS',
          'CONSTANT',
          'CONSTUNIT',
          'CONSTTYPE',
          'VOLTAGE',
          'CURRENT',
          'CONTYPE',
          'ELM_OUTPUT_TYPE',
          'MENERGYTYPE',
        ] as const
      ).map((f) => (
        <MeterFormItem key={f} field={f} />
      ))}
    </Row>
  );
}

/** Form-only fields of step 2: the primaries, computed from ratio × secondary nominal. */
export const CT_PRIMARY = 'CT_PRIMARY';
export const VT_PRIMARY = 'VT_PRIMARY';

function PrimaryItem({ name, label }: { name: string; label: string }) {
  const { t } = useTranslation();
  return (
    <Col {...QUARTERS}>
      <Form.Item
        name={name}
        label={label}
        rules={[
          {
            validator: (_r, value: unknown) =>
              isFieldValid('CTRATIO', scalarText(value).trim())
                ? Promise.resolve()
                : Promise.reject(new Error(t('meters.rules.decimal'))),
          },
        ]}
      >
        <Input aria-label={label} />
      </Form.Item>
    </Col>
  );
}

function SideItems({
  ratio,
  secondary,
  text,
}: {
  ratio: MeterField;
  secondary: MeterField;
  text: MeterField;
}) {
  return (
    <>
      <MeterFormItem field={ratio} cols={QUARTERS} />
      <MeterFormItem field={secondary} cols={QUARTERS} />
      <MeterFormItem field={text} cols={QUARTERS} readOnly />
    </>
  );
}

/** Step 2/3: current and voltage transformers, nominal values. */
export function TransformerStep() {
  const { t } = useTranslation();
  return (
    <>
      <Divider titlePlacement="start">{t('meters.ct')}</Divider>
      <Row gutter={16}>
        <SideItems ratio="CTRATIO" secondary="CTSNOM" text="ISIDE" />
        <PrimaryItem name={CT_PRIMARY} label={t('meters.ct_primary')} />
      </Row>
      <Divider titlePlacement="start">{t('meters.vt')}</Divider>
      <Row gutter={16}>
        <SideItems ratio="VTRATIO" secondary="VTSNOM" text="USIDE" />
        <PrimaryItem name={VT_PRIMARY} label={t('meters.vt_primary')} />
      </Row>
      <Divider titlePlacement="start">{t('meters.nominal_values')}</Divider>
      <Row gutter={16}>
        {(['IMIN', 'INOM', 'IMAX', 'UNOM'] as const).map((f) => (
          <MeterFormItem key={f} field={f} cols={QUARTERS} />
        ))}
      </Row>
    </>
  );
}

/** Step 3/3: frequency, method, customer and notes. */
export function CustomerStep() {
  return (
    <Row gutter={16}>
      {(['FREQ', 'ENERMETHOD', ...METER_TEXT_FIELDS] as const).map((f) => (
        <MeterFormItem key={f} field={f} />
      ))}
    </Row>
  );
}
