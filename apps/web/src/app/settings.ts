import { DataSource, type DataSourceId } from '@meterportal/protocol';
import { SETTINGS_COOKIE_DAYS, getCookie, setCookie } from '../api/cookies';
import { ZERO_POSITIONS, type ZeroPosition } from '../features/precision/phasors';
import type { DateRange, Granularity } from '../features/telemetry/dateRanges';
import { createStore, useStore } from './store';

export type Language = 'en' | 'sk' | 'de';
export const LANGUAGES: readonly Language[] = ['en', 'sk', 'de'];
export type ThemeMode = 'light' | 'dark';
export type YAxisType = 'linear' | 'logarithmic';

/** Phase visibility flags of the charts (seed 000 section 3). */
export interface PhaseVisibility {
  L1: boolean;
  L2: boolean;
  L3: boolean;
  SUM: boolean;
  AVG: boolean;
  CUM: boolean;
}

/** Vector diagram settings (seed 001 section 3). */
export interface VectorSettings {
  zeroPosition: ZeroPosition;
  clockWiseDirection: boolean;
}

/** Remembered user settings, kept in the settings cookie for 30 days. */
export interface Settings {
  localization: Language;
  sideBarMax: boolean;
  phases: PhaseVisibility;
  ap_charts: Record<'L1_U' | 'L1_I' | 'L2_U' | 'L2_I' | 'L3_U' | 'L3_I', boolean>;
  yAxisType: YAxisType;
  theme: ThemeMode;
  dataSource: DataSourceId;
  ranges: Partial<Record<Granularity, DateRange>>;
  graphs: [number, number];
  vector: VectorSettings;
}

export const DEFAULT_SETTINGS: Settings = {
  localization: 'en',
  sideBarMax: true,
  phases: { L1: true, L2: true, L3: true, SUM: false, AVG: false, CUM: false },
  ap_charts: { L1_U: true, L1_I: true, L2_U: true, L2_I: true, L3_U: true, L3_I: true },
  yAxisType: 'linear',
  theme: 'light',
  dataSource: DataSource.WiFi,
  ranges: {},
  graphs: [3, 2],
  // Zero at 3 o'clock and counter-clockwise: the usual way phasors are drawn.
  vector: { zeroPosition: 90, clockWiseDirection: false },
};

const COOKIE = 'settings';

/** Merges a stored value over the defaults so that older cookies stay readable. */
export function parseSettings(raw: string | undefined): Settings {
  if (!raw) return DEFAULT_SETTINGS;
  try {
    const v = JSON.parse(raw) as Partial<Settings>;
    return {
      ...DEFAULT_SETTINGS,
      ...v,
      localization: LANGUAGES.includes(v.localization as Language) ? (v.localization as Language) : 'en',
      theme: v.theme === 'dark' ? 'dark' : 'light',
      yAxisType: v.yAxisType === 'logarithmic' ? 'logarithmic' : 'linear',
      dataSource: v.dataSource === DataSource.LoRa ? DataSource.LoRa : DataSource.WiFi,
      phases: { ...DEFAULT_SETTINGS.phases, ...v.phases },
      ap_charts: { ...DEFAULT_SETTINGS.ap_charts, ...v.ap_charts },
      ranges: { ...v.ranges },
      vector: {
        zeroPosition: ZERO_POSITIONS.includes(v.vector?.zeroPosition as ZeroPosition)
          ? (v.vector?.zeroPosition as ZeroPosition)
          : DEFAULT_SETTINGS.vector.zeroPosition,
        clockWiseDirection:
          typeof v.vector?.clockWiseDirection === 'boolean'
            ? v.vector.clockWiseDirection
            : DEFAULT_SETTINGS.vector.clockWiseDirection,
      },
    };
  } catch {
    return DEFAULT_SETTINGS;
  }
}

export const settingsStore = createStore<Settings>(parseSettings(getCookie(COOKIE)), (s) =>
  setCookie(COOKIE, JSON.stringify(s), SETTINGS_COOKIE_DAYS),
);

export function updateSettings(patch: Partial<Settings>): void {
  settingsStore.set((prev) => ({ ...prev, ...patch }));
}

export function useSettings<S>(selector: (s: Settings) => S): S {
  return useStore(settingsStore, selector);
}
