import { describe, expect, it } from 'vitest';
import { HARMONICS_LOCKOUT_SEC, WAVEFORM_LOCKOUT_SEC, secondsLeft } from './countdown';

describe('refresh countdown', () => {
  it('locks harmonics for 60 s and waveform for 15 s', () => {
    expect(HARMONICS_LOCKOUT_SEC).toBe(60);
    expect(WAVEFORM_LOCKOUT_SEC).toBe(15);
  });

  it.each([
    [60_000, 0, 60],
    [60_000, 1, 60],
    [60_000, 999, 60],
    [60_000, 1000, 59],
    [60_000, 59_001, 1],
    [60_000, 60_000, 0],
    [60_000, 75_000, 0],
  ])('until %i ms at %i ms leaves %i s', (until, now, expected) => {
    expect(secondsLeft(until, now)).toBe(expected);
  });
});
