// Cumulative energy registers: the exact integral of the power the meter reports, split by
// direction and reactive quadrant (IEC 62053-23: Q1 import/inductive, Q2 export/inductive,
// Q3 export/capacitive, Q4 import/capacitive).
import {
  REGISTER_KINDS,
  type MeasuredLiveFrame,
  type PhaseRegisters,
  type RegisterKind,
} from '@meterportal/protocol';
import { hash01 } from './noise';
import type { Instant } from './model';

const PHASES = ['L1', 'L2', 'L3'] as const;

/** Energy counters of one meter, kept in exact fractional Wh and reported as whole units. */
export function createRegisters(seed: number) {
  // A meter in service has counted for years already; start from a believable reading whose
  // registers agree with each other: mostly import at a power factor near 0.9, a little export,
  // reactive split over the quadrants, and apparent energy at least as large as either.
  const acc = Object.fromEntries(REGISTER_KINDS.map((k) => [k, [0, 0, 0]])) as Record<RegisterKind, number[]>;
  PHASES.forEach((_, p) => {
    const imported = 2e5 + hash01(seed, 700 + p) * 3e6;
    const exported = imported * 0.03 * hash01(seed, 710 + p);
    acc.E_I[p] = imported;
    acc.E_E[p] = exported;
    acc.Q1[p] = imported * (0.4 + 0.1 * hash01(seed, 720 + p));
    acc.Q4[p] = imported * 0.05;
    acc.Q2[p] = exported * 0.1;
    acc.Q3[p] = exported * 0.05;
    acc.Q_E[p] = acc.Q1[p] + acc.Q2[p] + acc.Q3[p] + acc.Q4[p];
    acc.S_E[p] = Math.hypot(imported + exported, acc.Q_E[p]) * 1.01;
  });

  return {
    /** Adds dtSec of the given (constant) powers. */
    integrate(s: Instant, dtSec: number): void {
      const h = dtSec / 3600;
      PHASES.forEach((ph, p) => {
        const P = s.P[ph];
        const Q = s.Q[ph];
        if (P >= 0) acc.E_I[p]! += P * h;
        else acc.E_E[p]! -= P * h;
        const quadrant = P >= 0 ? (Q >= 0 ? acc.Q1 : acc.Q4) : Q >= 0 ? acc.Q2 : acc.Q3;
        quadrant[p]! += Math.abs(Q) * h;
        acc.Q_E[p]! += Math.abs(Q) * h;
        acc.S_E[p]! += s.S[ph] * h;
      });
    },
    /** Whole-unit readings, as the meter shows them. */
    read(): Pick<MeasuredLiveFrame, RegisterKind> {
      const out = {} as Record<RegisterKind, PhaseRegisters>;
      for (const k of REGISTER_KINDS) {
        const v = acc[k];
        out[k] = { L1: Math.floor(v[0]!), L2: Math.floor(v[1]!), L3: Math.floor(v[2]!) };
      }
      return out;
    },
  };
}

/** Energy counters of one meter. */
export type Registers = ReturnType<typeof createRegisters>;
