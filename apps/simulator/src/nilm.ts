// The NILM side of a household meter (type 1): its switches, the appliances it was told to
// forget, and teaching: while it listens, the household switches the named appliance on and off
// and the meter reports the power edges it saw.
import { hash01, seedOf } from './noise';

/** A power edge seen while listening; positive when a load switched on, W. */
export interface SimEdge {
  phase: 'L1' | 'L2' | 'L3';
  deltaW: number;
}

/**
 * What the meter sees while listening: both edges of the appliance (TWO), those plus another
 * appliance switching on meanwhile (MORE), only the switch-on (LESS), or nothing (NONE).
 */
export type TeachScene = 'TWO' | 'MORE' | 'LESS' | 'NONE';

/** A taught appliance: its phase and power. */
interface Taught {
  phase: SimEdge['phase'];
  powerW: number;
}

/** NILM state of one meter. */
export function createNilm(seed: number, sceneOf: (name: string) => TeachScene = () => 'TWO') {
  let teaching: { name: string; startSec: number } | null = null;
  const forgotten = new Set<string>();
  const taught = new Map<string, Taught>();
  const settings = { process: true, autoLearn: true };

  /** The appliance the household switches for a name: power and phase stable per name. */
  const applianceOf = (name: string): Taught => {
    const k = seedOf(name.toLowerCase());
    const phases = ['L1', 'L2', 'L3'] as const;
    return {
      phase: phases[Math.floor(hash01(seed ^ 0x4e11, k) * 3)]!,
      powerW: Math.round(200 + 2300 * hash01(seed ^ 0x7ea0, k)),
    };
  };

  return {
    settings,
    /** Whether NILM events of this appliance are reported. */
    reports: (name: string): boolean => settings.process && !forgotten.has(name),
    startTeaching(name: string, nowSec: number): void {
      teaching = { name, startSec: nowSec };
      forgotten.delete(name);
    },
    /**
     * Ends listening for `name`: the edges seen, and the run of the appliance when it was
     * learned (two edges); null when the meter was not listening for that name.
     */
    stopTeaching(
      name: string,
      nowSec: number,
    ): {
      edges: SimEdge[];
      run: { phase: SimEdge['phase']; powerW: number; runtimeSec: number } | null;
    } | null {
      if (!teaching || teaching.name !== name) return null;
      const runtimeSec = Math.max(1, nowSec - teaching.startSec);
      teaching = null;
      const a = applianceOf(name);
      const on = { phase: a.phase, deltaW: a.powerW };
      const off = { phase: a.phase, deltaW: -a.powerW };
      switch (sceneOf(name)) {
        case 'TWO':
          taught.set(name, a);
          return { edges: [on, off], run: { ...a, runtimeSec } };
        case 'MORE':
          return { edges: [on, { phase: 'L1', deltaW: 2000 }, off], run: null };
        case 'LESS':
          return { edges: [on], run: null };
        case 'NONE':
          return { edges: [], run: null };
      }
    },
    /** Drops the imprint, or the whole appliance (its events are no longer reported). */
    forget(name: string, imprintOnly: boolean): void {
      taught.delete(name);
      if (!imprintOnly) forgotten.add(name);
    },
    isTaught: (name: string): boolean => taught.has(name),
  };
}
/** NILM state of one meter. */
export type SimNilm = ReturnType<typeof createNilm>;
