// Household appliances of a type 1 meter: their runs add to the load, and the NILM events the
// meter reports are exactly these runs, so notifications and profiles tell the same story.
import { hash01 } from './noise';

/** One appliance run on one phase. */
export interface ApplianceRun {
  name: string;
  phase: 'L1' | 'L2' | 'L3';
  startSec: number;
  endSec: number;
  powerW: number;
  /** Power factor of the appliance (inductive). */
  pf: number;
}

interface Appliance {
  name: string;
  phase: ApplianceRun['phase'];
  powerW: number;
  pf: number;
  minSec: number;
  maxSec: number;
  /** Local hours around which a run may start, with the chance it happens that day. */
  slots: readonly (readonly [hour: number, chance: number])[];
}

const APPLIANCES: readonly Appliance[] = [
  {
    name: 'Kettle',
    phase: 'L1',
    powerW: 2000,
    pf: 1,
    minSec: 150,
    maxSec: 300,
    slots: [
      [7, 0.9],
      [12, 0.4],
      [16, 0.6],
      [20, 0.5],
    ],
  },
  {
    name: 'Washing machine',
    phase: 'L2',
    powerW: 850,
    pf: 0.78,
    minSec: 3600,
    maxSec: 6000,
    slots: [
      [9, 0.35],
      [18, 0.3],
    ],
  },
  {
    name: 'Oven',
    phase: 'L3',
    powerW: 2300,
    pf: 1,
    minSec: 1800,
    maxSec: 3600,
    slots: [
      [11.5, 0.4],
      [17.5, 0.5],
    ],
  },
  {
    name: 'Dishwasher',
    phase: 'L2',
    powerW: 1700,
    pf: 0.92,
    minSec: 3600,
    maxSec: 5400,
    slots: [[20.5, 0.7]],
  },
  {
    name: 'Hair dryer',
    phase: 'L3',
    powerW: 1600,
    pf: 0.98,
    minSec: 240,
    maxSec: 600,
    slots: [
      [6.8, 0.5],
      [21.5, 0.3],
    ],
  },
];

const FRIDGE = { name: 'Fridge', phase: 'L1' as const, powerW: 110, pf: 0.72 };

/** Every appliance run starting on the given UTC day (day = floor(ts / 86400)). */
export function applianceRunsOfDay(seed: number, day: number): ApplianceRun[] {
  const runs: ApplianceRun[] = [];
  const dayStart = day * 86400 - 3600; // local midnight (UTC+1)
  APPLIANCES.forEach((a, ai) => {
    a.slots.forEach(([hour, chance], si) => {
      const k = day * 97 + ai * 13 + si;
      if (hash01(seed ^ 0x51ed, k) >= chance) return;
      const startSec = Math.round(dayStart + hour * 3600 + (hash01(seed ^ 0x7a11, k) - 0.5) * 5400);
      const durSec = Math.round(a.minSec + (a.maxSec - a.minSec) * hash01(seed ^ 0x2b3c, k));
      runs.push({
        name: a.name,
        phase: a.phase,
        startSec,
        endSec: startSec + durSec,
        powerW: a.powerW,
        pf: a.pf,
      });
    });
  });
  for (let h = 0; h < 24; h++) {
    const k = day * 24 + h;
    const startSec = Math.round(day * 86400 + h * 3600 + hash01(seed ^ 0x1f1f, k) * 1200);
    const durSec = Math.round(900 + 500 * hash01(seed ^ 0x3e3e, k));
    runs.push({ ...FRIDGE, startSec, endSec: startSec + durSec });
  }
  return runs.sort((x, y) => x.startSec - y.startSec);
}

/** Keeps the runs of the last few days at hand; runs may cross midnight. */
export function createApplianceCalendar(seed: number) {
  const cache = new Map<number, ApplianceRun[]>();
  const ofDay = (day: number): ApplianceRun[] => {
    let runs = cache.get(day);
    if (!runs) {
      runs = applianceRunsOfDay(seed, day);
      cache.set(day, runs);
      if (cache.size > 8) cache.delete(cache.keys().next().value ?? day);
    }
    return runs;
  };
  return {
    /** Runs active at tsSec (start <= ts < end). */
    activeAt(tsSec: number): ApplianceRun[] {
      const day = Math.floor(tsSec / 86400);
      const out: ApplianceRun[] = [];
      for (const runs of [ofDay(day - 1), ofDay(day)]) {
        for (const r of runs) if (r.startSec <= tsSec && tsSec < r.endSec) out.push(r);
      }
      return out;
    },
    /** Runs starting or ending in (fromSec, toSec]. */
    edgesBetween(fromSec: number, toSec: number): { run: ApplianceRun; event: 'ON' | 'OFF' }[] {
      const out: { run: ApplianceRun; event: 'ON' | 'OFF' }[] = [];
      const d0 = Math.floor(fromSec / 86400) - 1;
      const d1 = Math.floor(toSec / 86400);
      for (let d = d0; d <= d1; d++) {
        for (const run of ofDay(d)) {
          if (run.startSec > fromSec && run.startSec <= toSec) out.push({ run, event: 'ON' });
          if (run.endSec > fromSec && run.endSec <= toSec) out.push({ run, event: 'OFF' });
        }
      }
      return out;
    },
  };
}
