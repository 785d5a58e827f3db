import type { MeterRow } from '@meterportal/protocol';
import { Input, Select, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { enumLabel, enumOptions } from './enumLabels';
import { isEnumField, toCell, type MeterField } from './meterRules';
import { isFieldValid, ruleOf } from './wizardRules';

interface EditableCellProps {
  row: MeterRow;
  field: MeterField;
  /** Saves the new value; resolves true when stored. */
  onSave: (value: string | number) => Promise<boolean>;
}

/** A cell shown as text ('-' when empty); a double click edits it, Enter saves, Esc cancels. */
export function EditableCell({ row, field, onSave }: EditableCellProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const value = (row as Record<string, unknown>)[field];
  const label = t(`meters.fields.${field}`);

  const save = async (next: string | number) => {
    setSaving(true);
    try {
      if (await onSave(next)) setDraft(null);
    } finally {
      setSaving(false);
    }
  };

  if (draft === null) {
    const shown = isEnumField(field) ? (enumLabel(field, value, t) ?? toCell(value)) : toCell(value);
    return (
      <div
        className="meter-cell"
        data-field={field}
        title={t('meters.edit_hint')}
        style={{ minHeight: 22, cursor: 'text', whiteSpace: 'nowrap' }}
        onDoubleClick={() => setDraft(toCell(value))}
      >
        {shown}
      </div>
    );
  }

  if (isEnumField(field)) {
    return (
      <Select<number>
        size="small"
        autoFocus
        defaultOpen
        aria-label={label}
        style={{ minWidth: 110 }}
        loading={saving}
        defaultValue={Number(value)}
        options={enumOptions(field, t)}
        onChange={(v) => void save(v)}
        onBlur={() => !saving && setDraft(null)}
        onKeyDown={(e) => e.key === 'Escape' && setDraft(null)}
      />
    );
  }

  const valid = isFieldValid(field, draft === '-' ? '' : draft.trim());
  return (
    <Tooltip open={!valid} title={t(`meters.rules.${ruleOf(field)}`)}>
      <Input
        size="small"
        autoFocus
        aria-label={label}
        value={draft}
        status={valid ? undefined : 'error'}
        disabled={saving}
        style={{ minWidth: 90 }}
        onChange={(e) => setDraft(e.target.value)}
        onPressEnter={() => valid && void save(draft)}
        onKeyDown={(e) => e.key === 'Escape' && setDraft(null)}
        onBlur={() => !saving && setDraft(null)}
      />
    </Tooltip>
  );
}
