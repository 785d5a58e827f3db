// The alarm rule form and the rule it stands for, both ways, and a rule told in words.
import {
  ALARM_UNITS,
  type AlarmPhase,
  type AlarmQuantity,
  type AlarmRuleDefinition,
  type AlarmSeverity,
} from '@meterportal/protocol';
import type { TFunction } from 'i18next';
import { formatNumber, withUnit } from '../../i18n/format';

/** What the rule form holds: every field of every rule type, the unused ones empty. */
export interface AlarmRuleForm {
  kind: AlarmRuleDefinition['kind'];
  name: string;
  severity: AlarmSeverity;
  quantity: AlarmQuantity;
  phase: AlarmPhase;
  condition: 'above' | 'below' | 'outside';
  threshold?: number | null;
  thresholdHigh?: number | null;
  hysteresis?: number | null;
  holdSec?: number | null;
  offlineMin?: number | null;
  limit: 'MRK' | 'RK';
  sharePct?: number | null;
}

/** A new rule's form: voltage of L1 above a threshold, warning. */
export const NEW_RULE_FORM: AlarmRuleForm = {
  kind: 'threshold',
  name: '',
  severity: 'warning',
  quantity: 'U',
  phase: 'L1',
  condition: 'above',
  hysteresis: 0,
  holdSec: 0,
  offlineMin: 10,
  limit: 'MRK',
  sharePct: 90,
};

const num = (v: number | null | undefined) => v ?? 0;

/** The rule a filled form stands for. */
export function ruleFromForm(f: AlarmRuleForm): AlarmRuleDefinition {
  const common = { name: f.name.trim(), severity: f.severity };
  switch (f.kind) {
    case 'offline':
      return { kind: 'offline', ...common, offlineMin: num(f.offlineMin) };
    case 'demand':
      return { kind: 'demand', ...common, limit: f.limit, sharePct: num(f.sharePct) };
    case 'threshold':
      return {
        kind: 'threshold',
        ...common,
        quantity: f.quantity,
        phase: f.quantity === 'F' ? 'SUM' : f.phase,
        condition: f.condition,
        threshold: num(f.threshold),
        ...(f.condition === 'outside' ? { thresholdHigh: num(f.thresholdHigh) } : {}),
        hysteresis: num(f.hysteresis),
        holdSec: num(f.holdSec),
      };
  }
}

/** The form that edits a stored rule. */
export function formFromRule(r: AlarmRuleDefinition): AlarmRuleForm {
  const base = { ...NEW_RULE_FORM, kind: r.kind, name: r.name, severity: r.severity };
  switch (r.kind) {
    case 'offline':
      return { ...base, offlineMin: r.offlineMin };
    case 'demand':
      return { ...base, limit: r.limit, sharePct: r.sharePct };
    case 'threshold':
      return {
        ...base,
        quantity: r.quantity,
        phase: r.phase,
        condition: r.condition,
        threshold: r.threshold,
        thresholdHigh: r.thresholdHigh ?? null,
        hysteresis: r.hysteresis,
        holdSec: r.holdSec,
      };
  }
}

/** What a rule watches, in the user's language. */
export function ruleSummary(t: TFunction, r: AlarmRuleDefinition): string {
  switch (r.kind) {
    case 'offline':
      return t('alarms.summary_offline', { min: r.offlineMin });
    case 'demand':
      return t('alarms.summary_demand', { pct: formatNumber(r.sharePct, 1), limit: r.limit });
    case 'threshold': {
      const unit = ALARM_UNITS[r.quantity];
      const quantity = t(`alarms.quantities.${r.quantity}`);
      const phase = r.quantity === 'F' ? '' : r.phase === 'SUM' ? t('alarms.sum') : r.phase;
      const text =
        r.condition === 'outside'
          ? t('alarms.summary_band', {
              quantity,
              phase,
              low: withUnit(formatNumber(r.threshold), unit),
              high: withUnit(formatNumber(r.thresholdHigh), unit),
            })
          : t('alarms.summary_threshold', {
              quantity,
              phase,
              condition: t(`alarms.conditions.${r.condition}`),
              value: withUnit(formatNumber(r.threshold), unit),
            });
      const squeezed = text.replace(/\s+/g, ' ');
      return r.holdSec > 0 ? `${squeezed} ${t('alarms.summary_hold', { sec: r.holdSec })}` : squeezed;
    }
  }
}
