import { z } from 'zod';
import { DeviceTokenString, UserToken, okWith } from './common';
import { LIVE_PHASE_QUANTITIES } from './mqtt-messages';

/** How serious an alarm is. */
export const ALARM_SEVERITIES = ['info', 'warning', 'critical'] as const;
/** How serious an alarm is. */
export type AlarmSeverity = (typeof ALARM_SEVERITIES)[number];

/** Where an alarm is in its life. */
export const ALARM_STATES = ['raised', 'acknowledged', 'cleared'] as const;
/** Where an alarm is in its life. */
export type AlarmState = (typeof ALARM_STATES)[number];

/** Quantities a threshold rule may watch: the per-phase live quantities and the frequency. */
export const ALARM_QUANTITIES = [...LIVE_PHASE_QUANTITIES, 'F'] as const;
/** A quantity a threshold rule watches. */
export type AlarmQuantity = (typeof ALARM_QUANTITIES)[number];

/** One phase, or SUM (the sum for I, P, Q, S; the mean of the phases for the others). */
export const ALARM_PHASES = ['L1', 'L2', 'L3', 'SUM'] as const;
/** A phase of a threshold rule. */
export type AlarmPhase = (typeof ALARM_PHASES)[number];

/** Languages an alarm's notification text is written in. */
export const ALARM_LANGUAGES = ['en', 'sk', 'de'] as const;
/** A language of alarm texts. */
export type AlarmLanguage = (typeof ALARM_LANGUAGES)[number];

const finite = z.number().min(-1e9).max(1e9);
const name = z
  .string()
  .trim()
  .min(1)
  .max(80)
  .regex(/^\P{Cc}*$/u, 'may not hold control characters');
const common = {
  name,
  severity: z.enum(ALARM_SEVERITIES),
};

/** A value of a live quantity above, below or outside a band for at least holdSec. */
export const ThresholdRule = z
  .object({
    kind: z.literal('threshold'),
    ...common,
    quantity: z.enum(ALARM_QUANTITIES),
    phase: z.enum(ALARM_PHASES),
    condition: z.enum(['above', 'below', 'outside']),
    /** The threshold; with `outside`, the band's lower edge. */
    threshold: finite,
    /** With `outside`, the band's upper edge. */
    thresholdHigh: finite.optional(),
    /** How far back past the threshold the value must come before the alarm clears (≥ 0). */
    hysteresis: z.number().min(0).max(1e9).default(0),
    /** How long the condition must hold before the alarm is raised, s. */
    holdSec: z.number().int().min(0).max(86_400).default(0),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.condition === 'outside' && (r.thresholdHigh === undefined || r.thresholdHigh <= r.threshold))
      ctx.addIssue({
        code: 'custom',
        path: ['thresholdHigh'],
        message: 'the band needs an upper edge above its lower edge',
      });
    if (
      r.condition === 'outside' &&
      r.thresholdHigh !== undefined &&
      2 * r.hysteresis >= r.thresholdHigh - r.threshold
    )
      ctx.addIssue({
        code: 'custom',
        path: ['hysteresis'],
        message: 'hysteresis must be under half the band',
      });
    if (r.condition !== 'outside' && r.thresholdHigh !== undefined)
      ctx.addIssue({ code: 'custom', path: ['thresholdHigh'], message: 'only a band has an upper edge' });
  });
/** A threshold rule. */
export type ThresholdRule = z.infer<typeof ThresholdRule>;

/** The device has sent no live frame for more than offlineMin minutes. */
export const OfflineRule = z
  .object({
    kind: z.literal('offline'),
    ...common,
    offlineMin: z.number().int().min(1).max(10_080),
  })
  .strict();
/** An offline rule. */
export type OfflineRule = z.infer<typeof OfflineRule>;

/** The running quarter-hour's projected demand reaches sharePct % of the device's MRK or RK. */
export const DemandRule = z
  .object({
    kind: z.literal('demand'),
    ...common,
    limit: z.enum(['MRK', 'RK']),
    sharePct: z.number().min(1).max(200),
  })
  .strict();
/** A quarter-hour demand rule. */
export type DemandRule = z.infer<typeof DemandRule>;

/** What an alarm rule watches. */
export const AlarmRuleDefinition = z.discriminatedUnion('kind', [ThresholdRule, OfflineRule, DemandRule]);
/** What an alarm rule watches. */
export type AlarmRuleDefinition = z.infer<typeof AlarmRuleDefinition>;

/** A stored rule. */
export const AlarmRule = z.object({
  ID: z.number().int(),
  lang: z.enum(ALARM_LANGUAGES),
  rule: AlarmRuleDefinition,
  /** Last change, unix ms. */
  updated: z.number(),
});
/** A stored rule. */
export type AlarmRule = z.infer<typeof AlarmRule>;

/** One alarm as its list shows it (times unix ms). */
export const Alarm = z.object({
  ID: z.number().int(),
  ID_rule: z.number().int(),
  name: z.string(),
  severity: z.enum(ALARM_SEVERITIES),
  state: z.enum(ALARM_STATES),
  /** The watched value when the alarm was raised (V, A, W, minutes offline, projected W...). */
  value: z.number().nullable(),
  raised: z.number(),
  acknowledged: z.number().nullable(),
  acknowledgedBy: z.string().nullable(),
  note: z.string().nullable(),
  cleared: z.number().nullable(),
});
/** One alarm. */
export type Alarm = z.infer<typeof Alarm>;

const deviceCall = { user_token: UserToken, device_token: DeviceTokenString };

/** Body of POST (read) /tools/alarms/rules. */
export const AlarmRuleListRequest = z.object(deviceCall);
/** Answer of POST (read) /tools/alarms/rules: the caller's rules on the device. */
export const AlarmRuleListResponse = okWith(z.array(AlarmRule));

/** Body of POST (write) /tools/alarms/rules: a new rule, or a change of rule ID. */
export const AlarmRuleSaveRequest = z.object({
  ...deviceCall,
  ID: z.number().int().min(1).optional(),
  lang: z.enum(ALARM_LANGUAGES),
  rule: AlarmRuleDefinition,
});
/** Answer of a saved rule. */
export const AlarmRuleSaveResponse = okWith(z.object({ ID: z.number().int() }));

/** Body of DELETE /tools/alarms/rules. */
export const AlarmRuleDeleteRequest = z.object({ ...deviceCall, ID: z.number().int().min(1) });

/** Body of POST (read) /tools/alarms: the caller's alarms on the device, newest first. */
export const AlarmListRequest = z
  .object({
    ...deviceCall,
    /** `active` is raised or acknowledged. */
    state: z.enum([...ALARM_STATES, 'active']).optional(),
    severity: z.enum(ALARM_SEVERITIES).optional(),
    /** Raised at or after, unix s. */
    from: z.number().int().min(0).max(4_102_444_800).optional(),
    /** Raised before, unix s. */
    to: z.number().int().min(0).max(4_102_444_800).optional(),
    limit: z.number().int().min(1).max(500).default(100),
  })
  .refine((r) => r.from === undefined || r.to === undefined || r.from < r.to, {
    message: 'from must be before to',
    path: ['from'],
  });
/** Answer of POST (read) /tools/alarms. */
export const AlarmListResponse = okWith(z.array(Alarm));

/** Body of POST (write) /tools/alarms/acknowledge. */
export const AlarmAckRequest = z.object({
  ...deviceCall,
  ID: z.number().int().min(1),
  note: z
    .string()
    .max(500)
    .refine((s) => !s.includes('\u0000'), 'may not hold NUL')
    .default(''),
});

/** The unit a threshold of each quantity is given in. */
export const ALARM_UNITS: Readonly<Record<AlarmQuantity, string>> = {
  U: 'V',
  I: 'A',
  P: 'W',
  Q: 'var',
  S: 'VA',
  PF: '',
  DF_U: '%',
  DF_I: '%',
  F_U: '°',
  F_I: '°',
  U_PP: 'V',
  F_UPP: '°',
  F: 'Hz',
};
