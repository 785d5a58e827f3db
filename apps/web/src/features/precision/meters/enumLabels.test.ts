import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { enumLabel, enumOptions } from './enumLabels';

/** Looks keys up in the English table, as i18next would. */
const t = ((key: string) =>
  key
    .split('.')
    .reduce<unknown>((node, k) => (node as Record<string, unknown>)[k], en)) as unknown as TFunction;

describe('enumeration labels', () => {
  it('lists every item of seed 001 section 9 with its index as the value', () => {
    expect(enumOptions('CONTYPE', t)).toEqual(
      ['3P4W', '3P3W', '2P3W', '1P3W', '1P2W'].map((label, value) => ({ value, label })),
    );
    expect(enumOptions('ELM_OUTPUT_TYPE', t).map((o) => o.label)).toEqual(['LED', 'DISC/SO', 'SNAP.S']);
    expect(enumOptions('MENERGYTYPE', t).map((o) => o.label)).toEqual(['Active', 'Reactive', 'Apparent']);
    expect(enumOptions('CONSTTYPE', t).map((o) => o.label)).toEqual(['Secondary', 'Primary']);
    expect(enumOptions('ENERMETHOD', t).map((o) => o.label)).toEqual([
      '4Quadrant',
      'Algo 1',
      'Algo 2',
      'Algo 3',
      'Algo 4',
    ]);
    expect(enumOptions('CONSTUNIT', t)).toHaveLength(10);
    expect(enumOptions('CONSTUNIT', t)[9]).toEqual({ value: 9, label: 'i/MWh' });
  });

  it('has no label for an index outside the list', () => {
    expect(enumLabel('CONTYPE', 5, t)).toBeUndefined();
    expect(enumLabel('CONTYPE', -1, t)).toBeUndefined();
    expect(enumLabel('CONTYPE', 'x', t)).toBeUndefined();
    expect(enumLabel('CONTYPE', '2', t)).toBe('2P3W');
  });
});
