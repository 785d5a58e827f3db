import type { DeviceRuntime } from '../../api/liveRules';
import { normalizeAngle } from './phasors';

export type Phase = 'L1' | 'L2' | 'L3';
const PHASES: readonly Phase[] = ['L1', 'L2', 'L3'];

/** Units of the live dashboard (seed 001 section 9). */
export type DashboardUnit = 'V' | 'A' | '°' | '' | 'W' | 'var' | 'VA' | '%' | 'kWh' | 'kvarh' | 'kVAh';

/** One table row: a quantity of the live frame per phase, SUM for energies. */
export interface DashboardRow {
  /** Key in the live frame, also the label's translation key under precision.quantities. */
  key: DashboardKey;
  unit: DashboardUnit;
  values: Record<Phase, number | null>;
  /** Powers and energies: L1 + L2 + L3 (null when a phase is missing). */
  sum?: number | null;
}

export interface DashboardTables {
  load: DashboardRow[];
  more: DashboardRow[];
  energy: DashboardRow[];
  /** Mains frequency, Hz (one value for all phases). */
  frequency: number | null;
}

/** Quantities whose phases add up to the total of the installation. */
const SUMMED: ReadonlySet<DashboardKey> = new Set(['P', 'Q', 'S', 'E_I', 'Q_E', 'S_E']);
/** Angles: shown 0 to 360 degrees, as on the vector diagram. */
const ANGLES: ReadonlySet<DashboardKey> = new Set(['F_U', 'F_I', 'F_UPP']);

const LOAD = [
  ['U', 'V'],
  ['I', 'A'],
  ['F_U', '°'],
  ['F_I', '°'],
  ['PF', ''],
  ['P', 'W'],
  ['Q', 'var'],
  ['S', 'VA'],
] as const;
const MORE = [
  ['DF_U', '%'],
  ['DF_I', '%'],
  ['U_PP', 'V'],
  ['F_UPP', '°'],
] as const;
const ENERGY = [
  ['E_I', 'kWh'],
  ['Q_E', 'kvarh'],
  ['S_E', 'kVAh'],
] as const;

export type DashboardKey = (typeof LOAD)[number][0] | (typeof MORE)[number][0] | (typeof ENERGY)[number][0];

/** The payload of a live message: `data` of a pushed Data message, or the frame itself. */
export function framePayload(message: unknown): Record<string, unknown> | null {
  if (!message || typeof message !== 'object') return null;
  const m = message as Record<string, unknown>;
  const payload = m.data !== undefined ? m.data : m;
  return payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : null;
}

function phaseValues(raw: unknown, divisor: number): Record<Phase, number | null> {
  const q = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const out = { L1: null, L2: null, L3: null } as Record<Phase, number | null>;
  for (const p of PHASES) {
    const v = q[p];
    if (typeof v === 'number' && Number.isFinite(v)) out[p] = v / divisor;
  }
  return out;
}

/**
 * The three dashboard tables from a live Data message. Missing quantities stay empty ('-' on
 * screen); energies come in Wh (varh, VAh) and are divided by 1000; powers and energies carry
 * their total, angles read 0 to 360 degrees.
 */
export function dashboardTables(message: unknown): DashboardTables {
  const data = framePayload(message) ?? {};
  const row =
    (divisor: number) =>
    ([key, unit]: readonly [DashboardKey, DashboardUnit]): DashboardRow => {
      const values = phaseValues(data[key], divisor);
      if (ANGLES.has(key))
        for (const p of PHASES) values[p] = values[p] === null ? null : normalizeAngle(values[p]);
      if (!SUMMED.has(key)) return { key, unit, values };
      const all = PHASES.map((p) => values[p]);
      const sum = all.every((v): v is number => v !== null) ? all.reduce((a, b) => a + b, 0) : null;
      return { key, unit, values, sum };
    };
  const f = data.F;
  return {
    load: LOAD.map(row(1)),
    more: MORE.map(row(1)),
    energy: ENERGY.map(row(1000)),
    frequency: typeof f === 'number' && Number.isFinite(f) ? f : null,
  };
}

/** The dashboard shows values only while the device's pushed status is ONLINE. */
export function isDeviceOnline(runtime: DeviceRuntime | undefined): boolean {
  return runtime?.status === 'ONLINE';
}

/** Whether a pushed message is a live Data frame of the device with this mac. */
export function isDataOf(message: { topic?: string; mac?: string }, mac: string): boolean {
  return message.topic === 'Data' && message.mac === mac;
}
