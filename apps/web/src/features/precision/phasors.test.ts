import { describe, expect, it } from 'vitest';
import { angleAxisFor, arrowRotation, drawnRadius, normalizeAngle, readPhasors } from './phasors';

const phases = (l1: number, l2: number, l3: number) => ({ L1: l1, L2: l2, L3: l3 });
const frame = {
  topic: 'Data',
  data: {
    U: phases(230, 231, 229),
    I: phases(5, 0.05, 400),
    F_U: phases(0, -120, 120),
    F_I: phases(-30, 210, 450),
  },
};

describe('phasors from a live frame', () => {
  it('builds six phasors with magnitudes and angles in 0 to 360 degrees', () => {
    expect(readPhasors(frame)).toEqual([
      { key: 'L1_U', magnitude: 230, angleDeg: 0 },
      { key: 'L1_I', magnitude: 5, angleDeg: 330 },
      { key: 'L2_U', magnitude: 231, angleDeg: 240 },
      { key: 'L2_I', magnitude: 0.05, angleDeg: 210 },
      { key: 'L3_U', magnitude: 229, angleDeg: 120 },
      { key: 'L3_I', magnitude: 400, angleDeg: 90 },
    ]);
  });

  it.each([
    ['a missing angle', { ...frame.data, F_I: { L1: 1, L2: 2 } }],
    ['a missing magnitude', { ...frame.data, U: undefined }],
    ['a text value', { ...frame.data, I: phases(1, 2, 3), F_U: { L1: '0', L2: 1, L3: 2 } }],
  ])('refuses a frame with %s', (_label, data) => {
    expect(readPhasors({ topic: 'Data', data })).toBeNull();
  });

  it('keeps drawn magnitudes inside the 0.1 to 300 logarithmic radius', () => {
    expect(drawnRadius(0.05)).toBe(0.1);
    expect(drawnRadius(0)).toBe(0.1);
    expect(drawnRadius(230)).toBe(230);
    expect(drawnRadius(400)).toBe(300);
  });

  it.each([
    [360, 0],
    [-90, 270],
    [725, 5],
  ])('normalizes %i degrees to %i', (deg, expected) => {
    expect(normalizeAngle(deg)).toBe(expected);
  });
});

describe('vector settings', () => {
  it.each([
    [0, 90],
    [90, 0],
    [180, 270],
    [270, 180],
  ] as const)('zero position %i starts the angle axis at %i (ECharts)', (zero, start) => {
    expect(angleAxisFor(zero, true).startAngle).toBe(start);
  });

  it('passes the rotation direction to the axis', () => {
    expect(angleAxisFor(90, false).clockwise).toBe(false);
    expect(angleAxisFor(90, true).clockwise).toBe(true);
  });

  it('turns arrow heads along their phasor', () => {
    // Zero at 3 o'clock, counter-clockwise: 0 degrees points right, 90 up.
    const ccw = angleAxisFor(90, false);
    expect(arrowRotation(0, ccw)).toBe(270);
    expect(arrowRotation(90, ccw)).toBe(0);
    // Zero at 12 o'clock, clockwise: 90 degrees points right.
    expect(arrowRotation(90, angleAxisFor(0, true))).toBe(270);
  });
});
