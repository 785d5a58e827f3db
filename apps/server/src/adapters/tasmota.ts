// Tasmota energy monitors: `tele/<topic>/SENSOR` (and the `stat/<topic>/STATUS8` reply to
// `Status 8`) carry an `ENERGY` object, single values or per-phase arrays on three-phase builds;
// `tele/<topic>/LWT` says `Online` / `Offline` (the device's last will). `Time` is the device's
// local wall time without a zone, read in the zone the device runs in.
import { z } from 'zod';
import { localToUnix } from './local-time';
import {
  PHASES,
  parseJson,
  refuse,
  type AdapterReject,
  type MeterReading,
  type PhaseSet,
  type Register,
} from './reading';

const num = z.number().finite();
/** A single value, or one per phase (at most three). */
const perPhase = z.union([num, z.array(num).min(1).max(3)]);

const Energy = z.object({
  /** Imported energy since TotalStartTime, kWh. */
  Total: perPhase,
  /** Exported energy, kWh (meters that count it). */
  ExportActive: perPhase.optional(),
  Power: perPhase.optional(),
  ApparentPower: perPhase.optional(),
  ReactivePower: perPhase.optional(),
  Factor: perPhase.optional(),
  Voltage: perPhase.optional(),
  Current: perPhase.optional(),
  Frequency: perPhase.optional(),
});

const Sensor = z.object({ Time: z.string().max(40), ENERGY: Energy });
const Status8 = z.object({ StatusSNS: Sensor });

/** What one Tasmota message says. */
export type TasmotaMessage =
  | { ok: true; kind: 'reading'; reading: MeterReading & { tsSec: number } }
  | { ok: true; kind: 'online'; online: boolean }
  | { ok: true; kind: 'ignored' }
  | AdapterReject;

const TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

/** Phase values of a single value (L1) or an array (L1..L3). */
function phases(v: number | number[] | undefined, scale = 1): PhaseSet | undefined {
  if (v === undefined) return undefined;
  const list = Array.isArray(v) ? v : [v];
  const out: PhaseSet = {};
  list.forEach((x, i) => (out[PHASES[i]!] = x * scale));
  return out;
}

/** kWh (3 decimals) to Wh without binary noise. */
const kwhToWh = (kwh: number) => Math.round(kwh * 1_000_000) / 1000;

function register(v: number | number[] | undefined): Register | undefined {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) {
    const out: PhaseSet = {};
    v.forEach((x, i) => (out[PHASES[i]!] = kwhToWh(x)));
    return { phasesWh: out };
  }
  return { totalWh: kwhToWh(v) };
}

/**
 * Decodes one message; sub is the topic without its prefix and device topic (`SENSOR`, `LWT`,
 * `STATUS8`). tz is the zone the device's clock runs in.
 */
export function decodeTasmota(sub: string, bytes: Uint8Array, tz: string): TasmotaMessage {
  if (sub === 'LWT') {
    const text = Buffer.from(bytes).toString('utf8').trim();
    if (text === 'Online') return { ok: true, kind: 'online', online: true };
    if (text === 'Offline') return { ok: true, kind: 'online', online: false };
    return refuse('schema', 'LWT must be Online or Offline');
  }
  if (sub !== 'SENSOR' && sub !== 'STATUS8') return { ok: true, kind: 'ignored' };
  const j = parseJson(bytes);
  if (!j.ok) return j;
  if (sub === 'SENSOR' && (typeof j.json !== 'object' || j.json === null || !('ENERGY' in j.json)))
    return { ok: true, kind: 'ignored' }; // a sensor message of another sensor
  const parsed = (sub === 'SENSOR' ? Sensor : Status8.transform((s) => s.StatusSNS)).safeParse(j.json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refuse('schema', `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  const { Time, ENERGY: e } = parsed.data;
  const m = TIME.exec(Time);
  const tsSec = m
    ? localToUnix(
        { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: +m[4]!, minute: +m[5]!, second: +m[6]! },
        tz,
      )
    : null;
  if (tsSec === null) return refuse('time', `Time ${Time.slice(0, 40)}`);
  const reading: MeterReading & { tsSec: number } = { tsSec };
  const set = <K extends 'U' | 'I' | 'P' | 'Q' | 'S' | 'PF'>(k: K, v: number | number[] | undefined) => {
    const p = phases(v);
    if (p) reading[k] = p;
  };
  set('U', e.Voltage);
  set('I', e.Current);
  set('P', e.Power);
  set('Q', e.ReactivePower);
  set('S', e.ApparentPower);
  set('PF', e.Factor);
  if (e.Frequency !== undefined)
    reading.F = Array.isArray(e.Frequency) ? Math.max(...e.Frequency) : e.Frequency;
  const imp = register(e.Total);
  if (imp) reading.E_I = imp;
  const exp = register(e.ExportActive);
  if (exp) reading.E_E = exp;
  return { ok: true, kind: 'reading', reading };
}
