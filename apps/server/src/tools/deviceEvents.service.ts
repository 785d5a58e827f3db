// Device messages that become notifications: a device event as the device names it, and a change
// of online status as a STATUS notification. Both pass the per-device rate limit; what it holds
// back is announced once per window by a summary.
import type { Registry } from 'prom-client';
import type { DeviceMessage, NotificationEntry, NotificationType } from '@meterportal/protocol';
import { secToMs, unixMs } from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { Logger } from '../telemetry/burst-log';
import { deviceEventLimiter, suppressedText, type EventLimits } from './eventLimiter';

/** How often held-back device events are checked for a due summary, ms. */
const SUMMARY_CHECK_MS = 1000;

/** Where notifications are recorded (the notifications service). */
export interface NotificationRecorder {
  record(
    deviceId: number,
    mac: string,
    type: NotificationType,
    data: NotificationEntry['data'],
  ): Promise<unknown>;
}

/** Turns device messages into notifications. */
export function deviceEventsService(deps: {
  notifications: NotificationRecorder;
  clock: Clock;
  log: Logger;
  registry?: Registry;
  limits?: EventLimits;
}) {
  const { notifications, clock, log } = deps;
  const limiter = deviceEventLimiter({
    clock,
    ...(deps.registry ? { registry: deps.registry } : {}),
    ...(deps.limits ? { limits: deps.limits } : {}),
  });
  const lastStatus = new Map<string, string>();
  const record = (deviceId: number, mac: string, type: NotificationType, data: NotificationEntry['data']) =>
    void notifications
      .record(deviceId, mac, type, data)
      .catch((err: unknown) => log.error({ err }, 'notification not recorded'));

  /** Records the summaries of windows that have ended. */
  function summarize(): void {
    for (const sum of limiter.dueSummaries()) {
      record(sum.deviceId, sum.mac, 'STATUS', {
        timestamp: unixMs(sum.untilMs),
        event: 'EVENTS_SUPPRESSED',
        message: suppressedText(sum.suppressed),
      });
    }
  }

  return {
    /** Records what a device message calls for, if anything. */
    handle(message: DeviceMessage, deviceId: number): void {
      if (message.kind === 'event' && limiter.admit(deviceId, message.mac)) {
        // Seconds on the device wire, milliseconds in storage and towards browsers and Webex.
        record(deviceId, message.mac, message.payload.type, {
          ...message.payload.data,
          timestamp: secToMs(message.payload.data.timestamp),
        });
      }
      if (message.kind === 'state') {
        // A change of online status is itself a STATUS notification (the first state seen is not).
        const before = lastStatus.get(message.mac);
        lastStatus.set(message.mac, message.payload.status);
        if (
          before !== undefined &&
          before !== message.payload.status &&
          limiter.admit(deviceId, message.mac)
        ) {
          record(deviceId, message.mac, 'STATUS', {
            timestamp: unixMs(clock.nowMs()),
            event: message.payload.status,
            message: `Device is ${message.payload.status}`,
          });
        }
      }
    },
    summarize,
    /** Checks for due summaries on a schedule; answers the function that stops it. */
    start(): () => void {
      const timer = setInterval(summarize, SUMMARY_CHECK_MS);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
/** Turns device messages into notifications. */
export type DeviceEventsService = ReturnType<typeof deviceEventsService>;
