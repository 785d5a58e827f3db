import { DeviceType, type DeviceTypeId } from './constants';
import type { ENERGY_KINDS, ProfileQuantity } from './history';

/**
 * What each device type measures. Every type is a meter and sends the same live frame shape, but
 * the phases it is wired for and the registers it keeps differ:
 * - 1 household smart meter, 3 precision analyzer, 4 industrial meter, 6 sub-metering module:
 *   every per-phase quantity, the four reactive quadrants, frequency, power factor and distortion,
 *   on up to three phases (the device's phase_use);
 * - 2 meter with a load disconnector: one phase, voltage, current, active and apparent power,
 *   power factor, frequency, active energy both ways (billing with a relay, no reactive
 *   registers, no harmonic analysis);
 * - 5 plug-in meter: one phase, voltage, current, active power, power factor, frequency and the
 *   active energy it lets through (a plug only consumes).
 * A quantity missing here is absent from the device's charts, menus and history answers.
 */
export const TYPE_QUANTITIES: Record<DeviceTypeId, readonly ProfileQuantity[]> = {
  [DeviceType.SmartMeter]: ['U', 'I', 'P', 'Q', 'S', 'E_I', 'E_E', 'Q_E', 'S_E', 'F', 'PF', 'DF_U', 'DF_I'],
  [DeviceType.Disconnector]: ['U', 'I', 'P', 'S', 'E_I', 'E_E', 'F', 'PF'],
  [DeviceType.Precision]: ['U', 'I', 'P', 'Q', 'S', 'E_I', 'E_E', 'Q_E', 'S_E', 'F', 'PF', 'DF_U', 'DF_I'],
  [DeviceType.Industrial]: ['U', 'I', 'P', 'Q', 'S', 'E_I', 'E_E', 'Q_E', 'S_E', 'F', 'PF', 'DF_U', 'DF_I'],
  [DeviceType.Plug]: ['U', 'I', 'P', 'E_I', 'F', 'PF'],
  [DeviceType.Submeter]: ['U', 'I', 'P', 'Q', 'S', 'E_I', 'E_E', 'Q_E', 'S_E', 'F', 'PF', 'DF_U', 'DF_I'],
};

/** Phases a type can be wired for: the disconnector and the plug are single-phase. */
export const TYPE_MAX_PHASES: Record<DeviceTypeId, 1 | 3> = {
  [DeviceType.SmartMeter]: 3,
  [DeviceType.Disconnector]: 1,
  [DeviceType.Precision]: 3,
  [DeviceType.Industrial]: 3,
  [DeviceType.Plug]: 1,
  [DeviceType.Submeter]: 3,
};

function typeId(type: number): DeviceTypeId | undefined {
  return type in TYPE_QUANTITIES ? (type as DeviceTypeId) : undefined;
}

/** Whether a device of this type measures the quantity. */
export function typeMeasures(type: number, quantity: ProfileQuantity): boolean {
  const id = typeId(type);
  return id !== undefined && TYPE_QUANTITIES[id].includes(quantity);
}

/** Phases in use of a device: its phase_use, never more than its type is wired for. */
export function phasesInUse(type: number, phaseUse: number | undefined): 1 | 2 | 3 {
  const id = typeId(type);
  const max = id === undefined ? 1 : TYPE_MAX_PHASES[id];
  return Math.max(1, Math.min(max, phaseUse ?? max)) as 1 | 2 | 3;
}

/** The register an energy series is summed from: quadrants need the reactive registers. */
const ENERGY_SOURCE: Record<(typeof ENERGY_KINDS)[number], ProfileQuantity> = {
  E_I: 'E_I',
  E_E: 'E_E',
  Q1: 'Q_E',
  Q2: 'Q_E',
  Q3: 'Q_E',
  Q4: 'Q_E',
};

/** Whether a device of this type keeps the register behind an energy series. */
export function typeHasEnergy(type: number, kind: (typeof ENERGY_KINDS)[number]): boolean {
  return typeMeasures(type, ENERGY_SOURCE[kind]);
}
