import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { ManualClock } from '../clock';
import { deviceEventLimiter, suppressedText } from './eventLimiter';

const limits = { burst: 20, refillMs: 10_000, summaryWindowMs: 60_000 };

describe('device event limiter', () => {
  it('lets a burst through, then one event per refill period', () => {
    const clock = new ManualClock();
    const limiter = deviceEventLimiter({ clock, limits });
    const admitted = Array.from({ length: 25 }, () => limiter.admit(1, 'A')).filter(Boolean).length;
    expect(admitted).toBe(20);
    clock.advance(9_999);
    expect(limiter.admit(1, 'A')).toBe(false);
    clock.advance(1);
    expect(limiter.admit(1, 'A')).toBe(true);
    expect(limiter.admit(1, 'A')).toBe(false);
  });

  it('limits each device on its own', () => {
    const clock = new ManualClock();
    const limiter = deviceEventLimiter({ clock, limits });
    for (let i = 0; i < 100; i += 1) limiter.admit(1, 'A');
    expect(limiter.admit(2, 'B')).toBe(true);
  });

  it('summarizes the held-back events of a device once per window and counts them', async () => {
    const clock = new ManualClock();
    const registry = new Registry();
    const limiter = deviceEventLimiter({ clock, limits, registry });
    for (let i = 0; i < 5000; i += 1) limiter.admit(1, 'A');
    const since = clock.nowMs();
    clock.advance(59_999);
    expect(limiter.dueSummaries()).toEqual([]);
    clock.advance(1);
    expect(limiter.dueSummaries()).toEqual([
      { deviceId: 1, mac: 'A', suppressed: 4980, sinceMs: since, untilMs: since + 60_000 },
    ]);
    expect(limiter.dueSummaries()).toEqual([]);
    expect((await registry.getSingleMetric('device_events_suppressed_total')?.get())?.values[0]?.value).toBe(
      4980,
    );
    expect(suppressedText(4980)).toBe('4980 events suppressed');
  });

  it('forgets a device once its bucket is full again', () => {
    const clock = new ManualClock();
    const limiter = deviceEventLimiter({ clock, limits });
    for (let i = 0; i < 30; i += 1) limiter.admit(1, 'A');
    clock.advance(60_000);
    expect(limiter.dueSummaries()).toHaveLength(1);
    clock.advance(200_000);
    expect(limiter.dueSummaries()).toEqual([]);
    // A full burst again, as for a device never seen.
    expect(Array.from({ length: 21 }, () => limiter.admit(1, 'A')).filter(Boolean).length).toBe(20);
  });
});
