// Accuracy tests of the precision device: the meter under test counts pulses while the device
// integrates the reference energy, and the result carries the reference values it measured.
import type { MeterRecord, MeterTestResult } from '@meterportal/protocol';
import type { Instant } from './model';
import { hash01 } from './noise';

const PHASES = ['L1', 'L2', 'L3'] as const;
const RAD = Math.PI / 180;
const round = (v: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(v * f) / f;
};
/** Angle in [0, 360). */
const deg360 = (a: number) => ((a % 360) + 360) % 360;
/** Angle in (-180, 180]. */
const deg180 = (a: number) => {
  const w = deg360(a);
  return w > 180 ? w - 360 : w;
};
const num = (v: string | number | undefined, fallback: number) => {
  const n = typeof v === 'number' ? v : Number(v);
  return v === undefined || v === '' || !Number.isFinite(n) ? fallback : n;
};

/** What one accuracy test is built from. */
export interface AccuTestInput {
  /** The meter under test, as the device's database holds it. */
  meter: MeterRecord;
  /** The device's live values at the end of the test (the reference). */
  instant: Instant;
  /** End of the test, unix seconds; the result's MTIME. */
  tsSec: number;
  /** Integration time, s. */
  intTimeSec: number;
  /** Stable number of the device (its profile seed), so a test can be repeated exactly. */
  seed: number;
}

/** Accuracy class of a meter in %, from its CLASS field (1 when missing). */
export function meterClassPct(meter: MeterRecord): number {
  const c = num(meter.CLASS, 1);
  return c > 0 ? c : 1;
}

/**
 * The result of one accuracy test: reference voltages, currents and angles as the device measures
 * them, powers and energies over the integration time derived from them, and the meter's error,
 * which stays within its accuracy class.
 */
export function buildTestResult(input: AccuTestInput): MeterTestResult {
  const { meter, instant: s, tsSec, intTimeSec, seed } = input;
  const r = (k: number) => hash01(seed ^ 0xacc, tsSec * 16 + k);
  const classPct = meterClassPct(meter);
  const out: Record<string, number | string> = {
    IDN: meter.IDN,
    MTIME: tsSec,
    // Most meters sit well inside their class; the spread is a fraction of it.
    ERROR: round(classPct * 0.7 * (2 * r(1) - 1), 3),
    METERSTDEV: round(classPct * (0.01 + 0.04 * r(2)), 4),
    TESTSAMPLES: 10 + Math.floor(11 * r(3)),
    INTTIME: intTimeSec,
    MENERGYTYPE: num(meter.MENERGYTYPE, 0),
    ELM_OUTPUT_TYPE: num(meter.ELM_OUTPUT_TYPE, 0),
    METERCONST: num(meter.CONSTANT, 1000),
    CONTYPE: num(meter.CONTYPE, 0),
    MFREQ: round(s.F, 3),
  };
  let p = 0;
  let q = 0;
  let sa = 0;
  PHASES.forEach((ph, i) => {
    const n = i + 1;
    const u = s.U[ph];
    const cur = s.I[ph];
    const angU = deg360(s.F_U[ph]);
    const angI = deg360(s.F_I[ph]);
    // PH is the current's angle minus the voltage's: negative while the current lags (inductive).
    const phi = cur === 0 ? 0 : deg180(angI - angU);
    const pw = u * cur * Math.cos(phi * RAD);
    const qw = -u * cur * Math.sin(phi * RAD);
    const sw = u * cur;
    out[`MCHNLA${n}`] = round(u, 3);
    out[`MCHNLB${n}`] = round(cur, 4);
    out[`MPHA${n}`] = round(angU, 2);
    out[`MPHB${n}`] = round(angI, 2);
    out[`PH${n}`] = round(phi, 2);
    out[`MPOWFACT${n}`] = round(sw === 0 ? 0 : pw / sw, 4);
    out[`DFA${n}`] = round(s.DF_U[ph], 3);
    out[`DFB${n}`] = round(s.DF_I[ph], 3);
    out[`UPP${n}`] = round(s.U_PP[ph], 3);
    out[`MPOWER${n}`] = round(pw, 3);
    out[`MQPOWER${n}`] = round(qw, 3);
    out[`MSPOWER${n}`] = round(sw, 3);
    out[`MENERGY${n}`] = round((pw * intTimeSec) / 3600, 5);
    out[`MQENERGY${n}`] = round((qw * intTimeSec) / 3600, 5);
    out[`MSENERGY${n}`] = round((sw * intTimeSec) / 3600, 5);
    p += pw;
    q += qw;
    sa += sw;
  });
  out.MPOWERSUM = round(p, 3);
  out.MQPOWERSUM = round(q, 3);
  out.MSPOWERSUM = round(sa, 3);
  out.MENERGYSUM = round((p * intTimeSec) / 3600, 5);
  out.MQENERGYSUM = round((q * intTimeSec) / 3600, 5);
  out.MSENERGYSUM = round((sa * intTimeSec) / 3600, 5);
  // Maximum demand over 15-minute windows since the start of the month: above the present load.
  const peak = 1.1 + 0.3 * r(4);
  const monthStart = new Date(tsSec * 1000);
  out.MDPERIOD = 900;
  out.MDSUBPERIODS = 15;
  out.MDLASTRESET = Date.UTC(monthStart.getUTCFullYear(), monthStart.getUTCMonth(), 1) / 1000;
  out.MDSLIDP = round(Math.abs(p) * peak, 1);
  out.MDSLIDQ = round(Math.abs(q) * peak, 1);
  out.MDSLIDS = round(sa * peak, 1);
  out.MDFIXP = round(Math.abs(p) * peak * 0.97, 1);
  out.MDFIXQ = round(Math.abs(q) * peak * 0.97, 1);
  out.MDFIXS = round(sa * peak * 0.97, 1);
  return out as MeterTestResult;
}
