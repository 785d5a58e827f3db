import { DeleteOutlined, PlusOutlined, ThunderboltOutlined } from '@ant-design/icons';
import {
  JSON_MAPPING_MAX,
  JSON_PHASES,
  JSON_QUANTITIES,
  JSON_TIME_FORMATS,
  SDM630_PRESET,
  jsonMappingProblems,
  type JsonMapping,
  type JsonMappingRow,
} from '@meterportal/protocol';
import { Button, Flex, Input, InputNumber, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** A new mapping's single row: the imported energy register, as every JSON meter needs one. */
export const EMPTY_MAPPING: JsonMapping = {
  rows: [{ quantity: 'E_I', phase: 'total', path: '', scale: 1000 }],
};

/** Phases a quantity may take: frequency only the total, registers either, the rest per phase. */
const phasesOf = (quantity: string) =>
  quantity === 'F'
    ? (['total'] as const)
    : quantity === 'E_I' || quantity === 'E_E'
      ? JSON_PHASES
      : JSON_PHASES.filter((p) => p !== 'total');

/** The first problem of a mapping as a text key of `jsonMeter`, or null when the server takes it. */
export function mappingProblemKey(m: JsonMapping | undefined): string | null {
  if (!m) return 'problem_energy';
  const problems = jsonMappingProblems(m);
  const first = problems[0];
  if (!first) return null;
  if (first.includes('E_I')) return 'problem_energy';
  if (first.includes('.path') || first.startsWith('timePath')) return 'problem_path';
  if (first.includes('.scale')) return 'problem_scale';
  if (first.includes('.phase') || first.includes('not both')) return 'problem_phase';
  if (first.includes('twice')) return 'problem_twice';
  return 'problem_other';
}

interface JsonMappingEditorProps {
  value?: JsonMapping;
  onChange?: (m: JsonMapping) => void;
}

/** Rows of quantity, phase, JSON path and scale, the SDM630 preset, and where the time is. */
export function JsonMappingEditor({ value = EMPTY_MAPPING, onChange }: JsonMappingEditorProps) {
  const { t } = useTranslation();
  const set = (m: JsonMapping) => onChange?.(m);
  const setRow = (i: number, patch: Partial<JsonMappingRow>) =>
    set({
      ...value,
      rows: value.rows.map((r, j) => {
        if (j !== i) return r;
        const next = { ...r, ...patch };
        const allowed: readonly string[] = phasesOf(next.quantity);
        return allowed.includes(next.phase) ? next : { ...next, phase: allowed[0]! };
      }),
    });
  const quantityOptions = JSON_QUANTITIES.map((q) => ({ value: q, label: t(`jsonMeter.quantities.${q}`) }));

  return (
    <Flex vertical gap={8} className="json-mapping">
      <Typography.Text type="secondary">{t('jsonMeter.mapping_hint')}</Typography.Text>
      <Flex gap={8} wrap>
        <Button
          icon={<ThunderboltOutlined />}
          className="json-mapping-preset"
          onClick={() => set(SDM630_PRESET)}
        >
          {t('jsonMeter.preset_sdm630')}
        </Button>
        <Button
          icon={<PlusOutlined />}
          disabled={value.rows.length >= JSON_MAPPING_MAX}
          onClick={() =>
            set({ ...value, rows: [...value.rows, { quantity: 'U', phase: 'L1', path: '', scale: 1 }] })
          }
        >
          {t('jsonMeter.add_row')}
        </Button>
      </Flex>
      {value.rows.map((r, i) => (
        <Flex key={i} gap={6} wrap align="center" className="json-mapping-row" data-row={i}>
          <Select
            aria-label={t('jsonMeter.quantity')}
            value={r.quantity}
            options={quantityOptions}
            onChange={(quantity: string) => setRow(i, { quantity })}
            style={{ width: 200 }}
            popupMatchSelectWidth={false}
          />
          <Select
            aria-label={t('jsonMeter.phase')}
            value={r.phase}
            options={phasesOf(r.quantity).map((p) => ({ value: p, label: t(`jsonMeter.phases.${p}`) }))}
            onChange={(phase: string) => setRow(i, { phase })}
            style={{ width: 92 }}
          />
          <Input
            aria-label={t('jsonMeter.path')}
            placeholder={t('jsonMeter.path')}
            value={r.path}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => setRow(i, { path: e.target.value })}
            style={{ flex: '1 1 140px', minWidth: 120 }}
          />
          <InputNumber
            aria-label={t('jsonMeter.scale')}
            placeholder={t('jsonMeter.scale')}
            value={r.scale}
            onChange={(v) => setRow(i, { scale: typeof v === 'number' ? v : Number.NaN })}
            style={{ width: 96 }}
          />
          <Button
            aria-label={t('jsonMeter.remove_row')}
            icon={<DeleteOutlined />}
            disabled={value.rows.length <= 1}
            onClick={() => set({ ...value, rows: value.rows.filter((_r, j) => j !== i) })}
          />
        </Flex>
      ))}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('jsonMeter.rows_count', { count: value.rows.length, max: JSON_MAPPING_MAX })}
      </Typography.Text>
      <Flex gap={8} wrap>
        <Input
          aria-label={t('jsonMeter.time_path')}
          addonBefore={t('jsonMeter.time_path')}
          placeholder={t('jsonMeter.time_path_hint')}
          value={value.timePath ?? ''}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => {
            const timePath = e.target.value;
            const { timePath: _p, timeFormat, ...rest } = value;
            set(timePath.trim() === '' ? rest : { ...rest, timePath, timeFormat: timeFormat ?? 'unix_s' });
          }}
          style={{ flex: '1 1 240px' }}
        />
        {value.timePath?.trim() && (
          <Select
            aria-label={t('jsonMeter.time_format')}
            value={value.timeFormat ?? 'unix_s'}
            options={JSON_TIME_FORMATS.map((f) => ({ value: f, label: t(`jsonMeter.formats.${f}`) }))}
            onChange={(timeFormat: string) => set({ ...value, timeFormat })}
            style={{ width: 220 }}
          />
        )}
      </Flex>
    </Flex>
  );
}
