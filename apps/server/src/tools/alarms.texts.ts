// Notification texts of alarms, in the language the rule was made in.
import { ALARM_UNITS, type AlarmLanguage, type AlarmRuleDefinition } from '@meterportal/protocol';

interface Words {
  severity: Record<'info' | 'warning' | 'critical', string>;
  condition: Record<'above' | 'below' | 'outside', string>;
  raised: string;
  cleared: string;
  offline: (min: number) => string;
  demand: (pct: number, limit: string) => string;
  value: string;
}

const WORDS: Record<AlarmLanguage, Words> = {
  en: {
    severity: { info: 'info', warning: 'warning', critical: 'critical' },
    condition: { above: 'above', below: 'below', outside: 'outside' },
    raised: 'Alarm raised',
    cleared: 'Alarm cleared',
    offline: (min) => `no data for more than ${min} min`,
    demand: (pct, limit) => `quarter-hour demand heading for ${pct} % of ${limit}`,
    value: 'value',
  },
  sk: {
    severity: { info: 'informácia', warning: 'varovanie', critical: 'kritický' },
    condition: { above: 'nad', below: 'pod', outside: 'mimo' },
    raised: 'Alarm vznikol',
    cleared: 'Alarm zanikol',
    offline: (min) => `bez údajov dlhšie ako ${min} min`,
    demand: (pct, limit) => `štvrťhodinový odber smeruje k ${pct} % ${limit}`,
    value: 'hodnota',
  },
  de: {
    severity: { info: 'Info', warning: 'Warnung', critical: 'kritisch' },
    condition: { above: 'über', below: 'unter', outside: 'außerhalb' },
    raised: 'Alarm ausgelöst',
    cleared: 'Alarm aufgehoben',
    offline: (min) => `seit mehr als ${min} min keine Daten`,
    demand: (pct, limit) => `Viertelstundenleistung steuert auf ${pct} % der ${limit} zu`,
    value: 'Wert',
  },
};

const num = (lang: AlarmLanguage, v: number) =>
  new Intl.NumberFormat(lang === 'en' ? 'en-GB' : lang, { maximumFractionDigits: 2 }).format(v);

/** What the rule watches, in words. */
export function ruleSummary(lang: AlarmLanguage, rule: AlarmRuleDefinition): string {
  const w = WORDS[lang];
  switch (rule.kind) {
    case 'threshold': {
      const unit = ALARM_UNITS[rule.quantity];
      const u = unit ? ` ${unit}` : '';
      const what = rule.quantity === 'F' ? 'F' : `${rule.quantity} ${rule.phase}`;
      const band =
        rule.condition === 'outside'
          ? `${num(lang, rule.threshold)}–${num(lang, rule.thresholdHigh ?? rule.threshold)}${u}`
          : `${num(lang, rule.threshold)}${u}`;
      return `${what} ${w.condition[rule.condition]} ${band}${rule.holdSec ? `, ${rule.holdSec} s` : ''}`;
    }
    case 'offline':
      return w.offline(rule.offlineMin);
    case 'demand':
      return w.demand(rule.sharePct, rule.limit);
  }
}

/** The text of an alarm's raise or clear. */
export function alarmText(
  lang: AlarmLanguage,
  event: 'raised' | 'cleared',
  rule: AlarmRuleDefinition,
  value: number | null,
): string {
  const w = WORDS[lang];
  const head = `${event === 'raised' ? w.raised : w.cleared} (${w.severity[rule.severity]}): ${rule.name}`;
  const tail = value === null ? '' : `; ${w.value} ${num(lang, value)}`;
  return `${head} – ${ruleSummary(lang, rule)}${tail}`;
}
