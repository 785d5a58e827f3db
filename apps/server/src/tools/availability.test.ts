import { describe, expect, it } from 'vitest';
import { onlineMs, stateSpans, uptimeHoursAt } from './availability';

const H = 3_600_000;

describe('availability', () => {
  it('builds spans from the status before the range and the changes in it', () => {
    expect(
      stateSpans(0, 10 * H, { status: 1 }, [
        { at_ms: 2 * H, status: 0 },
        { at_ms: 3 * H, status: 2 },
      ]),
    ).toEqual([
      { fromMs: 0, toMs: 2 * H, online: true },
      { fromMs: 2 * H, toMs: 3 * H, online: false },
      { fromMs: 3 * H, toMs: 10 * H, online: true },
    ]);
  });

  it('counts time before the first known status as offline', () => {
    const spans = stateSpans(0, 4 * H, undefined, [{ at_ms: H, status: 1 }]);
    expect(onlineMs(spans, 0, 4 * H)).toBe(3 * H);
  });

  it.each([
    [0, 2 * H, 2 * H],
    [H, 3 * H, H],
    [2 * H, 3 * H, 0],
    [0, 10 * H, 9 * H],
  ])('online time in [%i, %i) is %i', (a, b, expected) => {
    const spans = stateSpans(0, 10 * H, { status: 1 }, [
      { at_ms: 2 * H, status: 0 },
      { at_ms: 3 * H, status: 1 },
    ]);
    expect(onlineMs(spans, a, b)).toBe(expected);
  });

  it('measures uptime since the device last came online, including before the range', () => {
    const spans = stateSpans(10 * H, 20 * H, { status: 1 }, [
      { at_ms: 12 * H, status: 0 },
      { at_ms: 13 * H, status: 1 },
    ]);
    expect(uptimeHoursAt(spans, 11 * H, 4 * H)).toBe(7);
    expect(uptimeHoursAt(spans, 12.5 * H, 4 * H)).toBe(0);
    expect(uptimeHoursAt(spans, 15 * H, 4 * H)).toBe(2);
  });
});
