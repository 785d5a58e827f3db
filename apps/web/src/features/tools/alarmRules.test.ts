import { AlarmRuleDefinition, type AlarmRuleDefinition as Rule } from '@meterportal/protocol';
import { describe, expect, it } from 'vitest';
import { NEW_RULE_FORM, formFromRule, ruleFromForm, type AlarmRuleForm } from './alarmRules';

const RULES: Rule[] = [
  {
    kind: 'threshold',
    name: 'Low voltage',
    severity: 'critical',
    quantity: 'U',
    phase: 'L2',
    condition: 'below',
    threshold: 207,
    hysteresis: 3,
    holdSec: 60,
  },
  {
    kind: 'threshold',
    name: 'Frequency',
    severity: 'info',
    quantity: 'F',
    phase: 'SUM',
    condition: 'outside',
    threshold: 49.8,
    thresholdHigh: 50.2,
    hysteresis: 0.05,
    holdSec: 0,
  },
  { kind: 'offline', name: 'Silent', severity: 'warning', offlineMin: 15 },
  { kind: 'demand', name: 'Peak', severity: 'warning', limit: 'RK', sharePct: 85 },
];

describe('alarm rule form', () => {
  it.each(RULES.map((r) => [r.kind, r] as const))('gives back a %s rule it was opened on', (_k, rule) => {
    expect(ruleFromForm(formFromRule(rule))).toEqual(rule);
  });

  it.each<[string, Partial<AlarmRuleForm>, Rule['kind']]>([
    ['a threshold', { name: ' Over ', threshold: 250 }, 'threshold'],
    ['an offline', { kind: 'offline', name: 'Off' }, 'offline'],
    ['a demand', { kind: 'demand', name: 'Peak' }, 'demand'],
  ])('makes %s rule the server accepts from a filled new form', (_n, change, kind) => {
    const rule = ruleFromForm({ ...NEW_RULE_FORM, ...change });
    expect(AlarmRuleDefinition.parse(rule).kind).toBe(kind);
    expect(rule.name).toBe(rule.name.trim());
  });

  it('sends a band only with its upper edge, and frequency without a phase', () => {
    const above = ruleFromForm({ ...NEW_RULE_FORM, name: 'x', threshold: 1, thresholdHigh: 5 });
    expect(above).not.toHaveProperty('thresholdHigh');
    const f = ruleFromForm({ ...NEW_RULE_FORM, name: 'x', quantity: 'F', phase: 'L3', threshold: 51 });
    expect(f).toMatchObject({ phase: 'SUM' });
  });
});
