// Generic JSON meters: one JSON object per message on `json/<topic>`, read through the device's
// mapping (which path carries which quantity, times which scale). A path the payload lacks (or
// holds null) leaves its quantity absent, never zero; a value of another type, or beyond the
// quantity's physical bounds once scaled, refuses the whole message. Energy comes from the mapped
// registers only.
import {
  JsonMapping,
  QUANTITY_BOUNDS,
  parseJsonPath,
  type JsonPathStep,
  type JsonQuantity,
} from '@meterportal/protocol';
import { parseJson, refuse, type AdapterReject, type MeterReading, type PhaseSet } from './reading';

/** What one JSON meter message says. */
export type JsonMessage = { ok: true; reading: MeterReading } | AdapterReject;

/** Physical bounds of each quantity, in the portal's units. */
const BOUNDS: Readonly<Record<JsonQuantity, { min: number; max: number }>> = {
  U: QUANTITY_BOUNDS.voltageV,
  I: QUANTITY_BOUNDS.currentA,
  P: QUANTITY_BOUNDS.powerW,
  Q: QUANTITY_BOUNDS.powerW,
  S: QUANTITY_BOUNDS.apparentVA,
  PF: QUANTITY_BOUNDS.powerFactor,
  F: { min: 0, max: 100 },
  E_I: { min: 0, max: 1e15 },
  E_E: { min: 0, max: 1e15 },
};

/** Earliest and latest reading time taken, unix seconds (as the live frame takes them). */
const TS_MIN = 946684800;
const TS_MAX = 4102444800;

/** The value at a path: undefined when a step is missing. */
export function valueAt(root: unknown, steps: readonly JsonPathStep[]): unknown {
  let v: unknown = root;
  for (const step of steps) {
    if (typeof step === 'number') {
      if (!Array.isArray(v) || step >= v.length) return undefined;
      v = v[step];
    } else {
      if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.hasOwn(v, step))
        return undefined;
      v = (v as Record<string, unknown>)[step];
    }
  }
  return v;
}

/** Whole Wh without the binary noise of a kWh times 1000. */
const roundWh = (wh: number) => Math.round(wh * 1000) / 1000;

/** The reading's time from the payload, unix seconds; undefined: none mapped or absent. */
function readTime(json: unknown, m: JsonMapping): { ok: true; tsSec?: number } | AdapterReject {
  if (!m.timePath?.trim() || !m.timeFormat) return { ok: true };
  const steps = parseJsonPath(m.timePath);
  if (!steps) return refuse('time', 'time path');
  const v = valueAt(json, steps);
  if (v === undefined || v === null) return { ok: true };
  let sec: number;
  if (m.timeFormat === 'iso') {
    // A time with a date, a clock and a zone (Z or ±hh:mm); a local time without one is not taken.
    if (
      typeof v !== 'string' ||
      !/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v)
    )
      return refuse('time', `${m.timePath}: not an ISO 8601 time with its zone`);
    sec = Date.parse(v.replace(' ', 'T')) / 1000;
  } else {
    if (typeof v !== 'number') return refuse('time', `${m.timePath}: not a number`);
    sec = m.timeFormat === 'unix_ms' ? v / 1000 : v;
  }
  if (!Number.isFinite(sec) || sec < TS_MIN || sec > TS_MAX)
    return refuse('time', `${m.timePath}: out of range`);
  return { ok: true, tsSec: Math.floor(sec) };
}

/** Decodes one message through the device's mapping. */
export function decodeJsonMeter(bytes: Uint8Array, m: JsonMapping): JsonMessage {
  const j = parseJson(bytes);
  if (!j.ok) return j;
  if (typeof j.json !== 'object' || j.json === null) return refuse('schema', 'not a JSON object or array');
  const reading: MeterReading = {};
  for (const row of m.rows) {
    const steps = parseJsonPath(row.path);
    const q = row.quantity as JsonQuantity;
    const bounds = BOUNDS[q];
    if (!steps || !bounds) return refuse('schema', `mapping of ${row.quantity} ${row.phase}`);
    const raw = valueAt(j.json, steps);
    if (raw === undefined || raw === null) continue;
    if (typeof raw !== 'number') return refuse('schema', `${row.path}: expected a number, got ${typeof raw}`);
    const v = raw * row.scale;
    if (!Number.isFinite(v) || v < bounds.min || v > bounds.max)
      return refuse('schema', `${row.path}: ${q} ${v} beyond ${bounds.min}..${bounds.max}`);
    if (q === 'F') reading.F = v;
    else if (q === 'E_I' || q === 'E_E') {
      const register = (reading[q] ??= {});
      if (row.phase === 'total') register.totalWh = roundWh(v);
      else (register.phasesWh ??= {})[row.phase as keyof PhaseSet] = roundWh(v);
    } else (reading[q] ??= {})[row.phase as keyof PhaseSet] = v;
  }
  // A register counted per phase is whole or absent: a phase missing from one message is no zero.
  for (const k of ['E_I', 'E_E'] as const) {
    const phases = m.rows.filter((r) => r.quantity === k && r.phase !== 'total').map((r) => r.phase);
    const got = reading[k]?.phasesWh;
    if (got && phases.some((p) => got[p as keyof PhaseSet] === undefined)) delete reading[k];
  }
  const time = readTime(j.json, m);
  if (!time.ok) return time;
  if (time.tsSec !== undefined) reading.tsSec = time.tsSec;
  return { ok: true, reading };
}

/** The quantities a mapping fills (the history of a JSON meter answers these only). */
export function jsonMappedQuantities(m: JsonMapping): Set<string> {
  return new Set(m.rows.map((r) => r.quantity));
}

/** The stored mapping text, read; null when none or unreadable. */
export function storedMapping(text: string | null): JsonMapping | null {
  if (!text) return null;
  try {
    const parsed = JsonMapping.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
