import { DeviceType, typeMeasures } from '@meterportal/protocol';
import type { Granularity } from './dateRanges';

/** Quantities of the profile call and of live messages (seed 000 sections 3 and 7). */
export type Quantity =
  'U' | 'I' | 'P' | 'Q' | 'S' | 'E_I' | 'E_E' | 'Q_E' | 'S_E' | 'F' | 'PF' | 'DF_U' | 'DF_I';

/** Menu label keys of the views (translation keys under `menu`). */
export type ViewTitle =
  | 'voltage'
  | 'current'
  | 'power_active'
  | 'power_reactive'
  | 'power_apparent'
  | 'energy_import'
  | 'energy_export'
  | 'energy_reactive'
  | 'energy_apparent'
  | 'frequency'
  | 'power_factor'
  | 'df_voltage'
  | 'df_current'
  | 'energy_15min_max'
  | 'energy_15min'
  | 'energy_hour'
  | 'energy_day'
  | 'energy_month'
  | 'energy_reactive_day';

interface BaseView {
  /** Path below /visualization/, exactly as the seed writes it. */
  path: string;
  title: ViewTitle;
  unit: string;
  /**
   * Divisor from the wire unit to the shown unit: live frames carry Wh registers (shown in kWh),
   * while the history calls already answer in kWh (kvarh) or kW.
   */
  divisor: number;
}

export interface RealtimeView extends BaseView {
  kind: 'realtime';
  quantity: Quantity;
  /** The seed's distortion-factor-of-voltage live view shows placeholder random values. */
  random?: boolean;
  /** Hidden from the menu but routable (the energy export real-time view). */
  hidden?: boolean;
}

export interface ProfileView extends BaseView {
  kind: 'profile';
  quantity: Quantity;
  cumulative: boolean;
  /** Whether the call carries the data source (absent for some). */
  withSource: boolean;
  /** The voltage profile always starts logarithmic. */
  startLogarithmic?: boolean;
}

export type EnergyPeriod = '15MIN' | 'HOUR' | 'DAY' | 'MONTH';

export interface EnergyView extends BaseView {
  kind: 'energy';
  data: 'E_I,E_E' | 'Q1,Q2,Q3,Q4';
  period: EnergyPeriod;
  maximum: boolean;
  granularity: Granularity;
  /** Series hidden when the view opens. */
  hiddenAtStart: readonly string[];
}

export type View = RealtimeView | ProfileView | EnergyView;

const rt = (
  path: string,
  title: ViewTitle,
  quantity: Quantity,
  unit: string,
  extra: Partial<RealtimeView> = {},
): RealtimeView => ({
  kind: 'realtime',
  path: `realtime/${path}`,
  title,
  quantity,
  unit,
  divisor: 1,
  ...extra,
});

const pf = (
  path: string,
  title: ViewTitle,
  quantity: Quantity,
  unit: string,
  extra: Partial<ProfileView> = {},
): ProfileView => ({
  kind: 'profile',
  path: `profile/${path}`,
  title,
  quantity,
  unit,
  divisor: 1,
  cumulative: true,
  withSource: true,
  ...extra,
});

const en = (
  path: string,
  title: ViewTitle,
  extra: Omit<EnergyView, 'kind' | 'path' | 'title'>,
): EnergyView => ({
  kind: 'energy',
  path: `energy/${path}`,
  title,
  ...extra,
});

export const REALTIME_VIEWS: readonly RealtimeView[] = [
  rt('voltage', 'voltage', 'U', 'V'),
  rt('current', 'current', 'I', 'A'),
  rt('power/active', 'power_active', 'P', 'W'),
  rt('power/reactive', 'power_reactive', 'Q', 'VAr'),
  rt('power/apparent', 'power_apparent', 'S', 'VA'),
  rt('energy/import', 'energy_import', 'E_I', 'kWh', { divisor: 1000 }),
  rt('energy/export', 'energy_export', 'E_E', 'kWh', { divisor: 1000, hidden: true }),
  rt('energy/reactive', 'energy_reactive', 'Q_E', 'kVArh', { divisor: 1000 }),
  rt('energy/apparent', 'energy_apparent', 'S_E', 'kVAh', { divisor: 1000 }),
  rt('frequency', 'frequency', 'F', 'Hz'),
  rt('power-factor', 'power_factor', 'PF', ''),
  rt('distortion-factor/voltage', 'df_voltage', 'DF_U', '%', { random: true }),
  rt('distortion-factor/current', 'df_current', 'DF_I', '%'),
];

export const PROFILE_VIEWS: readonly ProfileView[] = [
  pf('voltage', 'voltage', 'U', 'V', { startLogarithmic: true }),
  pf('current', 'current', 'I', 'A'),
  pf('power/active', 'power_active', 'P', 'W'),
  pf('power/reactive', 'power_reactive', 'Q', 'VAr'),
  pf('power/apparent', 'power_apparent', 'S', 'VA'),
  pf('energy/import', 'energy_import', 'E_I', 'kWh'),
  pf('energy/reactive', 'energy_reactive', 'Q_E', 'kVArh'),
  pf('energy/apparent', 'energy_apparent', 'S_E', 'kVAh'),
  pf('frequency', 'frequency', 'F', 'Hz', { cumulative: false }),
  pf('power-factor', 'power_factor', 'PF', '', { cumulative: false }),
  // The path spelling "distoration" is part of the contract.
  pf('distoration-factor/voltage', 'df_voltage', 'DF_U', '%', { cumulative: false, withSource: false }),
  pf('distoration-factor/current', 'df_current', 'DF_I', '%', { cumulative: false, withSource: false }),
];

export const ENERGY_VIEWS: readonly EnergyView[] = [
  en('active/15min/maximum', 'energy_15min_max', {
    data: 'E_I,E_E',
    period: '15MIN',
    maximum: true,
    granularity: 'day',
    unit: 'kW',
    divisor: 1,
    hiddenAtStart: ['E_E'],
  }),
  en('active/15min', 'energy_15min', {
    data: 'E_I,E_E',
    period: '15MIN',
    maximum: false,
    granularity: 'day',
    unit: 'kWh',
    divisor: 1,
    hiddenAtStart: [],
  }),
  en('active/hour', 'energy_hour', {
    data: 'E_I,E_E',
    period: 'HOUR',
    maximum: false,
    granularity: 'day',
    unit: 'kWh',
    divisor: 1,
    hiddenAtStart: [],
  }),
  en('active/day', 'energy_day', {
    data: 'E_I,E_E',
    period: 'DAY',
    maximum: false,
    granularity: 'week',
    unit: 'kWh',
    divisor: 1,
    hiddenAtStart: [],
  }),
  en('active/month', 'energy_month', {
    data: 'E_I,E_E',
    period: 'MONTH',
    maximum: false,
    granularity: 'year',
    unit: 'kWh',
    divisor: 1,
    hiddenAtStart: [],
  }),
  en('reactive/day', 'energy_reactive_day', {
    data: 'Q1,Q2,Q3,Q4',
    period: 'DAY',
    maximum: false,
    granularity: 'week',
    unit: 'kVArh',
    divisor: 1,
    hiddenAtStart: ['Q2', 'Q3'],
  }),
];

export const ALL_VIEWS: readonly View[] = [...REALTIME_VIEWS, ...PROFILE_VIEWS, ...ENERGY_VIEWS];

export const VISUALIZATION_BASE = '/visualization';
export const DEFAULT_VISUALIZATION_ROUTE = `${VISUALIZATION_BASE}/realtime/voltage`;

export function viewUrl(v: View): string {
  return `${VISUALIZATION_BASE}/${v.path}`;
}

/** The series of an energy view that a device type keeps registers for. */
export function energySeriesOf(view: EnergyView, type: number): string[] {
  return view.data
    .split(',')
    .filter((k) => typeMeasures(type, k.startsWith('Q') ? 'Q_E' : (k as 'E_I' | 'E_E')));
}

/**
 * Whether a device type has a view: the quantity of a real-time or profile view, and for an
 * energy view its first series (import, or the reactive quadrants).
 */
export function typeHasView(type: number, view: View): boolean {
  if (view.kind !== 'energy') return typeMeasures(type, view.quantity);
  return energySeriesOf(view, type)[0] === view.data.split(',')[0];
}

/** What decides a device's views: its type and, for a meter the portal adapts, what it reports. */
export interface MeasuringDevice {
  type: number;
  /** The quantities the device reports; absent: every one its type has. */
  quantities?: readonly string[] | undefined;
}

/**
 * Whether a device has a view: its type has it, and a device that names the quantities it
 * reports (a Shelly, Tasmota, P1 or JSON meter) reports the view's quantity (for an energy
 * view, its first series), so a P1 meter has no frequency view to show zeros in.
 */
export function deviceHasView(device: MeasuringDevice, view: View): boolean {
  if (!typeHasView(device.type, view)) return false;
  if (!device.quantities) return true;
  const quantity = view.kind !== 'energy' ? view.quantity : view.data.startsWith('Q') ? 'Q_E' : 'E_I';
  return device.quantities.includes(quantity);
}

/** The views of a device type, in menu order. */
export function viewsOfType(type: number): View[] {
  return ALL_VIEWS.filter((v) => typeHasView(type, v));
}

/** The view a path names, if any. */
export function viewAt(pathname: string): View | undefined {
  const path = pathname.replace(/\/+$/, '');
  return ALL_VIEWS.find((v) => viewUrl(v) === path);
}

/**
 * Where each metering type opens: the household meter on its daily consumption, the industrial
 * meter on its quarter-hour peaks (read against MRK and RK), the sub-meter on its power profile,
 * the disconnector and the plug on live power (is the load on?). The analyzer opens its own area.
 */
const DEFAULT_VIEW_PATH: Record<number, string> = {
  [DeviceType.SmartMeter]: 'energy/active/day',
  [DeviceType.Disconnector]: 'realtime/power/active',
  [DeviceType.Precision]: 'realtime/voltage',
  [DeviceType.Industrial]: 'energy/active/15min/maximum',
  [DeviceType.Plug]: 'realtime/power/active',
  [DeviceType.Submeter]: 'profile/power/active',
};

/** The visualization view a device type opens on. */
export function defaultViewUrl(type: number): string {
  return `${VISUALIZATION_BASE}/${DEFAULT_VIEW_PATH[type] ?? 'realtime/power/active'}`;
}
