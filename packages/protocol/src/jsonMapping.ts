// Generic JSON meters: which JSON path of a device's payload carries which of the portal's
// quantities, in which unit. Shared by the server (validation, decoding) and the browser (editor).
import { z } from 'zod';
import { OkEnvelope, UserToken } from './common';

/** Quantities a JSON mapping may fill. */
export const JSON_QUANTITIES = ['U', 'I', 'P', 'Q', 'S', 'PF', 'F', 'E_I', 'E_E'] as const;
/** A quantity a JSON mapping may fill. */
export type JsonQuantity = (typeof JSON_QUANTITIES)[number];
/** Where a mapped value belongs: one phase, or the device's total (frequency, energy registers). */
export const JSON_PHASES = ['L1', 'L2', 'L3', 'total'] as const;
/** Where a mapped value belongs. */
export type JsonPhase = (typeof JSON_PHASES)[number];
/** How a payload's time is written. */
export const JSON_TIME_FORMATS = ['unix_s', 'unix_ms', 'iso'] as const;
/** How a payload's time is written. */
export type JsonTimeFormat = (typeof JSON_TIME_FORMATS)[number];
/** Most rows of one mapping. */
export const JSON_MAPPING_MAX = 64;
/** Longest JSON path. */
export const JSON_PATH_MAX = 200;

/** One row of a mapping: the value at path, times scale, is the quantity of that phase. */
export const JsonMappingRow = z.object({
  quantity: z.string().max(10),
  phase: z.string().max(10),
  path: z.string().max(JSON_PATH_MAX),
  /** Factor to the portal's unit (V, A, W, var, VA, Hz, Wh): kW and kWh are 1000. */
  scale: z.number(),
});
/** One row of a mapping. */
export type JsonMappingRow = z.output<typeof JsonMappingRow>;

/** A device's mapping: its rows and, optionally, where the payload's time is. */
export const JsonMapping = z.object({
  rows: z.array(JsonMappingRow).max(JSON_MAPPING_MAX * 4),
  /** Path of the reading's time; absent: the time the message arrives. */
  timePath: z.string().max(JSON_PATH_MAX).optional(),
  timeFormat: z.string().max(10).optional(),
});
/** A device's mapping. */
export type JsonMapping = z.output<typeof JsonMapping>;

/** One step of a JSON path: a member name or an array index. */
export type JsonPathStep = string | number;

/**
 * The steps of a path: `data.voltage[0]`, `$.L1.U`, `values[2].P`, `["odd name"].x`. Member names
 * are letters, digits, `_` and `-` (quoted in brackets for anything else); null: not a path.
 */
export function parseJsonPath(path: string): JsonPathStep[] | null {
  let s = path.trim();
  if (s === '' || s.length > JSON_PATH_MAX) return null;
  if (s.startsWith('$')) {
    s = s.slice(1);
    if (s === '') return null;
    if (s.startsWith('.')) s = s.slice(1);
    else if (!s.startsWith('[')) return null;
  }
  const steps: JsonPathStep[] = [];
  const re = /^(?:([A-Za-z0-9_-]+)|\[(\d{1,4})\]|\["([^"\\]{1,100})"\])/;
  let first = true;
  while (s !== '') {
    if (!first && !s.startsWith('[')) {
      if (!s.startsWith('.')) return null;
      s = s.slice(1);
    }
    const m = re.exec(s);
    if (!m) return null;
    if (m[1] !== undefined) steps.push(m[1]);
    else if (m[2] !== undefined) steps.push(Number(m[2]));
    else steps.push(m[3]!);
    s = s.slice(m[0].length);
    first = false;
  }
  return steps.length ? steps : null;
}

/** What is wrong with a mapping, each problem named by its place; empty when it is fine. */
export function jsonMappingProblems(m: JsonMapping): string[] {
  const out: string[] = [];
  if (m.rows.length === 0) out.push('rows: at least one row');
  if (m.rows.length > JSON_MAPPING_MAX) out.push(`rows: at most ${JSON_MAPPING_MAX}`);
  const seen = new Set<string>();
  const registerKinds = new Map<string, Set<string>>();
  m.rows.forEach((r, i) => {
    const at = `rows.${i}`;
    const q = JSON_QUANTITIES.find((x) => x === r.quantity);
    const phase = JSON_PHASES.find((x) => x === r.phase);
    if (!q) out.push(`${at}.quantity: one of ${JSON_QUANTITIES.join(', ')}`);
    if (!phase) out.push(`${at}.phase: one of ${JSON_PHASES.join(', ')}`);
    if (q && phase) {
      if (q === 'F' && phase !== 'total') out.push(`${at}.phase: frequency is the total only`);
      if (q !== 'F' && q !== 'E_I' && q !== 'E_E' && phase === 'total')
        out.push(`${at}.phase: ${q} is per phase (L1, L2, L3)`);
      const key = `${q}:${phase}`;
      if (seen.has(key)) out.push(`${at}: ${q} ${phase} is mapped twice`);
      seen.add(key);
      if (q === 'E_I' || q === 'E_E') {
        const kinds = registerKinds.get(q) ?? new Set<string>();
        kinds.add(phase === 'total' ? 'total' : 'phase');
        registerKinds.set(q, kinds);
      }
    }
    if (!parseJsonPath(r.path)) out.push(`${at}.path: not a JSON path (like data.voltage[0] or $.L1.U)`);
    if (!Number.isFinite(r.scale) || r.scale === 0 || Math.abs(r.scale) > 1e9)
      out.push(`${at}.scale: a finite number other than 0`);
  });
  for (const [q, kinds] of registerKinds)
    if (kinds.size > 1) out.push(`rows: ${q} is mapped per phase or as a total, not both`);
  const hasTimePath = m.timePath !== undefined && m.timePath.trim() !== '';
  if (hasTimePath && !parseJsonPath(m.timePath!)) out.push('timePath: not a JSON path');
  if (m.timeFormat !== undefined && !JSON_TIME_FORMATS.some((f) => f === m.timeFormat))
    out.push(`timeFormat: one of ${JSON_TIME_FORMATS.join(', ')}`);
  if (hasTimePath && m.timeFormat === undefined) out.push('timeFormat: required with timePath');
  if (!m.rows.some((r) => r.quantity === 'E_I'))
    out.push('rows: map the imported energy register (E_I); energy is taken from the register only');
  return out;
}

const row = (quantity: JsonQuantity, phase: JsonPhase, path: string, scale = 1): JsonMappingRow => ({
  quantity,
  phase,
  path,
  scale,
});

/**
 * Eastron SDM630 as Modbus-to-MQTT gateways publish it (mbmd and the gateways that follow it):
 * one flat object per poll named after the meter's registers, voltages in V, currents in A,
 * powers in W, var and VA, energies in kWh, and the poll time in ISO 8601.
 */
export const SDM630_PRESET: JsonMapping = {
  rows: [
    ...(['L1', 'L2', 'L3'] as const).flatMap((p) => [
      row('U', p, `Voltage${p}`),
      row('I', p, `Current${p}`),
      row('P', p, `Power${p}`),
      row('Q', p, `ReactivePower${p}`),
      row('S', p, `ApparentPower${p}`),
      row('PF', p, `Cosphi${p}`),
    ]),
    row('F', 'total', 'Frequency'),
    row('E_I', 'total', 'Import', 1000),
    row('E_E', 'total', 'Export', 1000),
  ],
  timePath: 'Timestamp',
  timeFormat: 'iso',
};

/** Body of changing a JSON meter's mapping (PUT /applications/usermanager/registrations/mapping). */
export const RegistrationMappingRequest = z.object({
  user_token: UserToken,
  mac: z.string().max(64),
  mapping: JsonMapping,
});
/** Body of changing a JSON meter's mapping. */
export type RegistrationMappingRequest = z.input<typeof RegistrationMappingRequest>;
/** Answer of changing a JSON meter's mapping. */
export const RegistrationMappingResponse = OkEnvelope;
