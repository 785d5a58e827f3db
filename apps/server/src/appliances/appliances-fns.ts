import { NotificationData, type PowerEdge } from '@meterportal/protocol';

/** What an appliance did in a range, from its NILM events. */
export interface ApplianceFigures {
  runs: number;
  runtimeSec: number;
  energyWh: number;
  lastRunMs: number | null;
  /** Phase of its latest event. */
  phase: string | null;
}

const EMPTY: ApplianceFigures = { runs: 0, runtimeSec: 0, energyWh: 0, lastRunMs: null, phase: null };

/** Energy as shown: Wh with one decimal (the seed's NILM number format). */
export const roundWh = (wh: number): number => Math.round(wh * 10) / 10;

/**
 * Figures per appliance name from stored NILM notifications (their JSON data): a run is an OFF
 * event in [fromMs, toMs), which carries the run's seconds and Wh; ON events only name the phase.
 */
export function applianceFigures(dataJson: readonly string[], fromMs: number, toMs: number) {
  const out = new Map<string, ApplianceFigures>();
  for (const text of dataJson) {
    let parsed;
    try {
      parsed = NotificationData.safeParse(JSON.parse(text));
    } catch {
      continue;
    }
    if (!parsed.success) continue;
    const d = parsed.data;
    if (!d.name || d.timestamp < fromMs || d.timestamp >= toMs) continue;
    const f = out.get(d.name) ?? { ...EMPTY };
    if (d.phase) f.phase = d.phase;
    if (d.event === 'OFF') {
      f.runs += 1;
      f.runtimeSec += d.runtime ?? 0;
      f.energyWh += d.energy_consumption_wh ?? 0;
      f.lastRunMs = Math.max(f.lastRunMs ?? 0, d.timestamp);
    }
    out.set(d.name, f);
  }
  for (const f of out.values()) f.energyWh = roundWh(f.energyWh);
  return { get: (name: string): ApplianceFigures => out.get(name) ?? EMPTY };
}

/** The stored imprint's edges, or null when there is none (or it cannot be read). */
export function parseImprint(text: string | null): PowerEdge[] | null {
  if (text === null) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? (v as PowerEdge[]) : null;
  } catch {
    return null;
  }
}

/** Names are compared as a person reads them: without regard to case and surrounding spaces. */
export const sameName = (a: string, b: string): boolean =>
  a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();
