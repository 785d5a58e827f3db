import type { MonitoringRequest } from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { DevicesService, SessionUser } from '../devices/devices.service';
import { DataNotFound, InvalidRequest } from '../http/errors';
import { nextPeriod, startOfDay } from '../history/calendar';
import type { HistoryRepository } from '../history/history.repository';
import { onlineMs, stateSpans, uptimeHoursAt } from './availability';

const SLOT_MS = { '30MINUTE': 1_800_000, MINUTE: 60_000 } as const;
/** Minute slots are for drilling into a part of a day; longer spans ask for 30-minute slots. */
const MINUTE_MAX_SPAN_SEC = 2 * 86400;

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** Device availability from the stored status transitions. */
export function monitoringService(deps: {
  repo: HistoryRepository;
  devices: DevicesService;
  clock: Clock;
  tz: string;
}) {
  const { repo, devices, clock, tz } = deps;

  /** The online and offline stretches of [fromMs, min(toMs, now)); absent with no status known. */
  async function spansOf(deviceId: number, fromMs: number, toMs: number) {
    // Time still to come is neither online nor offline.
    const endMs = Math.min(toMs, clock.nowMs());
    const { before, within } = await repo.statusChanges(deviceId, fromMs, endMs);
    if (!before && within.length === 0) throw new DataNotFound();
    const spans = endMs > fromMs ? stateSpans(fromMs, endMs, before, within) : [];
    return { before, endMs, spans };
  }

  return {
    async monitoring(user: SessionUser, req: MonitoringRequest) {
      const device = await devices.resolve(user, req.token);
      if (req.period === 'MINUTE' && req.to - req.from > MINUTE_MAX_SPAN_SEC) {
        throw new InvalidRequest('Invalid request at to: MINUTE slots cover at most 2 days');
      }
      const fromMs = req.from * 1000;
      const { before, endMs, spans } = await spansOf(device.id, fromMs, req.to * 1000);
      const onlineSince =
        before && before.status !== 0 ? await repo.lastOnlineSince(device.id, fromMs) : undefined;

      if (req.period === 'DAY') {
        const online: [number, number][] = [];
        const offline: [number, number][] = [];
        const uptime: [number, number][] = [];
        for (let d = startOfDay(req.from, tz); d < req.to && d * 1000 < endMs; d = nextPeriod(d, 'DAY', tz)) {
          const a = Math.max(d * 1000, fromMs);
          const b = Math.min(nextPeriod(d, 'DAY', tz) * 1000, endMs);
          const on = onlineMs(spans, a, b);
          online.push([d * 1000, round3(on / 3_600_000)]);
          offline.push([d * 1000, round3((b - a - on) / 3_600_000)]);
          uptime.push([d * 1000, round3(uptimeHoursAt(spans, b, onlineSince))]);
        }
        return { online, offline, uptime };
      }

      const slot = SLOT_MS[req.period];
      const points: { timestamp: number; offline: number; uptime: number }[] = [];
      for (let t = fromMs - (fromMs % slot); t < endMs; t += slot) {
        const a = Math.max(t, fromMs);
        const b = Math.min(t + slot, endMs);
        const on = onlineMs(spans, a, b);
        points.push({
          timestamp: t,
          offline: Math.round((b - a - on) / 1000),
          uptime: round3(uptimeHoursAt(spans, b, onlineSince)),
        });
      }
      return points;
    },

    /**
     * The offline stretches of [from, to) up to now (one already going on at `from` counts), as
     * the availability report counts outages; 610 when no status of the device is known.
     */
    async outages(user: SessionUser, req: { token: string; from: number; to: number }): Promise<number> {
      const device = await devices.resolve(user, req.token);
      const { spans } = await spansOf(device.id, req.from * 1000, req.to * 1000);
      // Two offline records in a row are one outage.
      return spans.filter((s, i) => !s.online && (i === 0 || spans[i - 1]!.online)).length;
    },
  };
}
/** Device availability. */
export type MonitoringService = ReturnType<typeof monitoringService>;
