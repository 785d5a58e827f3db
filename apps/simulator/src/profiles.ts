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

function typeProfile(type: DeviceTypeId, mac: string): MeterProfile {
  const seed = seedOf(mac);
  const r = (k: number) => hash01(seed, 1000 + k);
  switch (type) {
    case 1:
      return {
        type,
        seed,
        phases: 3,
        loadW: 350 + 300 * r(1),
        shape: 'household',
        pvPeakW: r(2) < 0.5 ? 4000 + 6000 * r(3) : 0,
        pf: 0.93,
        thdIPct: 12,
        capacitiveBelow: 0.45,
        jitter: 0.12,
        fw: '2.4.1',
        model: 'EM-S1',
      };
    case 2:
      return {
        type,
        seed,
        phases: 3,
        loadW: 400 + 300 * r(1),
        shape: 'household',
        pvPeakW: 0,
        pf: 0.95,
        thdIPct: 10,
        capacitiveBelow: 0.3,
        jitter: 0.12,
        fw: '1.9.0',
        model: 'EM-D2',
      };
    case 3:
      return {
        type,
        seed,
        phases: 3,
        loadW: 3000 + 2000 * r(1),
        shape: 'business',
        pvPeakW: 0,
        pf: 0.9,
        thdIPct: 6,
        capacitiveBelow: 0,
        jitter: 0.04,
        fw: '3.1.2',
        model: 'AP-3 Precision',
      };
    case 4:
      return {
        type,
        seed,
        phases: 3,
        loadW: 12000 + 10000 * r(1),
        shape: 'business',
        pvPeakW: 30000 + 30000 * r(2),
        pf: 0.86,
        thdIPct: 8,
        capacitiveBelow: 0,
        jitter: 0.08,
        fw: '1.2.7',
        model: 'EM-I4',
      };
    case 5:
      return {
        type,
        seed,
        phases: 1,
        loadW: 120 + 200 * r(1),
        shape: 'plug',
        pvPeakW: 0,
        pf: 0.97,
        thdIPct: 25,
        capacitiveBelow: 0.6,
        jitter: 0.2,
        fw: '1.0.4',
        model: 'EM-P5',
      };
    case 6:
      return {
        type,
        seed,
        phases: 3,
        loadW: 1500 + 1500 * r(1),
        shape: 'business',
        pvPeakW: r(2) < 0.5 ? 10000 : 0,
        pf: 0.92,
        thdIPct: 15,
        capacitiveBelow: 0.35,
        jitter: 0.08,
        fw: '2.0.3',
        model: 'EM-M6',
      };
  }
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
