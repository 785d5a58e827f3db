import { describe, expect, it } from 'vitest';
import { phasesInUse, typeHasEnergy, typeMeasures } from './metering';

describe('what each device type measures', () => {
  it.each([
    [1, 'Q', true],
    [1, 'DF_U', true],
    [3, 'DF_I', true],
    [4, 'Q_E', true],
    [6, 'S', true],
    [2, 'P', true],
    [2, 'E_E', true],
    [2, 'Q', false],
    [2, 'DF_I', false],
    [5, 'E_I', true],
    [5, 'E_E', false],
    [5, 'S', false],
    [5, 'Q_E', false],
    [7, 'U', false],
  ] as const)('type %i measures %s: %s', (type, quantity, expected) => {
    expect(typeMeasures(type, quantity)).toBe(expected);
  });

  it.each([
    [1, 3, 3],
    [1, 1, 1],
    [4, undefined, 3],
    [6, 2, 2],
    [2, undefined, 1],
    [2, 3, 1],
    [5, 3, 1],
  ] as const)('type %i with phase_use %s uses %i phases', (type, phaseUse, expected) => {
    expect(phasesInUse(type, phaseUse)).toBe(expected);
  });

  it.each([
    [1, 'Q1', true],
    [4, 'Q3', true],
    [2, 'E_E', true],
    [2, 'Q1', false],
    [5, 'E_I', true],
    [5, 'E_E', false],
  ] as const)('type %i keeps the register of %s: %s', (type, kind, expected) => {
    expect(typeHasEnergy(type, kind)).toBe(expected);
  });
});
