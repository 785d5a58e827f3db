// A planted power-quality week for an analyzer: its ordinary supply with a long three-phase
// voltage sag and two days of high voltage distortion, so an EN 50160 assessment has a week that
// must fail beside the ordinary weeks that pass.
import { createMeterModel, type Instant } from './model';
import { createHistory } from './history';
import { isOutage } from './outages';
import { meterProfile } from './profiles';

/** The planted disturbances, as offsets from the week's start (its Monday 00:00 local). */
export const PLANTED_SAG = {
  /** Wednesday 08:00 to 20:00: twelve hours, 72 of the week's 10-minute intervals (7.1 %). */
  fromSec: 2 * 86400 + 8 * 3600,
  toSec: 2 * 86400 + 20 * 3600,
  /** The supply falls to 80 % on every phase (184 V of 230 V: below -15 %). */
  factor: 0.8,
};
export const PLANTED_DISTORTION = {
  /** Thursday 00:00 to Saturday 00:00: 288 intervals (28.6 %). */
  fromSec: 3 * 86400,
  toSec: 5 * 86400,
  /** Voltage THD on every phase, % (the standard allows 8 %). */
  thdPct: 9.5,
};

/** An instant with the week's planted disturbances applied; tSec is its minute, weekFromSec the week's start. */
export function withPlantedDisturbance(s: Instant, tSec: number, weekFromSec: number): Instant {
  const at = tSec - weekFromSec;
  const sag = at >= PLANTED_SAG.fromSec && at < PLANTED_SAG.toSec;
  const distorted = at >= PLANTED_DISTORTION.fromSec && at < PLANTED_DISTORTION.toSec;
  if (!sag && !distorted) return s;
  const scale = (v: Instant['U'], k: number) => ({ L1: v.L1 * k, L2: v.L2 * k, L3: v.L3 * k });
  const k = sag ? PLANTED_SAG.factor : 1;
  const thd = PLANTED_DISTORTION.thdPct;
  return {
    ...s,
    U: scale(s.U, k),
    U_PP: scale(s.U_PP, k),
    I: scale(s.I, k),
    P: scale(s.P, k * k),
    Q: scale(s.Q, k * k),
    S: scale(s.S, k * k),
    DF_U: distorted ? { L1: thd, L2: thd, L3: thd } : s.DF_U,
  };
}

/**
 * The minute samples of an analyzer over [fromSec, toSec), minute by minute (no samples during a
 * power cut), with the planted disturbances when plantedWeekFromSec is given.
 */
export function* analyzerMinutes(
  mac: string,
  fromSec: number,
  toSec: number,
  plantedWeekFromSec?: number,
): Generator<{ minuteSec: number; samples: Instant[] }> {
  const history = createHistory(3, mac, 3);
  for (let m = fromSec - (fromSec % 60); m < toSec; m += 60) {
    const samples = history.minute(m);
    yield {
      minuteSec: m,
      samples:
        plantedWeekFromSec === undefined
          ? samples
          : samples.map((s) => withPlantedDisturbance(s, m, plantedWeekFromSec)),
    };
  }
}

/** A 10-minute interval, seconds. */
const INTERVAL_SEC = 600;

/**
 * The voltage spectrum an analyzer answers in the middle of each 10-minute interval of
 * [fromSec, toSec) (none during a power cut), % of the fundamental with values[0] the
 * fundamental, as the harmonics command answers it; in the planted week's distorted days the
 * spectrum carries the planted THD, so its 5th order rises above 6 %.
 */
export function* analyzerSpectra(
  mac: string,
  fromSec: number,
  toSec: number,
  plantedWeekFromSec?: number,
): Generator<{ intervalSec: number; U: { L1: number[]; L2: number[]; L3: number[] } }> {
  const profile = meterProfile(3, mac, 3);
  const model = createMeterModel(profile);
  for (let iv = fromSec - (fromSec % INTERVAL_SEC); iv < toSec; iv += INTERVAL_SEC) {
    const t = iv + INTERVAL_SEC / 2;
    if (isOutage(profile.seed, t)) continue;
    const s = model.sample(t);
    const { U } = model.harmonicsOf(
      plantedWeekFromSec === undefined ? s : withPlantedDisturbance(s, t, plantedWeekFromSec),
    );
    yield { intervalSec: iv, U: { L1: U.L1.values, L2: U.L2.values, L3: U.L3.values } };
  }
}
