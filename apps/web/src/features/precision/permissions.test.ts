import { describe, expect, it } from 'vitest';
import {
  CHART_PERMISSION_LEVEL,
  VECTOR_PERMISSION_LEVEL,
  chartFeatures,
  vectorFeatures,
} from './permissions';

describe('chart permission levels', () => {
  it.each([
    [0, { legend: false, zoom: false }],
    [1, { legend: true, zoom: false }],
    [2, { legend: true, zoom: true }],
  ])('level %i of harmonics and waveform gives %o', (level, expected) => {
    expect(chartFeatures(level)).toEqual(expected);
  });

  it('fixes harmonics and waveform at level 2: legend and horizontal zoom', () => {
    expect(chartFeatures(CHART_PERMISSION_LEVEL)).toEqual({ legend: true, zoom: true });
  });

  it.each([
    [1, { legend: true, settings: false, direction: false, zeroPosition: false }],
    [2, { legend: true, settings: false, direction: false, zeroPosition: false }],
    [3, { legend: true, settings: true, direction: true, zeroPosition: false }],
    [4, { legend: true, settings: true, direction: true, zeroPosition: true }],
  ])('vector level %i gives %o', (level, expected) => {
    expect(vectorFeatures(level)).toEqual(expected);
  });

  it('hard-codes the vector diagram at level 4: everything editable', () => {
    expect(vectorFeatures(VECTOR_PERMISSION_LEVEL).zeroPosition).toBe(true);
  });
});
