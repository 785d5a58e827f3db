// Command request/reply pair of the device link (`cmd/req` portal -> device, `cmd/res` back).
import { z } from 'zod';
import { DeviceSettings, SettingsWrite } from './settings';

/** Seconds the portal waits for a command reply before answering 604. */
export const COMMAND_TIMEOUT_SEC = 10;

/** Correlation id chosen by the portal and echoed by the device. */
export const CorrelationId = z.string().min(1).max(64);

/** Keys of a meter record in the device's meter database (seed 001 section 3). */
export const METER_RECORD_KEYS = [
  'ID_meter',
  'IDN',
  'CRC',
  'SNUM',
  'TYPE',
  'LPCOUNT',
  'MTIME',
  'PRODUCER',
  'YMAN',
  'VOLTAGE',
  'CURRENT',
  'CONSTANT',
  'CONSTUNIT',
  'SCALEFACTOR',
  'CLASS',
  'MENERGYTYPE',
  'FREQ',
  'CONTYPE',
  'CONSTTYPE',
  'CUSTOMER',
  'AREA',
  'LOCATION',
  'ADDRESS',
  'CTRATIO',
  'VTRATIO',
  'NOTE1',
  'NOTE2',
  'NOTE3',
  'NOTE4',
  'ELM_OUTPUT_TYPE',
  'IMIN',
  'INOM',
  'IMAX',
  'UNOM',
  'SQRT3',
  'ISIDE',
  'USIDE',
  'DIALREG',
  'ENERMETHOD',
  'CTSNOM',
  'VTSNOM',
] as const;

const recordValue = z.union([z.string().max(200), z.number().finite()]);
/** One meter of the device's meter database; IDN identifies it, empty fields are empty strings. */
export const MeterRecord = z
  .object(
    Object.fromEntries(METER_RECORD_KEYS.map((k) => [k, recordValue.optional()])) as Record<
      (typeof METER_RECORD_KEYS)[number],
      z.ZodOptional<typeof recordValue>
    >,
  )
  .extend({ IDN: z.string().min(1).max(64) });
/** One meter record. */
export type MeterRecord = z.infer<typeof MeterRecord>;

const nilmName = z.string().min(1).max(64);
/** A power edge a meter saw while listening: positive when a load switched on, W. */
const nilmEdge = z.object({
  phase: z.enum(['L1', 'L2', 'L3']),
  deltaW: z.number().finite().min(-100_000).max(100_000),
});

/** A command sent to a device on `cmd/req`. */
export const CommandRequest = z.discriminatedUnion('cmd', [
  /** Harmonic spectrum of voltage and current per phase. */
  z.object({ id: CorrelationId, cmd: z.literal('HARMONICS') }),
  /** One mains period of voltage and current samples per phase. */
  z.object({ id: CorrelationId, cmd: z.literal('WAVEFORM') }),
  /** Device sends its meter database to the portal. */
  z.object({ id: CorrelationId, cmd: z.literal('METERS_UPLOAD') }),
  /** Portal overwrites the device's meter database. */
  z.object({ id: CorrelationId, cmd: z.literal('METERS_DOWNLOAD'), meters: z.array(MeterRecord).max(1000) }),
  /** Start a firmware upgrade; progress follows on `upgrade` with the same id. */
  z.object({ id: CorrelationId, cmd: z.literal('FIRMWARE_UPGRADE'), fw: z.string().min(1).max(40) }),
  /** Switch the load relay (disconnector). */
  z.object({ id: CorrelationId, cmd: z.literal('RELAY'), state: z.enum(['OPEN', 'CLOSED']) }),
  /** Report the LoRa, WiFi and measurement settings (keys and password only as set or not). */
  z.object({ id: CorrelationId, cmd: z.literal('SETTINGS_READ') }),
  /** Apply one section of the settings; the reply carries every setting after applying. */
  z.object({ id: CorrelationId, cmd: z.literal('SETTINGS_WRITE'), settings: SettingsWrite }),
  /** Start listening for the power edges of the appliance about to be switched on and off (type 1). */
  z.object({ id: CorrelationId, cmd: z.literal('NILM_TEACH_START'), name: nilmName }),
  /** Stop listening and report the edges seen since NILM_TEACH_START. */
  z.object({ id: CorrelationId, cmd: z.literal('NILM_TEACH_STOP'), name: nilmName }),
  /** Forget an appliance; with `imprintOnly` keep the appliance and drop its taught imprint. */
  z.object({
    id: CorrelationId,
    cmd: z.literal('NILM_FORGET'),
    name: nilmName,
    imprintOnly: z.boolean(),
  }),
  /** Switch NILM processing and auto-learning. */
  z.object({
    id: CorrelationId,
    cmd: z.literal('NILM_SETTINGS'),
    process: z.boolean(),
    autoLearn: z.boolean(),
  }),
]);
/** A command sent to a device. */
export type CommandRequest = z.infer<typeof CommandRequest>;
/** Name of a command. */
export type CommandName = CommandRequest['cmd'];

const perPhaseSeries = z.object({
  L1: z.object({ values: z.array(z.number().finite()).max(4096) }),
  L2: z.object({ values: z.array(z.number().finite()).max(4096) }),
  L3: z.object({ values: z.array(z.number().finite()).max(4096) }),
});

/** Harmonic amplitudes in % of the fundamental; values[0] is order 1 (always 100). */
export const HarmonicsResult = z.object({ U: perPhaseSeries, I: perPhaseSeries });
/** Harmonic amplitudes per phase. */
export type HarmonicsResult = z.infer<typeof HarmonicsResult>;

/** Instantaneous samples (V and A) over one mains period, evenly spaced at sampleRateHz. */
export const WaveformResult = z.object({
  sampleRateHz: z.number().positive(),
  U: perPhaseSeries,
  I: perPhaseSeries,
});
/** Waveform samples per phase. */
export type WaveformResult = z.infer<typeof WaveformResult>;

const okReply = <C extends string, R extends z.ZodType>(cmd: C, result: R) =>
  z.object({ id: CorrelationId, cmd: z.literal(cmd), ok: z.literal(true), result });

/** A device's answer on `cmd/res`: ok with a result of the command's shape, or an error. */
export const CommandReply = z.union([
  z.discriminatedUnion('cmd', [
    okReply('HARMONICS', HarmonicsResult),
    okReply('WAVEFORM', WaveformResult),
    okReply('METERS_UPLOAD', z.object({ meters: z.array(MeterRecord).max(1000) })),
    okReply('METERS_DOWNLOAD', z.object({ count: z.number().int().nonnegative() })),
    /** Accepted means the upgrade started; NOT_AVAILABLE arrives as an error. */
    okReply('FIRMWARE_UPGRADE', z.object({ accepted: z.literal(true) })),
    okReply('RELAY', z.object({ state: z.enum(['OPEN', 'CLOSED']) })),
    okReply('SETTINGS_READ', DeviceSettings),
    okReply('SETTINGS_WRITE', DeviceSettings),
    okReply('NILM_TEACH_START', z.object({ name: nilmName })),
    /** Every edge seen while listening, in order; the portal judges how many make an imprint. */
    okReply('NILM_TEACH_STOP', z.object({ name: nilmName, edges: z.array(nilmEdge).max(64) })),
    okReply('NILM_FORGET', z.object({ name: nilmName })),
    okReply('NILM_SETTINGS', z.object({ process: z.boolean(), autoLearn: z.boolean() })),
  ]),
  z.object({
    id: CorrelationId,
    cmd: z.enum([
      'HARMONICS',
      'WAVEFORM',
      'METERS_UPLOAD',
      'METERS_DOWNLOAD',
      'FIRMWARE_UPGRADE',
      'RELAY',
      'SETTINGS_READ',
      'SETTINGS_WRITE',
      'NILM_TEACH_START',
      'NILM_TEACH_STOP',
      'NILM_FORGET',
      'NILM_SETTINGS',
    ]),
    ok: z.literal(false),
    /** Why the device refused: BUSY, NOT_SUPPORTED, NOT_AVAILABLE, INVALID. */
    error: z.enum(['BUSY', 'NOT_SUPPORTED', 'NOT_AVAILABLE', 'INVALID']),
  }),
]);
/** A device's answer to a command. */
export type CommandReply = z.infer<typeof CommandReply>;
