// Electrical model of one meter: a pure function of time, so live frames, history and command
// answers (harmonics, waveform) all come from the same physics.
import type { LivePhaseQuantity, MeasuredLiveFrame, MeasuredPhaseValues } from '@meterportal/protocol';
import { createApplianceCalendar } from './appliances';
import { hash01, smoothNoise } from './noise';
import { loadShape, localTime, solarShape, type MeterProfile } from './profiles';

/** The instantaneous part of a live frame (everything but ts and the registers). */
export type Instant = Pick<MeasuredLiveFrame, LivePhaseQuantity | 'F'>;

/** Conditions the device itself controls. */
export interface ModelState {
  /** Load relay closed (type 2); an open relay carries no current. */
  relayClosed: boolean;
}

const PHASES = ['L1', 'L2', 'L3'] as const;
const DEG = 180 / Math.PI;
/** Voltage sag at the meter's mean load, V: the grid connection is sized for the site. */
const SAG_AT_MEAN_LOAD_V = 2.5;
/** Highest harmonic order reported. */
export const HARMONIC_ORDERS = 40;
/** Waveform samples per mains period. */
export const WAVEFORM_SAMPLES = 128;

const wrapDeg = (a: number) => {
  const w = ((((a + 180) % 360) + 360) % 360) - 180;
  return w === -180 ? 180 : w;
};
const round = (v: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(v * f) / f;
};

/** Relative harmonic amplitudes (order 1 = 1) with the given THD in %. */
export function spectrum(thdPct: number, kind: 'U' | 'I', seed: number): number[] {
  const w: number[] = [1];
  for (let h = 2; h <= HARMONIC_ORDERS; h++) {
    const odd = h % 2 === 1;
    // Rectifier loads: 3rd and 5th dominate currents; voltage distortion is mostly 5th and 7th.
    let a = odd ? h ** (kind === 'I' ? -1.3 : -1.6) : 0.02 * h ** -1.5;
    if (kind === 'U' && h === 3) a *= 0.4;
    if (kind === 'U' && (h === 5 || h === 7)) a *= 2;
    w.push(a * (0.85 + 0.3 * hash01(seed, h)));
  }
  const norm = Math.sqrt(w.slice(1).reduce((s, a) => s + a * a, 0));
  const k = thdPct / 100 / norm;
  return w.map((a, i) => (i === 0 ? 1 : a * k));
}

/** Builds the model of one meter. */
export function createMeterModel(profile: MeterProfile) {
  const { seed } = profile;
  const appliances = profile.type === 1 ? createApplianceCalendar(seed) : null;
  const imbalanceV = PHASES.map((_, i) => (hash01(seed, 10 + i) - 0.5) * 2);
  const phaseShare = PHASES.map((_, i) => 0.8 + 0.4 * hash01(seed, 20 + i));
  const nPhases = profile.phases;

  /** Solar output of the whole inverter, W. */
  function solarW(tsSec: number): number {
    if (profile.pvPeakW === 0) return 0;
    const { hour, dayOfYear } = localTime(tsSec);
    const clear = solarShape(hour, dayOfYear);
    if (clear === 0) return 0;
    // Clouds: slow weather (hours) times passing clouds (minutes).
    const weather = 0.55 + 0.45 * smoothNoise(seed ^ 0xc10d, tsSec / 10800);
    const passing = 1 - 0.35 * Math.max(0, smoothNoise(seed ^ 0xc1, tsSec / 240));
    return profile.pvPeakW * clear * Math.max(0.05, weather) * passing;
  }

  /**
   * Sample of every quantity at tsSec. `energyOnly` fills just P, Q and S (unrounded), which is
   * all the registers need; the history backfill uses it to stay fast.
   */
  function sample(tsSec: number, state: ModelState = { relayClosed: true }, energyOnly = false): Instant {
    const { hour, weekday } = localTime(tsSec);
    const shape = loadShape(profile.shape, hour, weekday);
    const pvPerPhaseW = solarW(tsSec) / nPhases;
    const active = appliances ? appliances.activeAt(tsSec) : [];
    const F = 50 + 0.035 * smoothNoise(seed ^ 0xf1, tsSec / 90) + 0.008 * smoothNoise(seed ^ 0xf2, tsSec / 7);
    const sourceV =
      231 + 2.5 * Math.sin((2 * Math.PI * (hour - 4)) / 24) + 1.5 * smoothNoise(0xabc, tsSec / 900);
    const out = {} as Record<LivePhaseQuantity, MeasuredPhaseValues>;
    for (const q of ['U', 'I', 'P', 'Q', 'S', 'PF', 'DF_U', 'DF_I', 'F_U', 'F_I', 'U_PP', 'F_UPP'] as const) {
      out[q] = { L1: 0, L2: 0, L3: 0 };
    }
    const phasors: { mag: number; angDeg: number }[] = [];
    PHASES.forEach((ph, i) => {
      if (i >= nPhases) {
        phasors.push({ mag: 0, angDeg: 0 });
        return;
      }
      const wander =
        1 +
        profile.jitter * smoothNoise(seed + i * 7919, tsSec / 180) +
        0.3 * profile.jitter * smoothNoise(seed + i * 31, tsSec / 11);
      let loadP = Math.max(15, profile.loadW * phaseShare[i]! * shape * wander);
      const lightShare = loadP / profile.loadW;
      // Inductive at full load; electronics make light loads capacitive on some meters.
      const pf = profile.pf + (1 - profile.pf) * Math.min(1, Math.max(0, lightShare - 0.5) * 0.3);
      let loadQ = loadP * Math.tan(Math.acos(pf)) * (lightShare < profile.capacitiveBelow ? -0.6 : 1);
      for (const run of active) {
        if (run.phase !== ph) continue;
        loadP += run.powerW;
        loadQ += run.powerW * Math.tan(Math.acos(run.pf));
      }
      // Inverters absorb a little reactive power at high output (volt-var), giving quadrant 3.
      let P = loadP - pvPerPhaseW;
      let Q = loadQ - 0.15 * pvPerPhaseW;
      if (!state.relayClosed) {
        P = 0;
        Q = 0;
      }
      const S1 = Math.hypot(P, Q);
      const U =
        sourceV +
        imbalanceV[i]! -
        Math.min(8, (SAG_AT_MEAN_LOAD_V * S1) / profile.loadW) +
        0.15 * smoothNoise(seed ^ (i + 99), tsSec / 3);
      const I1 = S1 / U;
      const thdI = S1 === 0 ? 0 : Math.min(80, profile.thdIPct * (1 + 1.5 * Math.exp(-lightShare)));
      const I = I1 * Math.sqrt(1 + (thdI / 100) ** 2);
      const S = U * I;
      if (energyOnly) {
        out.P[ph] = P;
        out.Q[ph] = Q;
        out.S[ph] = S;
        return;
      }
      const thdU =
        1.1 +
        1.3 * Math.max(0, Math.sin((2 * Math.PI * (hour - 13)) / 24)) +
        0.15 * smoothNoise(seed ^ 0xd0, tsSec / 300);
      const angU = wrapDeg(-120 * i + 0.4 * (hash01(seed, 30 + i) - 0.5));
      const phi = S1 === 0 ? 0 : Math.atan2(Q, P) * DEG;
      out.U[ph] = round(U, 3);
      out.I[ph] = round(I, 3);
      out.P[ph] = round(P, 2);
      out.Q[ph] = round(Q, 2);
      out.S[ph] = round(S, 2);
      out.PF[ph] = S === 0 ? 0 : round(P / S, 4);
      out.DF_U[ph] = round(thdU, 3);
      out.DF_I[ph] = round(thdI, 3);
      out.F_U[ph] = round(angU, 2);
      out.F_I[ph] = S1 === 0 ? 0 : round(wrapDeg(angU - phi), 2);
      phasors.push({ mag: U, angDeg: angU });
    });
    if (nPhases === 3 && !energyOnly) {
      PHASES.forEach((ph, i) => {
        const a = phasors[i]!;
        const b = phasors[(i + 1) % 3]!;
        const re = a.mag * Math.cos(a.angDeg / DEG) - b.mag * Math.cos(b.angDeg / DEG);
        const im = a.mag * Math.sin(a.angDeg / DEG) - b.mag * Math.sin(b.angDeg / DEG);
        out.U_PP[ph] = round(Math.hypot(re, im), 3);
        out.F_UPP[ph] = round(Math.atan2(im, re) * DEG, 2);
      });
    }
    return { ...out, F: round(F, 4) };
  }

  /** Harmonic amplitudes in % of the fundamental, consistent with DF_U and DF_I at tsSec. */
  function harmonics(tsSec: number, state?: ModelState) {
    return harmonicsOf(sample(tsSec, state));
  }

  /** Harmonic amplitudes in % of the fundamental of a sample, consistent with its DF_U and DF_I. */
  function harmonicsOf(s: Instant) {
    const per = (kind: 'U' | 'I') => {
      const thd = kind === 'U' ? s.DF_U : s.DF_I;
      const mk = (ph: 'L1' | 'L2' | 'L3', i: number) => ({
        values: spectrum(thd[ph], kind, seed + i).map((a) => round(a * 100, 3)),
      });
      return { L1: mk('L1', 0), L2: mk('L2', 1), L3: mk('L3', 2) };
    };
    return { U: per('U'), I: per('I') };
  }

  /** One mains period of voltage and current samples whose rms and THD match the frame at tsSec. */
  function waveform(tsSec: number, state?: ModelState) {
    const s = sample(tsSec, state);
    const per = (kind: 'U' | 'I') => {
      const mk = (ph: 'L1' | 'L2' | 'L3', i: number) => {
        const thd = kind === 'U' ? s.DF_U[ph] : s.DF_I[ph];
        const rms = kind === 'U' ? s.U[ph] : s.I[ph];
        const amps = spectrum(thd, kind, seed + i);
        // rms of the sum = fundamental rms * sqrt(1 + THD^2), so scale the fundamental down.
        const peak1 = (Math.SQRT2 * rms) / Math.sqrt(1 + (thd / 100) ** 2);
        const ang0 = ((kind === 'U' ? s.F_U[ph] : s.F_I[ph]) || 0) / DEG;
        const values: number[] = [];
        for (let n = 0; n < WAVEFORM_SAMPLES; n++) {
          const theta = (2 * Math.PI * n) / WAVEFORM_SAMPLES;
          let v = 0;
          amps.forEach((a, k) => {
            const h = k + 1;
            v += a * Math.sin(h * (theta + ang0) + (k === 0 ? 0 : 2 * Math.PI * hash01(seed + i, 500 + h)));
          });
          values.push(round(peak1 * v, 3));
        }
        return { values };
      };
      return { L1: mk('L1', 0), L2: mk('L2', 1), L3: mk('L3', 2) };
    };
    return { sampleRateHz: round(s.F * WAVEFORM_SAMPLES, 3), U: per('U'), I: per('I') };
  }

  return { profile, sample, harmonics, harmonicsOf, waveform, appliances, solarW };
}

/** A meter model. */
export type MeterModel = ReturnType<typeof createMeterModel>;
