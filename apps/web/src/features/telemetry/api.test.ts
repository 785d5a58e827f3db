import { describe, expect, it } from 'vitest';
import { readEnergy, readProfile } from './api';

describe('reading history answers', () => {
  it('reads per-phase profiles and the cumulative series', () => {
    const r = readProfile(
      {
        E_I: {
          L1: [[1_700_000_000, 2000]],
          L2: [[1_700_000_000, 1000]],
          cumulative: [[1_700_000_000, 3000]],
        },
      },
      'E_I',
      1000,
    );
    expect(r.phases.L1).toEqual([[1_700_000_000_000, 2]]);
    expect(r.phases.L3).toBeUndefined();
    expect(r.cumulative).toEqual([[1_700_000_000_000, 3]]);
  });

  it('reads frequency given as a list', () => {
    expect(readProfile({ F: [[1_700_000_000, 50]] }, 'F', 1).phases).toEqual({
      L1: [[1_700_000_000_000, 50]],
    });
  });

  it('reads data[key].CUM of every requested key, empty when missing', () => {
    const r = readEnergy({ E_I: { CUM: [[1_700_000_000, 1500]] } }, ['E_I', 'E_E'], 1000);
    expect(r).toEqual({ E_I: [[1_700_000_000_000, 1.5]], E_E: [] });
  });
});
