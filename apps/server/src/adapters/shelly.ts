// Shelly Gen2 energy meters over MQTT (Pro 3EM, Pro EM): status components published on
// `<prefix>/status/<component>` and the same components in NotifyStatus / NotifyFullStatus on
// `<prefix>/events/rpc`, plus `<prefix>/online` (true/false, the device's last will).
// Three-phase `em:0` (instantaneous, per phase a/b/c) with `emdata:0` (import and export
// registers, Wh); single-phase channels `em1:N` with `em1data:N`, channel N on phase L(N+1).
// NotifyStatus carries only the fields that changed, so components are merged field by field
// and a reading is made from the merged state once both instantaneous values and registers are known.
import { z } from 'zod';
import { PHASES, parseJson, refuse, type AdapterReject, type MeterReading, type PhaseSet } from './reading';

const num = z.number().finite();
const optNum = num.optional();
const nullableNum = num.nullable().optional();

const PHASE_KEYS = ['a', 'b', 'c'] as const;
const EM_FIELDS = ['current', 'voltage', 'act_power', 'aprt_power', 'pf', 'freq'] as const;

const emShape = Object.fromEntries(
  PHASE_KEYS.flatMap((p) => EM_FIELDS.map((f) => [`${p}_${f}`, optNum])),
) as Record<`${(typeof PHASE_KEYS)[number]}_${(typeof EM_FIELDS)[number]}`, typeof optNum>;

/** `em:N` (fields optional: NotifyStatus sends only changes). */
const Em = z.object({
  id: z.number().int().optional(),
  ...emShape,
  n_current: nullableNum,
  total_current: optNum,
  total_act_power: optNum,
  total_aprt_power: optNum,
});
/** `emdata:N`. */
const EmData = z.object({
  id: z.number().int().optional(),
  a_total_act_energy: optNum,
  a_total_act_ret_energy: optNum,
  b_total_act_energy: optNum,
  b_total_act_ret_energy: optNum,
  c_total_act_energy: optNum,
  c_total_act_ret_energy: optNum,
  total_act: optNum,
  total_act_ret: optNum,
});
/** `em1:N`. */
const Em1 = z.object({
  id: z.number().int().optional(),
  current: optNum,
  voltage: optNum,
  act_power: optNum,
  aprt_power: optNum,
  pf: optNum,
  freq: optNum,
});
/** `em1data:N`. */
const Em1Data = z.object({
  id: z.number().int().optional(),
  total_act_energy: optNum,
  total_act_ret_energy: optNum,
});

/** Components the portal reads, by name pattern. */
const COMPONENT = /^(em|emdata|em1|em1data):([0-2])$/;
const SCHEMA_OF = { em: Em, emdata: EmData, em1: Em1, em1data: Em1Data } as const;

/** Fields a full status of each component must have (NotifyStatus sends only changes). */
const REQUIRED_OF: Record<keyof typeof SCHEMA_OF, readonly string[]> = {
  em: PHASE_KEYS.flatMap((p) => EM_FIELDS.map((f) => `${p}_${f}`)),
  emdata: PHASE_KEYS.flatMap((p) => [`${p}_total_act_energy`, `${p}_total_act_ret_energy`]),
  em1: EM_FIELDS,
  em1data: ['total_act_energy', 'total_act_ret_energy'],
};

/** Merged field values of the components a device has reported, by component name. */
export type ShellyComponents = Record<string, Record<string, number | null>>;

/** What one Shelly message says. */
export type ShellyMessage =
  | { ok: true; kind: 'components'; components: ShellyComponents; tsSec?: number }
  | { ok: true; kind: 'online'; online: boolean }
  | { ok: true; kind: 'ignored' }
  | AdapterReject;

function component(name: string, value: unknown, full: boolean): ShellyComponents | AdapterReject | null {
  const m = COMPONENT.exec(name);
  if (!m) return null;
  const kind = m[1] as keyof typeof SCHEMA_OF;
  const parsed = SCHEMA_OF[kind].safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refuse('schema', `${name}.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  const fields: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(parsed.data)) if (v !== undefined) fields[k] = v;
  const missing = full ? REQUIRED_OF[kind].find((k) => fields[k] === undefined) : undefined;
  if (missing) return refuse('schema', `${name}.${missing}: missing`);
  return { [name]: fields };
}

const isReject = (x: unknown): x is AdapterReject =>
  typeof x === 'object' && x !== null && (x as { ok?: unknown }).ok === false;

const RpcNotification = z.object({
  method: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
});

/** Decodes one message on `<prefix>/<sub>`; sub is the topic after the prefix. */
export function decodeShelly(sub: string, bytes: Uint8Array): ShellyMessage {
  if (sub === 'online') {
    const text = Buffer.from(bytes).toString('utf8').trim();
    if (text === 'true') return { ok: true, kind: 'online', online: true };
    if (text === 'false') return { ok: true, kind: 'online', online: false };
    return refuse('schema', 'online must be true or false');
  }
  if (sub.startsWith('status/')) {
    const name = sub.slice('status/'.length);
    if (!COMPONENT.test(name)) return { ok: true, kind: 'ignored' };
    const j = parseJson(bytes);
    if (!j.ok) return j;
    const c = component(name, j.json, true);
    if (c === null) return { ok: true, kind: 'ignored' };
    if (isReject(c)) return c;
    return { ok: true, kind: 'components', components: c };
  }
  if (sub === 'events/rpc') {
    const j = parseJson(bytes);
    if (!j.ok) return j;
    const rpc = RpcNotification.safeParse(j.json);
    if (!rpc.success) return refuse('schema', 'not an RPC notification');
    if (rpc.data.method !== 'NotifyStatus' && rpc.data.method !== 'NotifyFullStatus')
      return { ok: true, kind: 'ignored' };
    const params = rpc.data.params ?? {};
    const ts = params.ts;
    if (ts !== undefined && (typeof ts !== 'number' || !Number.isFinite(ts) || ts < 0))
      return refuse('schema', 'params.ts must be unix seconds');
    const components: ShellyComponents = {};
    for (const [name, value] of Object.entries(params)) {
      const c = component(name, value, rpc.data.method === 'NotifyFullStatus');
      if (c === null) continue;
      if (isReject(c)) return c;
      Object.assign(components, c);
    }
    if (Object.keys(components).length === 0) return { ok: true, kind: 'ignored' };
    return {
      ok: true,
      kind: 'components',
      components,
      ...(typeof ts === 'number' ? { tsSec: Math.floor(ts) } : {}),
    };
  }
  return { ok: true, kind: 'ignored' };
}

/** The device's components with a message's fields merged in (a new object; the old stays). */
export function mergeShelly(prior: ShellyComponents, next: ShellyComponents): ShellyComponents {
  const out: ShellyComponents = { ...prior };
  for (const [name, fields] of Object.entries(next)) out[name] = { ...prior[name], ...fields };
  return out;
}

const put = (set: PhaseSet, phase: (typeof PHASES)[number], v: number | null | undefined) => {
  if (typeof v === 'number') set[phase] = v;
};
const nonEmpty = (set: PhaseSet) => (Object.keys(set).length ? set : undefined);

/** Frequency of the phases that report one (a phase without voltage reports 0). */
const frequencyOf = (values: (number | null | undefined)[]) => {
  const present = values.filter((v): v is number => typeof v === 'number');
  return present.length ? Math.max(...present) : undefined;
};

/** One phase's fields by the names of a single-phase channel (`em1:N` with `em1data:N`). */
interface PhaseFields {
  em: Record<string, number | null | undefined>;
  data: Record<string, number | null | undefined>;
}

/**
 * The reading of per-phase fields (null: a phase the device does not report); a device that
 * counts only totals has them carried as its registers.
 */
function readingOf(
  fields: (PhaseFields | null)[],
  totals: { importWh?: number | null | undefined; exportWh?: number | null | undefined } = {},
): MeterReading {
  const sets = { U: {}, I: {}, P: {}, S: {}, PF: {} } as Record<'U' | 'I' | 'P' | 'S' | 'PF', PhaseSet>;
  const source = { U: 'voltage', I: 'current', P: 'act_power', S: 'aprt_power', PF: 'pf' } as const;
  const imp: PhaseSet = {};
  const exp: PhaseSet = {};
  const freqs: (number | null | undefined)[] = [];
  fields.forEach((f, n) => {
    if (!f) return;
    const phase = PHASES[n]!;
    for (const q of ['U', 'I', 'P', 'S', 'PF'] as const) put(sets[q], phase, f.em[source[q]]);
    freqs.push(f.em.freq);
    put(imp, phase, f.data.total_act_energy);
    put(exp, phase, f.data.total_act_ret_energy);
  });
  const reading: MeterReading = {};
  for (const q of ['U', 'I', 'P', 'S', 'PF'] as const) {
    const v = nonEmpty(sets[q]);
    if (v) reading[q] = v;
  }
  const F = frequencyOf(freqs);
  if (F !== undefined) reading.F = F;
  if (nonEmpty(imp)) reading.E_I = { phasesWh: imp };
  else if (typeof totals.importWh === 'number') reading.E_I = { totalWh: totals.importWh };
  if (nonEmpty(exp)) reading.E_E = { phasesWh: exp };
  else if (typeof totals.exportWh === 'number') reading.E_E = { totalWh: totals.exportWh };
  return reading;
}

/** The three phases a/b/c of `em:0` and `emdata:0`, by the names of a single-phase channel. */
function threePhase(em: Record<string, number | null>, data: Record<string, number | null>): MeterReading {
  const fields = PHASE_KEYS.map((k) => ({
    em: Object.fromEntries(EM_FIELDS.map((f) => [f, em[`${k}_${f}`]])),
    data: {
      total_act_energy: data[`${k}_total_act_energy`],
      total_act_ret_energy: data[`${k}_total_act_ret_energy`],
    },
  }));
  return readingOf(fields, { importWh: data.total_act, exportWh: data.total_act_ret });
}

/** The `em1:N` channels that have both parts, channel N on phase L(N+1); null without any. */
function channels(c: ShellyComponents): MeterReading | null {
  const fields = PHASES.map((_, n) => {
    const em = c[`em1:${n}`];
    const data = c[`em1data:${n}`];
    return em && data ? { em, data } : null;
  });
  return fields.some((f) => f !== null) ? readingOf(fields) : null;
}

/**
 * The reading of a device's merged components: the three-phase `em:0` with `emdata:0`, else its
 * `em1:N` channels that have both parts. Null until a reading is complete (no energy register
 * known yet), so no frame is made without the device's own registers.
 */
export function shellyReading(c: ShellyComponents): MeterReading | null {
  const em = c['em:0'];
  const data = c['emdata:0'];
  const reading = em && data ? threePhase(em, data) : channels(c);
  return reading?.E_I ? reading : null;
}
