import {
  METER_DEFAULTS,
  METER_IMAGE_EXTENSIONS,
  METER_IMAGE_MAX_BYTES,
  METER_TEXT_FIELDS,
  MeterInput,
  currentRatioText,
  voltageRatioText,
  type MeterInputIn,
} from '@meterportal/protocol';
import { isEnumField, scalarText, type MeterField } from './meterRules';

/** Fields of each wizard step (seed 001 section 5); the protocol schema holds the rules. */
export const STEP_FIELDS = [
  [
    'SNUM',
    'TYPE',
    'CONSTANT',
    'PRODUCER',
    'CLASS',
    'YMAN',
    'VOLTAGE',
    'CURRENT',
    'CONTYPE',
    'ELM_OUTPUT_TYPE',
    'MENERGYTYPE',
    'CONSTUNIT',
    'CONSTTYPE',
  ],
  ['CTRATIO', 'CTSNOM', 'VTRATIO', 'VTSNOM', 'ISIDE', 'USIDE', 'IMIN', 'INOM', 'IMAX', 'UNOM'],
  ['FREQ', 'ENERMETHOD', ...METER_TEXT_FIELDS],
] as const satisfies readonly (readonly MeterField[])[];

/** Which message explains a field's rule (keys of `meters.rules`). */
export type RuleKey = 'serial' | 'max20' | 'max40' | 'constant' | 'decimal' | 'year' | 'selection';

export function ruleOf(field: MeterField): RuleKey {
  if (isEnumField(field)) return 'selection';
  switch (field) {
    case 'SNUM':
      return 'serial';
    case 'TYPE':
      return 'max20';
    case 'CONSTANT':
      return 'constant';
    case 'YMAN':
      return 'year';
    case 'CLASS':
    case 'FREQ':
    case 'CTRATIO':
    case 'VTRATIO':
    case 'CTSNOM':
    case 'VTSNOM':
    case 'IMIN':
    case 'INOM':
    case 'IMAX':
    case 'UNOM':
    case 'SCALEFACTOR':
    case 'SQRT3':
    case 'DIALREG':
      return 'decimal';
    case 'PRODUCER':
    case 'VOLTAGE':
    case 'CURRENT':
    case 'ISIDE':
    case 'USIDE':
    case 'CUSTOMER':
    case 'AREA':
    case 'LOCATION':
    case 'ADDRESS':
    case 'NOTE1':
    case 'NOTE2':
    case 'NOTE3':
    case 'NOTE4':
      return 'max40';
  }
}

/** True when the value passes the field's rule of the shared MeterInput schema. */
export function isFieldValid(field: MeterField, value: unknown): boolean {
  // A select left empty is a missing choice, although z.coerce would read '' or null as 0.
  if (isEnumField(field) && (value === undefined || value === null || value === '')) return false;
  return MeterInput.shape[field].safeParse(value).success;
}

/** Fields of a step that break their rule, in the order shown. */
export function invalidFields(step: number, values: Partial<Record<MeterField, unknown>>): MeterField[] {
  const fields: readonly MeterField[] = STEP_FIELDS[step] ?? [];
  return fields.filter((f) => !isFieldValid(f, values[f]));
}

/** Values of a new meter (seed 001 section 9), with the transformer texts they imply. */
export function initialMeter(): Partial<MeterInputIn> {
  const v: Partial<MeterInputIn> = { ...METER_DEFAULTS };
  return { ...v, ...transformerTexts(v) };
}

/** A number shown without floating-point noise (0.1 × 3 is 0.3). */
export function cleanNumber(n: number): string {
  return String(Number(n.toFixed(6)));
}

function decimalOf(v: unknown): number | undefined {
  const s = scalarText(v).trim();
  return /^\d+(\.\d+)?$/.test(s) ? Number(s) : undefined;
}

/** Primary = ratio × secondary nominal; undefined while either is not a number. */
export function primaryOf(ratio: unknown, secondary: unknown): string | undefined {
  const r = decimalOf(ratio);
  const s = decimalOf(secondary);
  return r === undefined || s === undefined ? undefined : cleanNumber(r * s);
}

/** Ratio from an edited primary: primary / secondary (undefined for a zero or missing secondary). */
export function ratioOf(primary: unknown, secondary: unknown): string | undefined {
  const p = decimalOf(primary);
  const s = decimalOf(secondary);
  return p === undefined || s === undefined || s === 0 ? undefined : cleanNumber(p / s);
}

/**
 * The protocol texts '3x{primary}/{secondary} A' and '... V' (ISIDE, USIDE) for the ratios and
 * secondary nominals; a side whose numbers are not valid keeps no text.
 */
export function transformerTexts(v: Partial<Record<MeterField, unknown>>): { ISIDE: string; USIDE: string } {
  const ip = primaryOf(v.CTRATIO, v.CTSNOM);
  const up = primaryOf(v.VTRATIO, v.VTSNOM);
  return {
    ISIDE: ip === undefined ? '' : currentRatioText(ip, cleanNumber(Number(v.CTSNOM))),
    USIDE: up === undefined ? '' : voltageRatioText(up, cleanNumber(Number(v.VTSNOM))),
  };
}

/** Why a file cannot be a meter image (seed 001 section 5), or null when it can. */
export function imageProblem(file: { name: string; size: number }): 'format' | 'size' | null {
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  if (!file.name.includes('.') || !(METER_IMAGE_EXTENSIONS as readonly string[]).includes(ext))
    return 'format';
  if (file.size > METER_IMAGE_MAX_BYTES) return 'size';
  return null;
}

/** Wizard values: the meter's fields plus the two primaries shown in step 2. */
export type WizardValues = Partial<Record<MeterField | 'CT_PRIMARY' | 'VT_PRIMARY', unknown>>;

/**
 * What changes when a step-2 value is edited: a ratio or secondary nominal recomputes the
 * primary; an edited primary recomputes the ratio; both rewrite the ISIDE / USIDE texts.
 */
export function transformerPatch(changed: WizardValues, all: WizardValues): WizardValues {
  const patch: WizardValues = {};
  const next = { ...all };
  const sides = [
    { ratio: 'CTRATIO', secondary: 'CTSNOM', primary: 'CT_PRIMARY' },
    { ratio: 'VTRATIO', secondary: 'VTSNOM', primary: 'VT_PRIMARY' },
  ] as const;
  let touched = false;
  for (const s of sides) {
    if (s.primary in changed) {
      const r = ratioOf(next[s.primary], next[s.secondary]);
      if (r !== undefined) patch[s.ratio] = next[s.ratio] = r;
      touched = true;
    } else if (s.ratio in changed || s.secondary in changed) {
      const p = primaryOf(next[s.ratio], next[s.secondary]);
      if (p !== undefined) patch[s.primary] = next[s.primary] = p;
      touched = true;
    }
  }
  if (!touched) return patch;
  return { ...patch, ...transformerTexts(next) };
}

/** Form values of a new meter: the defaults and the primaries they imply. */
export function initialWizardValues(): WizardValues {
  const v = initialMeter();
  return { ...v, CT_PRIMARY: primaryOf(v.CTRATIO, v.CTSNOM), VT_PRIMARY: primaryOf(v.VTRATIO, v.VTSNOM) };
}

/** The meter to send: every MeterInput field, trimmed, empty ones as empty strings. */
export function meterFromWizard(values: WizardValues): MeterInputIn {
  const out: Record<string, unknown> = {};
  for (const f of Object.keys(MeterInput.shape) as MeterField[]) {
    const v = values[f];
    out[f] = isEnumField(f) ? v : scalarText(v).trim();
  }
  return out as MeterInputIn;
}
