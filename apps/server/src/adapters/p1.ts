// DSMR / P1 smart meters, as a P1-to-MQTT bridge publishes them on `p1/<topic>`: the raw
// telegram (`/header … !CRC`, CRC16/ARC over the bytes from `/` to `!`; DSMR 2.2/3.0 and D0
// meters send none), or the JSON that DSMR-reader publishes. Parsed by OBIS code:
//   1.8.0 / 1.8.1..4 import, 2.8.0 / 2.8.1..4 export (tariff registers summed when present),
//   1.7.0 / 2.7.0 power, 21/41/61.7.0 and 22/42/62.7.0 per-phase power, 32/52/72.7.0 voltage,
//   31/51/71.7.0 current, 14.7.0 frequency, 0-0:1.0.0 the time with its S (summer) / W (winter)
//   flag, and the Belgian capacity-tariff objects 1-0:1.4.0, 1-0:1.6.0 and 0-0:98.1.0.
// Gas, water and heat readings of M-Bus devices (0-n:24.2.x) are not electricity and are left out.
import { z } from 'zod';
import { flaggedLocalToUnix, localToUnix } from './local-time';
import {
  FAMILY_PAYLOAD_MAX_BYTES,
  PHASES,
  parseJson,
  refuse,
  type AdapterReject,
  type MeterReading,
  type PhaseSet,
} from './reading';

/** CRC16/ARC (poly 0xA001 reflected, init 0) of the bytes. */
export function crc16Arc(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

/** A peak of the Belgian capacity tariff: when it happened and its quarter-hour average power. */
export interface DemandPeak {
  /**
   * When the meter closed the month the peak belongs to (98.1.0): the first midnight of the next
   * month, unix seconds.
   */
  closedSec?: number;
  /** When the peak was, unix seconds; null for the meter's "not set" time (`632525252525W`). */
  atSec: number | null;
  powerW: number;
}

/** The Belgian capacity-tariff objects of a telegram, where present. */
export interface CapacityTariff {
  /** 1-0:1.4.0, the running quarter-hour's average demand, W. */
  currentAverageW?: number;
  /** 1-0:1.6.0, this month's peak. */
  monthPeak?: DemandPeak;
  /** 0-0:98.1.0, the last 13 months' peaks. */
  lastPeaks?: DemandPeak[];
}

/** One parsed telegram. */
export interface P1Telegram {
  header: string;
  /** true: CRC checked and right; null: the telegram carries none (DSMR 2.2/3.0, D0). */
  crcValid: true | null;
  reading: MeterReading;
  /** Summer (true) or winter (false) time of the timestamp, when it has a flag. */
  summer?: boolean;
  capacity: CapacityTariff;
}

/** What one P1 message says. */
export type P1Message = { ok: true; kind: 'reading'; telegram: P1Telegram } | AdapterReject;

/** A value with its unit, scaled to W / Wh / V / A / Hz; null for one that is not a number. */
function quantity(raw: string): { value: number; unit: string } | null {
  const m = /^(-?\d+(?:\.\d+)?)(?:\*([A-Za-z0-9]+))?$/.exec(raw.trim());
  if (!m) return null;
  const value = Number(m[1]);
  const unit = m[2] ?? '';
  // Scaled in decimal steps through the text, so 0.034 kWh is exactly 34 Wh.
  const thousand = (s: string) => {
    const [int, frac = ''] = s.replace('-', '').split('.');
    const f = (frac + '000').slice(0, 3);
    const rest = frac.slice(3);
    return (s.startsWith('-') ? -1 : 1) * Number(`${int}${f}${rest ? `.${rest}` : ''}`);
  };
  switch (unit.toLowerCase()) {
    case 'kwh':
      return { value: thousand(m[1]!), unit: 'Wh' };
    case 'kw':
      return { value: thousand(m[1]!), unit: 'W' };
    default:
      return { value, unit };
  }
}

const TS = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})([SW])?$/;

/**
 * Unix seconds of a telegram time `YYMMDDhhmmss[S|W]` in tz, its offset taken from the flag;
 * null for the "not set" value or a bad one.
 */
export function telegramTime(raw: string, tz: string): { tsSec: number; summer?: boolean } | null {
  const m = TS.exec(raw);
  if (!m) return null;
  const summer = m[7] === undefined ? undefined : m[7] === 'S';
  const wall = {
    year: 2000 + +m[1]!,
    month: +m[2]!,
    day: +m[3]!,
    hour: +m[4]!,
    minute: +m[5]!,
    second: +m[6]!,
  };
  const tsSec = summer === undefined ? localToUnix(wall, tz) : flaggedLocalToUnix(wall, tz, summer);
  return tsSec === null ? null : { tsSec, ...(summer === undefined ? {} : { summer }) };
}

const LINE = /^(\d+-\d+:\d+\.\d+\.\d+)(?:\*\d+)?((?:\([^()]*\))+)\s*$/;

/** The complete telegrams in a payload: each from a `/` at a line start to its `!` line. */
function telegrams(latin1: string): { body: string; crc: string | null }[] {
  const out: { body: string; crc: string | null }[] = [];
  const starts: number[] = [];
  for (let i = 0; i < latin1.length; i++)
    if (latin1[i] === '/' && (i === 0 || latin1[i - 1] === '\n')) starts.push(i);
  starts.forEach((start, k) => {
    const end = k + 1 < starts.length ? starts[k + 1]! : latin1.length;
    const part = latin1.slice(start, end);
    // The end line: `!` then the CRC (four hex digits, some meters drop a leading zero) or nothing.
    const m = /\r?\n!([0-9A-Fa-f]{0,4})[ \t]*(?:\r?\n|$)/.exec(part);
    if (!m) return; // cut off before its end: a new header came first
    out.push({ body: part.slice(0, m.index + m[0].indexOf('!') + 1), crc: m[1] ? m[1] : null });
  });
  return out;
}

/** Sums tariff registers when there are any, else the total register. */
const registerOf = (tariffs: number[], total: number | undefined) =>
  tariffs.length ? tariffs.reduce((a, v) => a + v, 0) : total;

/** Parses a raw telegram payload, read as bytes; tz is the zone of the meter's clock. */
export function decodeTelegram(bytes: Uint8Array, tz: string): P1Message {
  if (bytes.byteLength > FAMILY_PAYLOAD_MAX_BYTES) return refuse('oversized', `${bytes.byteLength} bytes`);
  const latin1 = Buffer.from(bytes).toString('latin1');
  const found = telegrams(latin1);
  if (!found.length) return refuse('telegram', 'no complete telegram');
  const t = found[found.length - 1]!;
  let crcValid: true | null = null;
  if (t.crc !== null) {
    const computed = crc16Arc(Buffer.from(t.body, 'latin1'));
    if (parseInt(t.crc, 16) !== computed)
      return refuse('crc', `CRC ${t.crc}, computed ${computed.toString(16).toUpperCase().padStart(4, '0')}`);
    crcValid = true;
  }
  const lines = t.body.split(/\r?\n/);
  const header = lines[0]!.trim();
  const values = new Map<string, string[]>();
  for (const line of lines.slice(1)) {
    const m = LINE.exec(line);
    if (!m) continue;
    const obis = m[1]!;
    values.set(
      obis,
      [...m[2]!.matchAll(/\(([^()]*)\)/g)].map((g) => g[1]!),
    );
  }
  const num = (obis: string, unit: string): number | undefined => {
    const v = values.get(obis);
    if (!v) return undefined;
    const q = quantity(v[v.length - 1]!);
    return q && (q.unit === unit || q.unit === '') ? q.value : undefined;
  };
  const reading: MeterReading = {};
  let summer: boolean | undefined;
  const time = values.get('0-0:1.0.0')?.[0];
  if (time !== undefined) {
    const ts = telegramTime(time, tz);
    if (!ts) return refuse('time', `timestamp ${time.slice(0, 20)}`);
    reading.tsSec = ts.tsSec;
    summer = ts.summer;
  }
  const tariffs = (dir: 1 | 2) =>
    [1, 2, 3, 4].map((n) => num(`1-0:${dir}.8.${n}`, 'Wh')).filter((v): v is number => v !== undefined);
  const imp = registerOf(tariffs(1), num('1-0:1.8.0', 'Wh'));
  const exp = registerOf(tariffs(2), num('1-0:2.8.0', 'Wh'));
  if (imp !== undefined) reading.E_I = { totalWh: imp };
  if (exp !== undefined) reading.E_E = { totalWh: exp };

  const U: PhaseSet = {};
  const I: PhaseSet = {};
  const P: PhaseSet = {};
  PHASES.forEach((phase, n) => {
    const base = 20 * (n + 1);
    const u = num(`1-0:${base + 12}.7.0`, 'V');
    const i = num(`1-0:${base + 11}.7.0`, 'A');
    const pi = num(`1-0:${base + 1}.7.0`, 'W');
    const pe = num(`1-0:${base + 2}.7.0`, 'W');
    if (u !== undefined) U[phase] = u;
    if (i !== undefined) I[phase] = i;
    if (pi !== undefined || pe !== undefined) P[phase] = (pi ?? 0) - (pe ?? 0);
  });
  if (Object.keys(U).length) reading.U = U;
  if (Object.keys(I).length) reading.I = I;
  if (Object.keys(P).length) reading.P = P;
  else {
    // Only the meter's total power: carried on L1, like its total registers.
    const pi = num('1-0:1.7.0', 'W');
    const pe = num('1-0:2.7.0', 'W');
    if (pi !== undefined || pe !== undefined) reading.P = { L1: (pi ?? 0) - (pe ?? 0) };
  }
  const f = num('1-0:14.7.0', 'Hz');
  if (f !== undefined) reading.F = f;
  return {
    ok: true,
    kind: 'reading',
    telegram: {
      header,
      crcValid,
      reading,
      ...(summer === undefined ? {} : { summer }),
      capacity: capacityTariff(values, tz),
    },
  };
}

function peak(rawTime: string | undefined, rawValue: string | undefined, tz: string): DemandPeak | null {
  const q = rawValue === undefined ? null : quantity(rawValue);
  if (!q || q.unit !== 'W') return null;
  return {
    atSec: rawTime === undefined ? null : (telegramTime(rawTime, tz)?.tsSec ?? null),
    powerW: q.value,
  };
}

/** The Belgian capacity-tariff objects; 98.1.0 only in its Belgian form `(n)(obis)(obis)(…)`. */
function capacityTariff(values: Map<string, string[]>, tz: string): CapacityTariff {
  const out: CapacityTariff = {};
  const avg = values.get('1-0:1.4.0');
  const avgQ = avg?.[0] === undefined ? null : quantity(avg[0]);
  if (avgQ?.unit === 'W') out.currentAverageW = avgQ.value;
  const month = values.get('1-0:1.6.0');
  const monthPeak = month && peak(month[0], month[1], tz);
  if (monthPeak) out.monthPeak = monthPeak;
  const hist = values.get('0-0:98.1.0');
  if (hist && /^\d{1,2}$/.test(hist[0] ?? '') && /^\d+-\d+:/.test(hist[1] ?? '')) {
    const n = Number(hist[0]);
    const peaks: DemandPeak[] = [];
    for (let k = 0; k < n; k++) {
      const [start, at, value] = hist.slice(3 + 3 * k, 6 + 3 * k);
      const p = peak(at, value, tz);
      const s = start === undefined ? null : telegramTime(start, tz);
      if (p) peaks.push({ ...(s ? { closedSec: s.tsSec } : {}), ...p });
    }
    out.lastPeaks = peaks;
  }
  return out;
}

const reader = z.union([
  z.number().finite(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);
/** The JSON DSMR-reader publishes for each reading (kWh, kW, V, A; its time in ISO 8601). */
const DsmrReaderJson = z.object({
  timestamp: z.string().max(40),
  electricity_delivered_1: reader,
  electricity_returned_1: reader,
  electricity_delivered_2: reader,
  electricity_returned_2: reader,
  electricity_currently_delivered: reader.optional(),
  electricity_currently_returned: reader.optional(),
  phase_currently_delivered_l1: reader.nullish(),
  phase_currently_delivered_l2: reader.nullish(),
  phase_currently_delivered_l3: reader.nullish(),
  phase_currently_returned_l1: reader.nullish(),
  phase_currently_returned_l2: reader.nullish(),
  phase_currently_returned_l3: reader.nullish(),
  phase_voltage_l1: reader.nullish(),
  phase_voltage_l2: reader.nullish(),
  phase_voltage_l3: reader.nullish(),
  phase_power_current_l1: reader.nullish(),
  phase_power_current_l2: reader.nullish(),
  phase_power_current_l3: reader.nullish(),
});

const kilo = (v: number) => Math.round(v * 1_000_000) / 1000;
const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Parses DSMR-reader's JSON reading; a time without a zone is read in tz. */
export function decodeDsmrReaderJson(bytes: Uint8Array, tz: string): P1Message {
  const j = parseJson(bytes);
  if (!j.ok) return j;
  const parsed = DsmrReaderJson.safeParse(j.json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refuse('schema', `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  const d = parsed.data;
  const m = ISO.exec(d.timestamp);
  const tsSec = !m
    ? null
    : m[7]
      ? Date.parse(d.timestamp.replace(' ', 'T')) / 1000
      : localToUnix(
          { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: +m[4]!, minute: +m[5]!, second: +m[6]! },
          tz,
        );
  if (tsSec === null || !Number.isFinite(tsSec))
    return refuse('time', `timestamp ${d.timestamp.slice(0, 40)}`);
  const reading: MeterReading = {
    tsSec: Math.floor(tsSec),
    E_I: { totalWh: kilo(d.electricity_delivered_1) + kilo(d.electricity_delivered_2) },
    E_E: { totalWh: kilo(d.electricity_returned_1) + kilo(d.electricity_returned_2) },
  };
  const U: PhaseSet = {};
  const I: PhaseSet = {};
  const P: PhaseSet = {};
  (['l1', 'l2', 'l3'] as const).forEach((l, n) => {
    const phase = PHASES[n]!;
    const u = d[`phase_voltage_${l}`];
    const i = d[`phase_power_current_${l}`];
    const pi = d[`phase_currently_delivered_${l}`];
    const pe = d[`phase_currently_returned_${l}`];
    if (u !== null && u !== undefined) U[phase] = u;
    if (i !== null && i !== undefined) I[phase] = i;
    if (typeof pi === 'number' || typeof pe === 'number') P[phase] = kilo(pi ?? 0) - kilo(pe ?? 0);
  });
  if (Object.keys(U).length) reading.U = U;
  if (Object.keys(I).length) reading.I = I;
  if (Object.keys(P).length) reading.P = P;
  else if (d.electricity_currently_delivered !== undefined || d.electricity_currently_returned !== undefined)
    reading.P = {
      L1: kilo(d.electricity_currently_delivered ?? 0) - kilo(d.electricity_currently_returned ?? 0),
    };
  return {
    ok: true,
    kind: 'reading',
    telegram: { header: 'DSMR-reader', crcValid: null, reading, capacity: {} },
  };
}

/** Decodes one message on a P1 topic: a raw telegram or DSMR-reader's JSON. */
export function decodeP1(bytes: Uint8Array, tz: string): P1Message {
  const first = bytes.find((b) => b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a);
  return first === 0x7b ? decodeDsmrReaderJson(bytes, tz) : decodeTelegram(bytes, tz);
}
