import { describe, expect, it } from 'vitest';
import { liveQuantityAbsent, randomSample, readLiveSample } from './liveValues';

describe('live samples', () => {
  const msg = {
    topic: 'Data',
    data: {
      ts: 1_700_000_000,
      U: { L1: 230.1, L2: 231.2, L3: 229.9 },
      E_I: { L1: 1500, L2: 2500, L3: 0 },
      F: 50.01,
    },
  };

  it('reads the phases of a quantity at the message time', () => {
    expect(readLiveSample(msg, 'U', 1, 3)).toEqual({
      tsMs: 1_700_000_000_000,
      values: { L1: 230.1, L2: 231.2, L3: 229.9 },
    });
  });
  it('divides energies into kWh and honours the phases in use', () => {
    expect(readLiveSample(msg, 'E_I', 1000, 2)).toEqual({
      tsMs: 1_700_000_000_000,
      values: { L1: 1.5, L2: 2.5 },
    });
  });
  it('reads frequency given as a number', () => {
    expect(readLiveSample(msg, 'F', 1, 3)?.values).toEqual({ L1: 50.01 });
  });
  it('gives null for an empty message', () => {
    expect(readLiveSample({ topic: 'Data', data: { ts: 1 } }, 'U', 1, 3)).toBeNull();
    expect(readLiveSample(null, 'U', 1, 3)).toBeNull();
  });
  it('draws placeholder values between 0 and 5 percent', () => {
    expect(randomSample(5, 3, () => 0.5).values).toEqual({ L1: 2.5, L2: 2.5, L3: 2.5 });
  });
});

describe('quantities a device does not measure', () => {
  const single = {
    topic: 'Data',
    data: {
      ts: 1_700_000_000,
      U: { L1: 230.4, L2: null, L3: null },
      F: null,
      PF: { L1: null, L2: null, L3: null },
    },
  };
  it('reads only the measured phases of a single-phase meter', () => {
    expect(readLiveSample(single, 'U', 1, 3)?.values).toEqual({ L1: 230.4 });
    expect(liveQuantityAbsent(single, 'U', 3)).toBe(false);
  });
  it('tells a frequency or factor the meter lacks from a broken frame', () => {
    expect(readLiveSample(single, 'F', 1, 3)).toBeNull();
    expect(liveQuantityAbsent(single, 'F', 3)).toBe(true);
    expect(liveQuantityAbsent(single, 'PF', 3)).toBe(true);
    expect(liveQuantityAbsent({ topic: 'Data', data: { ts: 1 } }, 'F', 3)).toBe(false);
  });
});
