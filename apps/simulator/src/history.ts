// Past measurements of a simulated meter, computed from the same model as its live frames, for
// the history backfill. Coarse steps keep a year of data per meter well under a second.
import { REGISTER_KINDS, type PhaseRegisters, type RegisterKind } from '@meterportal/protocol';
import { createMeterModel, type Instant } from './model';
import { isOutage, outageOf } from './outages';
import { meterProfile } from './profiles';
import { createRegisters } from './registers';
import type { DeviceTypeId } from '@meterportal/protocol';

/** Energy of one quarter-hour per register kind and phase, whole Wh / varh / VAh. */
export interface QuarterEnergy {
  startSec: number;
  energy: Record<RegisterKind, PhaseRegisters>;
}

/** Integration step inside a quarter, seconds (midpoint rule). */
const STEP_SEC = 300;
/** Samples per minute for the minute profiles (their average, min and max). */
const SAMPLES_PER_MINUTE = 4;

/** Past data of one meter. */
export function createHistory(type: DeviceTypeId, mac: string, phases?: 1 | 2 | 3) {
  const profile = meterProfile(type, mac, phases);
  const model = createMeterModel(profile);
  return {
    /**
     * Quarter-hour energies from fromSec to toSec (both on quarter boundaries). Each is the
     * difference of whole-unit registers, so they add up exactly like a real meter's.
     */
    *quarters(fromSec: number, toSec: number): Generator<QuarterEnergy> {
      const regs = createRegisters(profile.seed);
      let prev = regs.read();
      for (let q = fromSec; q < toSec; q += 900) {
        for (let t = q + STEP_SEC / 2; t < q + 900; t += STEP_SEC) {
          if (!isOutage(profile.seed, t)) regs.integrate(model.sample(t, undefined, true), STEP_SEC);
        }
        const now = regs.read();
        const energy = {} as Record<RegisterKind, PhaseRegisters>;
        for (const k of REGISTER_KINDS) {
          energy[k] = { L1: now[k].L1 - prev[k].L1, L2: now[k].L2 - prev[k].L2, L3: now[k].L3 - prev[k].L3 };
        }
        prev = now;
        yield { startSec: q, energy };
      }
    },
    /** Power cuts that start in [fromSec, toSec), in order, as unix-second intervals. */
    outages(fromSec: number, toSec: number): { fromSec: number; toSec: number }[] {
      const out: { fromSec: number; toSec: number }[] = [];
      for (let day = Math.floor(fromSec / 86400); day * 86400 < toSec; day++) {
        const o = outageOf(profile.seed, day);
        if (o && o.fromSec >= fromSec && o.fromSec < toSec) out.push(o);
      }
      return out;
    },
    /** Samples of one minute (empty during a power cut). */
    minute(minuteStartSec: number): Instant[] {
      const out: Instant[] = [];
      for (let i = 0; i < SAMPLES_PER_MINUTE; i++) {
        const t = minuteStartSec + Math.floor(((i + 0.5) * 60) / SAMPLES_PER_MINUTE);
        if (!isOutage(profile.seed, t)) out.push(model.sample(t));
      }
      return out;
    },
  };
}
