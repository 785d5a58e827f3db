// Topics and payload schemas of the device link; re-exported by mqtt.ts.
import { z } from 'zod';
import { MAC_PATTERN } from './common';
import { OnlineStatus } from './constants';

/*
 * MQTT contract between meters and the portal (docs/mqtt.md). Every topic lives under
 * `meters/{mac}/`; a device may publish and subscribe only under its own mac. QoS 1 throughout.
 *
 * Units, stated once: voltage V (rms), current A (rms), active power W, reactive power var,
 * apparent power VA, frequency Hz, angles degrees, distortion % THD, energy registers Wh / varh /
 * VAh as cumulative integers, timestamps unix seconds (UTC). Active power is positive when the
 * site imports and negative when it exports; reactive power is positive when inductive.
 */

/** Root of every device topic. */
export const MQTT_TOPIC_ROOT = 'meters';

/** The topic kinds under `meters/{mac}/`. */
export const TOPIC_KINDS = [
  'live',
  'state',
  'event',
  'accutest/data',
  'accutest/state',
  'upgrade',
  'cmd/req',
  'cmd/res',
] as const;
/** One topic kind. */
export type TopicKind = (typeof TOPIC_KINDS)[number];

/** Kinds a device publishes (the portal subscribes to them). */
export const DEVICE_PUBLISH_KINDS: readonly TopicKind[] = [
  'live',
  'state',
  'event',
  'accutest/data',
  'accutest/state',
  'upgrade',
  'cmd/res',
];
/** Kinds a device subscribes to (the portal publishes them). */
export const DEVICE_SUBSCRIBE_KINDS: readonly TopicKind[] = ['cmd/req'];

/** Largest payload accepted on any device topic, in bytes; a meter database upload is the biggest. */
export const MQTT_MAX_PAYLOAD_BYTES = 256 * 1024;

/** Largest payload per topic kind, in bytes: a live frame is about 3 KiB, so 16 KiB is generous. */
export const TOPIC_MAX_BYTES: Readonly<Record<TopicKind, number>> = {
  live: 16 * 1024,
  state: 4 * 1024,
  event: 8 * 1024,
  'accutest/data': 16 * 1024,
  'accutest/state': 4 * 1024,
  upgrade: 4 * 1024,
  'cmd/req': MQTT_MAX_PAYLOAD_BYTES,
  'cmd/res': MQTT_MAX_PAYLOAD_BYTES,
};

/** MQTT quality of service used by devices and portal. */
export const MQTT_QOS = 1;

/** Topic of one kind for one device. */
export function deviceTopic(mac: string, kind: TopicKind): string {
  return `${MQTT_TOPIC_ROOT}/${mac}/${kind}`;
}

/** The MQTT client id a device must connect with: bound to its credentials (its mac). */
export function meterClientId(mac: string): string {
  return `meter-${mac}`;
}

/** Subscription filter for one kind across every device (used by the portal). */
export function fleetTopicFilter(kind: TopicKind): string {
  return `${MQTT_TOPIC_ROOT}/+/${kind}`;
}

/** Splits a device topic into mac and kind; null when it is not a device topic. */
export function parseDeviceTopic(topic: string): { mac: string; kind: TopicKind } | null {
  const prefix = `${MQTT_TOPIC_ROOT}/`;
  if (!topic.startsWith(prefix)) return null;
  const rest = topic.slice(prefix.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return null;
  const mac = rest.slice(0, slash);
  const kind = rest.slice(slash + 1);
  if (!MAC_PATTERN.test(mac)) return null;
  return (TOPIC_KINDS as readonly string[]).includes(kind) ? { mac, kind: kind as TopicKind } : null;
}

/** Longest text a device may send in any one string (keys 64), in UTF-16 code units. */
export const DEVICE_TEXT_MAX_CHARS = 1024;
const DEVICE_KEY_MAX_CHARS = 64;

/** Why a device's text cannot be stored: what SQLite or PostgreSQL would refuse or mangle. */
export type TextFault = 'nul_char' | 'lone_surrogate' | 'text_too_long';

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textFaultOf(text: string, max: number): TextFault | null {
  if (text.length > max) return 'text_too_long';
  if (text.includes('\u0000')) return 'nul_char';
  return LONE_SURROGATE.test(text) ? 'lone_surrogate' : null;
}

/**
 * The first string (value or key) of a parsed payload that no database may store: a NUL, which
 * PostgreSQL refuses in text, a lone surrogate, which is not valid UTF-8, or one longer than
 * DEVICE_TEXT_MAX_CHARS. Every device payload that carries text passes this before its schema,
 * so SQLite and PostgreSQL see the same texts.
 */
export function findTextFault(value: unknown): { fault: TextFault; path: string } | null {
  const path: (string | number)[] = [];
  const fault = walk(value, path);
  // The path is collected only on the way out of a fault, so a clean payload allocates nothing.
  return fault ? { fault, path: path.reverse().join('.') } : null;
}

function walk(value: unknown, path: (string | number)[]): TextFault | null {
  if (typeof value === 'string') return textFaultOf(value, DEVICE_TEXT_MAX_CHARS);
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const fault = walk(value[i], path);
      if (fault) {
        path.push(i);
        return fault;
      }
    }
    return null;
  }
  for (const key in value) {
    const keyFault = textFaultOf(key, DEVICE_KEY_MAX_CHARS);
    if (keyFault) {
      path.push('(key)');
      return keyFault;
    }
    const fault = walk((value as Record<string, unknown>)[key], path);
    if (fault) {
      path.push(key);
      return fault;
    }
  }
  return null;
}

const finite = z.number().finite();

/**
 * Physical bounds of each instantaneous quantity, wide enough for any meter the portal serves
 * (also one that reports transformer primary values) and narrow enough that sums over a minute
 * stay exact: a value outside them is a faulty or hostile device, and its frame is refused.
 */
export const QUANTITY_BOUNDS = {
  /** Voltage (rms), V. */
  voltageV: { min: 0, max: 1e6 },
  /** Current (rms), A. */
  currentA: { min: 0, max: 1e6 },
  /** Active or reactive power, W / var (signed). */
  powerW: { min: -1e12, max: 1e12 },
  /** Apparent power, VA. */
  apparentVA: { min: 0, max: 1e12 },
  /** Power factor. */
  powerFactor: { min: -1, max: 1 },
  /** Total harmonic distortion, %. */
  thdPct: { min: 0, max: 1000 },
  /** Phasor angle, degrees. */
  angleDeg: { min: -360, max: 360 },
  /** Mains frequency, Hz. */
  frequencyHz: { min: 0, max: 1000 },
  /** Energy during a test or a maximum demand, Wh / varh / VAh / W (signed). */
  energyWh: { min: -1e15, max: 1e15 },
  /** Meter error or its deviation, %. */
  errorPct: { min: -1e4, max: 1e4 },
  /** Any other number a device reports (counts, constants, seconds). */
  other: { min: -1e15, max: 1e15 },
} as const;
/** A quantity with physical bounds. */
export type BoundedQuantity = keyof typeof QUANTITY_BOUNDS;

/** A finite number within the bounds of its quantity. */
export function bounded(quantity: BoundedQuantity) {
  const b = QUANTITY_BOUNDS[quantity];
  return z.number().finite().min(b.min).max(b.max);
}

const PHASES = ['L1', 'L2', 'L3'] as const;

/**
 * One value per phase; null on a phase the device does not measure (the L2 and L3 of a
 * single-phase meter, or a quantity a meter family lacks), never a zero that looks measured.
 */
const phaseValue = finite.nullable();
/** One value per phase, null where the device does not measure it. */
export const PhaseValues = z.object({ L1: phaseValue, L2: phaseValue, L3: phaseValue });
/** One value per phase. */
export type PhaseValues = z.infer<typeof PhaseValues>;

const register = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
/** One cumulative register per phase, integer Wh / varh / VAh. */
export const PhaseRegisters = z.object({ L1: register, L2: register, L3: register });
/** One cumulative register per phase. */
export type PhaseRegisters = z.infer<typeof PhaseRegisters>;

/** Instantaneous quantities of a live frame, each per phase. */
export const LIVE_PHASE_QUANTITIES = [
  'U',
  'I',
  'P',
  'Q',
  'S',
  'PF',
  'DF_U',
  'DF_I',
  'F_U',
  'F_I',
  'U_PP',
  'F_UPP',
] as const;
/** One instantaneous per-phase quantity. */
export type LivePhaseQuantity = (typeof LIVE_PHASE_QUANTITIES)[number];

/** The bounded quantity each instantaneous value of a live frame is. */
export const LIVE_QUANTITY_OF: Readonly<Record<LivePhaseQuantity, BoundedQuantity>> = {
  U: 'voltageV',
  I: 'currentA',
  P: 'powerW',
  Q: 'powerW',
  S: 'apparentVA',
  PF: 'powerFactor',
  DF_U: 'thdPct',
  DF_I: 'thdPct',
  F_U: 'angleDeg',
  F_I: 'angleDeg',
  U_PP: 'voltageV',
  F_UPP: 'angleDeg',
};

/** Cumulative registers of a live frame, each per phase. */
export const REGISTER_KINDS = ['E_I', 'E_E', 'Q1', 'Q2', 'Q3', 'Q4', 'Q_E', 'S_E'] as const;
/** One cumulative register kind. */
export type RegisterKind = (typeof REGISTER_KINDS)[number];

/**
 * Reports a number beyond [min, max] as zod's too_big or too_small issue at `path`; a number that
 * is not finite counts as too big.
 */
export function addBoundIssue(
  ctx: z.RefinementCtx,
  v: number,
  min: number,
  max: number,
  path: (string | number)[] = [],
): void {
  if (!Number.isFinite(v) || v > max)
    ctx.addIssue({
      code: 'too_big',
      origin: 'number',
      maximum: max,
      inclusive: true,
      input: v,
      path,
      message: `at most ${max}`,
    });
  else if (v < min)
    ctx.addIssue({
      code: 'too_small',
      origin: 'number',
      minimum: min,
      inclusive: true,
      input: v,
      path,
      message: `at least ${min}`,
    });
}

/** Live data frame, about one per second on `live`. */
export const LiveFrame = z
  .object({
    /** Measurement time, unix seconds. */
    ts: z.number().int().min(946684800).max(4102444800),
    /** Phase voltage to neutral, V. */
    U: PhaseValues,
    /** Phase current, A. */
    I: PhaseValues,
    /** Active power, W; negative while exporting. */
    P: PhaseValues,
    /** Reactive power, var; positive inductive, negative capacitive. */
    Q: PhaseValues,
    /** Apparent power, VA. */
    S: PhaseValues,
    /** Power factor P/S, -1 to 1, signed like P. */
    PF: PhaseValues,
    /** Voltage total harmonic distortion, %. */
    DF_U: PhaseValues,
    /** Current total harmonic distortion, %. */
    DF_I: PhaseValues,
    /** Voltage phasor angle, degrees, L1 voltage at 0. */
    F_U: PhaseValues,
    /** Current phasor angle, degrees, same reference. */
    F_I: PhaseValues,
    /** Phase-to-phase voltage L1-L2, L2-L3, L3-L1 (under L1, L2, L3), V. */
    U_PP: PhaseValues,
    /** Phase-to-phase voltage phasor angle, degrees. */
    F_UPP: PhaseValues,
    /** Mains frequency, Hz; null when the device does not measure it. */
    F: bounded('frequencyHz').max(100).nullable(),
    /** Active energy imported, Wh. */
    E_I: PhaseRegisters,
    /** Active energy exported, Wh. */
    E_E: PhaseRegisters,
    /** Reactive energy in quadrant 1 (import, inductive), varh. */
    Q1: PhaseRegisters,
    /** Reactive energy in quadrant 2 (export, inductive), varh. */
    Q2: PhaseRegisters,
    /** Reactive energy in quadrant 3 (export, capacitive), varh. */
    Q3: PhaseRegisters,
    /** Reactive energy in quadrant 4 (import, capacitive), varh. */
    Q4: PhaseRegisters,
    /** Reactive energy of all quadrants (Q1+Q2+Q3+Q4), varh. */
    Q_E: PhaseRegisters,
    /** Apparent energy, VAh. */
    S_E: PhaseRegisters,
  })
  // One pass over the instantaneous values (LIVE_QUANTITY_OF) instead of 36 bounded schemas:
  // the frame of every meter every second pays for it.
  .superRefine((frame, ctx) => {
    for (const q of LIVE_PHASE_QUANTITIES) {
      const { min, max } = QUANTITY_BOUNDS[LIVE_QUANTITY_OF[q]];
      const values = frame[q];
      for (const phase of PHASES) {
        const v = values[phase];
        if (v !== null) addBoundIssue(ctx, v, min, max, [q, phase]);
      }
    }
  });
/** Live data frame. */
export type LiveFrame = z.infer<typeof LiveFrame>;

/** Values of every phase, each measured. */
export interface MeasuredPhaseValues {
  L1: number;
  L2: number;
  L3: number;
}
/** A live frame whose every quantity is measured (the portal's own meters, the simulator). */
export type MeasuredLiveFrame = {
  [K in keyof LiveFrame]: K extends 'ts' | 'F' ? number : MeasuredPhaseValues;
};

/** Device status words carried by state messages. */
export const DEVICE_STATUS = ['ONLINE', 'OFFLINE', 'DATABASE_UPDATE'] as const;
/** A device status word. */
export type DeviceStatusWord = (typeof DEVICE_STATUS)[number];

/** Online status code (OnlineStatus) of a status word. */
export function onlineStatusOf(status: DeviceStatusWord): 0 | 1 | 2 {
  switch (status) {
    case 'ONLINE':
      return OnlineStatus.Online;
    case 'OFFLINE':
      return OnlineStatus.Offline;
    case 'DATABASE_UPDATE':
      return OnlineStatus.DatabaseUpdate;
  }
}

/** Device state on `state` (retained; the last will publishes OFFLINE here). */
export const StateMessage = z.object({
  /** Device status word. */
  status: z.enum(DEVICE_STATUS),
  /** Firmware version. */
  fw: z.string().max(40).optional(),
  /** Link in use, e.g. BT_MQTT_DB (with local database) or BT_MQTT. */
  connection: z.string().max(40).optional(),
  /** Device model name. */
  device: z.string().max(64).optional(),
  /** Time of the change, unix seconds; absent in the last will. */
  ts: z.number().int().nonnegative().optional(),
});
/** Device state message. */
export type StateMessage = z.infer<typeof StateMessage>;

/** When a device event happened: whole unix seconds, as device clocks count them. */
const eventTs = z.number().int().nonnegative().brand<'UnixSec'>();
const phase = z.enum(['L1', 'L2', 'L3']);

/** Device event on `event`; `type` matches the notification sources. */
export const EventMessage = z.discriminatedUnion('type', [
  z.object({
    /** Status change reported by the device itself (boot, reboot, power loss). */
    type: z.literal('STATUS'),
    data: z.object({
      timestamp: eventTs,
      event: z.string().max(40),
      message: z.string().max(500).optional(),
    }),
  }),
  z.object({
    /** Consumption anomaly detected on the device (type 1). */
    type: z.literal('ANOMALY'),
    data: z.object({
      timestamp: eventTs,
      event: z.string().max(40),
      message: z.string().max(500).optional(),
      phase: phase.optional(),
    }),
  }),
  z.object({
    /** Appliance switched on or off (NILM, type 1); runtime s, energy Wh. */
    type: z.literal('NILM'),
    data: z.object({
      timestamp: eventTs,
      event: z.enum(['ON', 'OFF']),
      name: z.string().min(1).max(64),
      phase,
      /** Confidence of the recognition, %. */
      prediction_rate: bounded('other').min(0).max(100),
      /** Seconds the appliance ran (0 on ON). */
      runtime: z.number().int().nonnegative(),
      /** Energy the appliance used during the run (0 on ON), Wh. */
      energy_consumption_wh: bounded('energyWh').nonnegative(),
    }),
  }),
  z.object({
    /** Load disconnector opened or closed (type 2). */
    type: z.literal('DISCONNECTOR'),
    data: z.object({
      timestamp: eventTs,
      event: z.enum(['OPEN', 'CLOSED']),
      /** Why it moved: COMMAND, OVERLOAD, or MANUAL. */
      message: z.enum(['COMMAND', 'OVERLOAD', 'MANUAL']),
    }),
  }),
]);
/** Device event. */
export type EventMessage = z.infer<typeof EventMessage>;
/** A device event as a device writes it (plain numbers, before the server's parsing brands them). */
export type EventMessageInput = z.input<typeof EventMessage>;

/** Firmware upgrade progress states (seed 000 section 4, plus the final DONE). */
export const UPGRADE_STATES = [
  'STARTING',
  'UPGRADING',
  'REBOOTING',
  'DONE',
  'FAILED',
  'TIMEOUT',
  'NOT_AVAILABLE',
] as const;

/** Firmware upgrade progress on `upgrade`. */
export const UpgradeMessage = z.object({
  /** Correlation id of the FIRMWARE_UPGRADE command that started it. */
  id: z.string().min(1).max(64),
  state: z.enum(UPGRADE_STATES),
  /** Progress, %. */
  progress: z.number().min(0).max(100),
  /** Target firmware version. */
  fw: z.string().max(40),
});
/** Firmware upgrade progress. */
export type UpgradeMessage = z.infer<typeof UpgradeMessage>;

/** Accuracy test run state on `accutest/state` (precision device, type 3). */
export const AccuTestStateMessage = z.object({
  state: z.enum(['IDLE', 'RUNNING', 'DONE', 'ABORTED']),
  /** Meter under test (its IDN). */
  IDN: z.string().max(64).optional(),
  /** Progress of the running test, %. */
  progress: z.number().min(0).max(100),
  ts: eventTs,
});
/** Accuracy test run state. */
export type AccuTestStateMessage = z.infer<typeof AccuTestStateMessage>;
/** Accuracy-test progress as a device writes it. */
export type AccuTestStateMessageInput = z.input<typeof AccuTestStateMessage>;
