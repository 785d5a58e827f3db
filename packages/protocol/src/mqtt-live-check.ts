// The live frame's check on the path of every meter's every second: the rules of the LiveFrame
// schema in one pass over the parsed JSON, building nothing. It answers only "exactly as the
// schema would pass it"; a frame with keys the schema strips, or with any fault, is left to the
// schema, which strips them or words the fault. mqtt-live-check.test.ts holds the two equal.
import {
  LIVE_PHASE_QUANTITIES,
  LIVE_QUANTITY_OF,
  QUANTITY_BOUNDS,
  REGISTER_KINDS,
  type LiveFrame,
} from './mqtt-messages';

/** `ts` bounds of the schema: 2000-01-01 to 2100-01-01. */
const TS_MIN = 946684800;
const TS_MAX = 4102444800;
const F_MIN = QUANTITY_BOUNDS.frequencyHz.min;
const F_MAX = Math.min(QUANTITY_BOUNDS.frequencyHz.max, 100);
/** ts, the per-phase quantities, F and the registers. */
const FRAME_KEYS = 1 + LIVE_PHASE_QUANTITIES.length + 1 + REGISTER_KINDS.length;
const BOUNDS = LIVE_PHASE_QUANTITIES.map((q) => [q, QUANTITY_BOUNDS[LIVE_QUANTITY_OF[q]]] as const);

type Json = Record<string, unknown>;

/** A plain object with exactly `n` enumerable keys (so nothing for the schema to strip). */
function objectOf(v: unknown, n: number): v is Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  let keys = 0;
  for (const k in v) if (Object.hasOwn(v, k)) keys++;
  return keys === n;
}

/** A measured value within [min, max], or null for a phase not measured. */
function valueOk(v: unknown, min: number, max: number): boolean {
  return v === null || (typeof v === 'number' && v >= min && v <= max);
}

function registerOk(v: unknown): boolean {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

/**
 * The parsed JSON itself, typed, when the LiveFrame schema would pass it unchanged; otherwise
 * null (then ask the schema). NaN fails every comparison, so a non-finite number is refused.
 */
export function exactLiveFrame(json: unknown): LiveFrame | null {
  if (!objectOf(json, FRAME_KEYS)) return null;
  const ts = json.ts;
  if (typeof ts !== 'number' || !Number.isInteger(ts) || ts < TS_MIN || ts > TS_MAX) return null;
  for (const [q, { min, max }] of BOUNDS) {
    const v = json[q];
    if (!objectOf(v, 3) || !valueOk(v.L1, min, max) || !valueOk(v.L2, min, max) || !valueOk(v.L3, min, max))
      return null;
  }
  if (!valueOk(json.F, F_MIN, F_MAX)) return null;
  for (const r of REGISTER_KINDS) {
    const v = json[r];
    if (!objectOf(v, 3) || !registerOk(v.L1) || !registerOk(v.L2) || !registerOk(v.L3)) return null;
  }
  return json as LiveFrame;
}
