// Column lists of the telemetry tables, shared by the migration, ingest and backfill.
import type { EnergyColumn, MinuteValueColumn } from '../db/schema.telemetry';
import { MINUTE_VALUE_COLUMNS } from './minute-aggregate';

/** Register kinds kept as quarter-hour energy (Q_E is their reactive sum, so it is not stored). */
export const STORED_REGISTER_KINDS = ['E_I', 'E_E', 'Q1', 'Q2', 'Q3', 'Q4', 'S_E'] as const;
const PHASES = ['L1', 'L2', 'L3'] as const;

const unitOf = (kind: (typeof STORED_REGISTER_KINDS)[number]) =>
  kind.startsWith('Q') ? 'varh' : kind === 'S_E' ? 'vah' : 'wh';

/** Per-phase energy columns in register-channel order (kind-major, L1..L3). */
export const ENERGY_PHASE_COLUMNS = STORED_REGISTER_KINDS.flatMap((k) =>
  PHASES.map((p) => `${k.toLowerCase()}_${p.toLowerCase()}_${unitOf(k)}` as EnergyColumn),
);
/** Summed energy columns, one per kind. */
export const ENERGY_TOTAL_COLUMNS = STORED_REGISTER_KINDS.map(
  (k) => `${k.toLowerCase()}_${unitOf(k)}` as EnergyColumn,
);
/** Every energy column. */
export const ENERGY_COLUMNS: readonly EnergyColumn[] = [...ENERGY_PHASE_COLUMNS, ...ENERGY_TOTAL_COLUMNS];

/** Minute value columns, typed. */
export const MINUTE_COLUMNS = MINUTE_VALUE_COLUMNS as readonly MinuteValueColumn[];

/** The stored register channels of a frame: kind-major, L1..L3. */
export function registerChannels(
  frame: Record<(typeof STORED_REGISTER_KINDS)[number], { L1: number; L2: number; L3: number }>,
): number[] {
  const out: number[] = [];
  for (const k of STORED_REGISTER_KINDS) {
    const r = frame[k];
    out.push(r.L1, r.L2, r.L3);
  }
  return out;
}

/** Energy row values (phase columns then totals) from per-channel deltas. */
export function energyRowValues(deltas: readonly number[]): number[] {
  const totals = STORED_REGISTER_KINDS.map(
    (_, k) => (deltas[k * 3] ?? 0) + (deltas[k * 3 + 1] ?? 0) + (deltas[k * 3 + 2] ?? 0),
  );
  return [...deltas, ...totals];
}
