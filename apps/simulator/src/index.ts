/** Virtual meters: library API for the server's demo mode, tests and the bench. */
export { DEFAULT_ACCUTEST, startDevice, type DeviceOptions, type SimDevice } from './device';
export { buildTestResult, meterClassPct, type AccuTestInput } from './accutest';
export { factoryMeters } from './commands';
export { createFleet, demoMacs, type Fleet, type FleetDevice, type FleetOptions } from './fleet';
export { createHistory, type QuarterEnergy } from './history';
export { createMeterModel, type Instant, type MeterModel, type ModelState } from './model';
export { meterProfile, type MeterProfile } from './profiles';
export { createRegisters } from './registers';
export { isOutage } from './outages';
export { createNilm, type SimNilm, type TeachScene } from './nilm';
export {
  analyzerMinutes,
  analyzerSpectra,
  withPlantedDisturbance,
  PLANTED_SAG,
  PLANTED_DISTORTION,
} from './power-quality';
