import { describe, expect, it } from 'vitest';
import {
  unixSec,
  type DeviceMessage,
  type NotificationEntry,
  type NotificationType,
} from '@meterportal/protocol';
import { ManualClock } from '../clock';
import { memoryLogger } from '../telemetry/testing';
import { deviceEventsService } from './deviceEvents.service';

const MAC = '02-4D-50-00-00-61';

function setup(opts: { failing?: boolean } = {}) {
  const clock = new ManualClock();
  const log = memoryLogger();
  const recorded: {
    deviceId: number;
    mac: string;
    type: NotificationType;
    data: NotificationEntry['data'];
  }[] = [];
  const notifications = {
    record(deviceId: number, mac: string, type: NotificationType, data: NotificationEntry['data']) {
      if (opts.failing) return Promise.reject(new Error('store down'));
      recorded.push({ deviceId, mac, type, data });
      return Promise.resolve();
    },
  };
  const events = deviceEventsService({
    notifications,
    clock,
    log,
    limits: { burst: 2, refillMs: 10_000, summaryWindowMs: 60_000 },
  });
  return { clock, log, recorded, events };
}

const state = (status: 'ONLINE' | 'OFFLINE'): DeviceMessage => ({
  kind: 'state',
  mac: MAC,
  payload: { status },
});
const flush = () => new Promise((r) => setImmediate(r));

describe('device messages becoming notifications', () => {
  it('makes no notification of the first state seen of a device', async () => {
    const { events, recorded } = setup();
    events.handle(state('ONLINE'), 7);
    await flush();
    expect(recorded).toEqual([]);
  });

  it('makes a STATUS notification, stamped with the clock, when the status changes', async () => {
    const { events, recorded, clock } = setup();
    events.handle(state('ONLINE'), 7);
    clock.advance(5000);
    events.handle(state('OFFLINE'), 7);
    await flush();
    expect(recorded).toEqual([
      {
        deviceId: 7,
        mac: MAC,
        type: 'STATUS',
        data: { timestamp: clock.nowMs(), event: 'OFFLINE', message: 'Device is OFFLINE' },
      },
    ]);
  });

  it('makes nothing when the same status is repeated', async () => {
    const { events, recorded } = setup();
    events.handle(state('ONLINE'), 7);
    events.handle(state('ONLINE'), 7);
    events.handle(state('ONLINE'), 7);
    await flush();
    expect(recorded).toEqual([]);
  });

  it('turns a device event time from seconds into milliseconds', async () => {
    const { events, recorded } = setup();
    events.handle(
      {
        kind: 'event',
        mac: MAC,
        payload: { type: 'STATUS', data: { timestamp: unixSec(1_763_000_000), event: 'BOOT' } },
      },
      7,
    );
    await flush();
    expect(recorded).toEqual([
      { deviceId: 7, mac: MAC, type: 'STATUS', data: { timestamp: 1_763_000_000_000, event: 'BOOT' } },
    ]);
  });

  it('holds status changes beyond the burst back and summarizes them once the window ends', async () => {
    const { events, recorded, clock } = setup();
    const order = ['ONLINE', 'OFFLINE', 'ONLINE', 'OFFLINE', 'ONLINE'] as const;
    for (const s of order) events.handle(state(s), 7);
    await flush();
    expect(recorded.map((r) => r.data.event)).toEqual(['OFFLINE', 'ONLINE']);
    events.summarize();
    await flush();
    expect(recorded).toHaveLength(2);
    clock.advance(60_000);
    events.summarize();
    await flush();
    expect(recorded[2]).toMatchObject({
      type: 'STATUS',
      data: { event: 'EVENTS_SUPPRESSED', message: '2 events suppressed' },
    });
  });

  it('logs a notification that could not be recorded instead of failing', async () => {
    const { events, log } = setup({ failing: true });
    events.handle(state('ONLINE'), 7);
    events.handle(state('OFFLINE'), 7);
    await flush();
    expect(log.lines).toMatchObject([{ level: 'error', msg: 'notification not recorded' }]);
  });
});
