// What each device type measures: its size, load shape, power factor, distortion and solar.
import type { DeviceTypeId } from '@meterportal/protocol';
import { hash01, seedOf } from './noise';

/** Static character of one simulated meter, derived from its type and mac. */
export interface MeterProfile {
  type: DeviceTypeId;
  seed: number;
  /** Phases wired (1 to 3); unwired phases report 0. */
  phases: 1 | 2 | 3;
  /** Average load per phase at the daily mean, W. */
  loadW: number;
  /** Shape of the day: households peak morning and evening, businesses run office hours. */
  shape: 'household' | 'business' | 'plug';
  /** Solar inverter peak (all phases together), W; 0 without solar. */
  pvPeakW: number;
  /** Power factor of the load at full load (inductive). */
  pf: number;
  /** Current distortion of the load at full load, % THD. */
  thdIPct: number;
  /** Light loads of electronics turn capacitive (quadrant 4) below this share of loadW. */
  capacitiveBelow: number;
  /** Relative random variation of the load. */
  jitter: number;
  /** Firmware version reported on connect. */
  fw: string;
  /** Model name reported in the state message. */
  model: string;
}

/** Builds the profile of a device of the given type and mac; `phases` overrides the type's wiring. */
export function meterProfile(type: DeviceTypeId, mac: string, phases?: 1 | 2 | 3): MeterProfile {
  const base = typeProfile(type, mac);
  return phases ? { ...base, phases } : base;
}

type TypeTraits = [
  phases: MeterProfile['phases'],
  shape: MeterProfile['shape'],
  pf: number,
  thdIPct: number,
  capacitiveBelow: number,
  jitter: number,
  fw: string,
  model: string,
  baseLoadW: number,
  loadSpreadW: number,
];

/** Each type's fixed character; its load is baseLoadW plus a share of loadSpreadW drawn from the mac. */
const TYPE_TRAITS: Record<DeviceTypeId, TypeTraits> = {
  1: [3, 'household', 0.93, 12, 0.45, 0.12, '2.4.1', 'EM-S1', 350, 300],
  2: [3, 'household', 0.95, 10, 0.3, 0.12, '1.9.0', 'EM-D2', 400, 300],
  3: [3, 'business', 0.9, 6, 0, 0.04, '3.1.2', 'AP-3 Precision', 3000, 2000],
  4: [3, 'business', 0.86, 8, 0, 0.08, '1.2.7', 'EM-I4', 12000, 10000],
  5: [1, 'plug', 0.97, 25, 0.6, 0.2, '1.0.4', 'EM-P5', 120, 200],
  6: [3, 'business', 0.92, 15, 0.35, 0.08, '2.0.3', 'EM-M6', 1500, 1500],
};

/** Solar peak by type: half of the households and sub-meters have panels, every industrial site has. */
function pvPeakW(type: DeviceTypeId, r: (k: number) => number): number {
  switch (type) {
    case 1:
      return r(2) < 0.5 ? 4000 + 6000 * r(3) : 0;
    case 4:
      return 30000 + 30000 * r(2);
    case 6:
      return r(2) < 0.5 ? 10000 : 0;
    case 2:
    case 3:
    case 5:
      return 0;
  }
}

function typeProfile(type: DeviceTypeId, mac: string): MeterProfile {
  const seed = seedOf(mac);
  const r = (k: number) => hash01(seed, 1000 + k);
  const [phases, shape, pf, thdIPct, capacitiveBelow, jitter, fw, model, baseLoadW, loadSpreadW] =
    TYPE_TRAITS[type];
  const loadW = baseLoadW + loadSpreadW * r(1);
  return {
    type,
    seed,
    phases,
    loadW,
    shape,
    pvPeakW: pvPeakW(type, r),
    pf,
    thdIPct,
    capacitiveBelow,
    jitter,
    fw,
    model,
  };
}

const gauss = (x: number, mu: number, sigma: number) => Math.exp(-((x - mu) ** 2) / (2 * sigma * sigma));

/** Installation local hour (0..24) and weekday (0 Sunday); Central European time, DST ignored. */
export function localTime(tsSec: number): { hour: number; weekday: number; dayOfYear: number } {
  const local = tsSec + 3600;
  const day = Math.floor(local / 86400);
  return {
    hour: (local - day * 86400) / 3600,
    weekday: (day + 4) % 7,
    dayOfYear: Math.floor((((local / 86400) % 365.2425) + 365.2425) % 365.2425),
  };
}

/** Load relative to the daily mean (about 0.2 to 2.5) by shape, hour and weekday. */
export function loadShape(shape: MeterProfile['shape'], hour: number, weekday: number): number {
  const weekend = weekday === 0 || weekday === 6;
  switch (shape) {
    case 'household':
      return weekend
        ? 0.4 + 0.8 * gauss(hour, 10, 1.8) + 0.6 * gauss(hour, 13.5, 1.5) + 1.3 * gauss(hour, 19.5, 2)
        : 0.35 + 0.9 * gauss(hour, 7, 0.9) + 0.25 * gauss(hour, 13, 2) + 1.5 * gauss(hour, 19.5, 1.8);
    case 'business': {
      if (weekend) return 0.3 + 0.1 * gauss(hour, 12, 3);
      const open = 1 / (1 + Math.exp(-(hour - 6.5) * 3)) - 1 / (1 + Math.exp(-(hour - 17.5) * 3));
      return 0.3 + 1.6 * open - 0.2 * gauss(hour, 12, 0.5);
    }
    case 'plug':
      return (
        0.3 +
        1.2 * gauss(hour, 8, 1) +
        1.8 * gauss(hour, 20.5, 1.5) +
        (weekend ? 0.5 * gauss(hour, 14, 2) : 0)
      );
  }
}

/** Clear-sky solar output relative to peak (0..1) at a local hour and day of year. */
export function solarShape(hour: number, dayOfYear: number): number {
  const summer = 0.5 + 0.5 * Math.cos((2 * Math.PI * (dayOfYear - 172)) / 365);
  const sunrise = 7.6 - 3.1 * summer;
  const sunset = 16.4 + 4.6 * summer;
  if (hour <= sunrise || hour >= sunset) return 0;
  return (0.3 + 0.7 * summer) * Math.sin((Math.PI * (hour - sunrise)) / (sunset - sunrise)) ** 1.3;
}
