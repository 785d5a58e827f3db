import { describe, expect, it } from 'vitest';
import { LiveFrame, DEVICE_TYPES } from '@meterportal/protocol';
import { createMeterModel } from './model';
import { meterProfile } from './profiles';
import { createRegisters } from './registers';

const NOON_JUNE = Date.UTC(2026, 5, 17, 11, 0, 0) / 1000; // 12:00 local
const MIDNIGHT = Date.UTC(2026, 5, 17, 23, 0, 0) / 1000;

function rms(xs: number[]) {
  return Math.sqrt(xs.reduce((s, x) => s + x * x, 0) / xs.length);
}
// Amplitude of harmonic h of one period of samples (plain DFT).
function harmonicAmp(xs: number[], h: number) {
  let re = 0;
  let im = 0;
  xs.forEach((x, n) => {
    re += x * Math.cos((2 * Math.PI * h * n) / xs.length);
    im += x * Math.sin((2 * Math.PI * h * n) / xs.length);
  });
  return (2 * Math.hypot(re, im)) / xs.length;
}

describe('meter model', () => {
  it.each(DEVICE_TYPES.map((t) => [t]))('gives a frame the contract accepts for type %i', (type) => {
    const m = createMeterModel(meterProfile(type, `AB-00-11-22-33-44-0${type}`));
    const r = createRegisters(1);
    for (const ts of [NOON_JUNE, MIDNIGHT]) {
      const frame = { ts, ...m.sample(ts), ...r.read() };
      expect(LiveFrame.safeParse(frame).success).toBe(true);
    }
  });

  it('keeps mains near 230 V / 50 Hz with phases 120 degrees apart', () => {
    const m = createMeterModel(meterProfile(4, 'AB-00-11-22-33-44-55'));
    for (let ts = MIDNIGHT; ts < MIDNIGHT + 86400; ts += 977) {
      const s = m.sample(ts);
      for (const ph of ['L1', 'L2', 'L3'] as const) expect(Math.abs(s.U[ph] - 230)).toBeLessThan(10);
      expect(Math.abs(s.F - 50)).toBeLessThan(0.06);
      expect(Math.abs(s.F_U.L2 - -120)).toBeLessThan(1);
      expect(Math.abs(s.F_U.L3 - 120)).toBeLessThan(1);
      expect(s.U_PP.L1 / s.U.L1).toBeGreaterThan(1.68);
      expect(s.U_PP.L1 / s.U.L1).toBeLessThan(1.78);
    }
  });

  it('keeps S^2 >= P^2 + Q^2, PF = P/S and the current angle on the side of the quadrant', () => {
    const m = createMeterModel(meterProfile(4, 'AB-00-11-22-33-44-56'));
    let exported = false;
    const saturdayNoon = NOON_JUNE + 3 * 86400;
    for (let ts = saturdayNoon - 6 * 3600; ts < saturdayNoon + 6 * 3600; ts += 613) {
      const s = m.sample(ts);
      for (const ph of ['L1', 'L2', 'L3'] as const) {
        expect(s.S[ph] ** 2).toBeGreaterThanOrEqual(s.P[ph] ** 2 + s.Q[ph] ** 2 - 1);
        expect(s.PF[ph]).toBeCloseTo(s.P[ph] / s.S[ph], 2);
        const phi = s.F_U[ph] - s.F_I[ph];
        expect(Math.sign(Math.sin((phi * Math.PI) / 180))).toBe(Math.sign(s.Q[ph]));
        expect(Math.sign(Math.cos((phi * Math.PI) / 180))).toBe(Math.sign(s.P[ph]));
        if (s.P[ph] < 0) exported = true;
      }
    }
    expect(exported).toBe(true);
  });

  it('exports only in daylight', () => {
    const m = createMeterModel(meterProfile(4, 'AB-00-11-22-33-44-57'));
    for (let ts = MIDNIGHT - 2 * 3600; ts < MIDNIGHT + 2 * 3600; ts += 301)
      expect(m.sample(ts).P.L1).toBeGreaterThan(0);
  });

  it('draws a waveform whose rms and THD match the frame and the harmonics answer', () => {
    const m = createMeterModel(meterProfile(1, 'AB-00-11-22-33-44-58'));
    const s = m.sample(NOON_JUNE);
    const w = m.waveform(NOON_JUNE);
    const h = m.harmonics(NOON_JUNE);
    for (const [kind, q, df] of [
      ['U', s.U, s.DF_U],
      ['I', s.I, s.DF_I],
    ] as const) {
      const xs = w[kind].L2.values;
      expect(rms(xs)).toBeCloseTo(q.L2, 0);
      const a1 = harmonicAmp(xs, 1);
      const thd =
        (100 * Math.sqrt([...Array(39).keys()].reduce((acc, k) => acc + harmonicAmp(xs, k + 2) ** 2, 0))) /
        a1;
      expect(thd).toBeCloseTo(df.L2, 0);
      expect(h[kind].L2.values[0]).toBe(100);
      expect((harmonicAmp(xs, 5) / a1) * 100).toBeCloseTo(h[kind].L2.values[4]!, 0);
    }
  });

  it('integrates registers exactly from the reported power', () => {
    const m = createMeterModel(meterProfile(6, 'AB-00-11-22-33-44-59'));
    const r = createRegisters(7);
    const before = r.read();
    let importWh = 0;
    for (let ts = NOON_JUNE; ts < NOON_JUNE + 3600; ts++) {
      const s = m.sample(ts);
      r.integrate(s, 1);
      importWh += Math.max(0, s.P.L1) / 3600;
    }
    const after = r.read();
    expect(Math.abs(after.E_I.L1 - before.E_I.L1 - importWh)).toBeLessThanOrEqual(1);
    expect(after.Q_E.L1 - before.Q_E.L1).toBeGreaterThan(0);
  });

  it('runs NILM appliances only on type 1 and shows them in the load', () => {
    const m = createMeterModel(meterProfile(1, 'AB-00-11-22-33-44-60'));
    const day = Math.floor(NOON_JUNE / 86400) * 86400;
    const edges = m.appliances!.edgesBetween(day, day + 86400);
    expect(edges.some((e) => e.run.name === 'Fridge' && e.event === 'ON')).toBe(true);
    const big = edges.find((e) => e.event === 'ON' && e.run.powerW >= 1500);
    expect(big).toBeDefined();
    const during = m.sample(big!.run.startSec + 30)['P'][big!.run.phase];
    const before = m.sample(big!.run.startSec - 30)['P'][big!.run.phase];
    expect(during - before).toBeGreaterThan(1000);
    expect(createMeterModel(meterProfile(2, 'AB-00-11-22-33-44-61')).appliances).toBeNull();
  });
});

describe('energy registers', () => {
  it('start and stay physically consistent: apparent at least active and reactive, quadrants summing to Q_E', () => {
    for (const seed of [1, 7, 42, 1234, 99999]) {
      const profile = meterProfile(1, `02-4D-50-00-00-${String(seed % 90).padStart(2, '0')}`);
      const model = createMeterModel(profile);
      const r = createRegisters(seed);
      const check = () => {
        const v = r.read();
        for (const ph of ['L1', 'L2', 'L3'] as const) {
          expect(v.S_E[ph]).toBeGreaterThanOrEqual(v.E_I[ph] + v.E_E[ph] - 1);
          expect(v.S_E[ph]).toBeGreaterThanOrEqual(v.Q_E[ph] - 1);
          expect(v.E_I[ph]).toBeGreaterThan(v.E_E[ph]);
          expect(Math.abs(v.Q1[ph] + v.Q2[ph] + v.Q3[ph] + v.Q4[ph] - v.Q_E[ph])).toBeLessThanOrEqual(4);
        }
      };
      check();
      for (let t = 0; t < 86400; t += 60) r.integrate(model.sample(1_780_000_000 + t, undefined, true), 60);
      check();
    }
  });
});
