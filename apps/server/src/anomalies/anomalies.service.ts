import {
  ANOMALY_LIST_LIMIT,
  DeviceType,
  unixMs,
  type AnomalyEpisode,
  type AnomalyHistory,
  type AnomalyModel,
  type AnomalySlot,
  type NotificationEntry,
} from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { DevicesService, SessionUser } from '../devices/devices.service';
import type { HistoryRepository } from '../history/history.repository';
import { NotFound } from '../http/errors';
import {
  HOUR_SEC,
  NO_RUN,
  WEEK_SEC,
  historyExtent,
  slotOf,
  stepRun,
  trainSlots,
  type HourEnergy,
  type RunState,
} from './anomalies-fns';
import type { AnomaliesRepository, ModelRow } from './anomalies.repository';

/** An hour is checked once this long after its end, so its last quarter has arrived. */
export const CHECK_GRACE_SEC = 300;
/** Most hours one check walks per model (a server that was down catches up over a few checks). */
const MAX_HOURS_PER_CHECK = 24 * 14;
const MIN_WEEKS = 3;

/** Where anomalies are announced (the notifications service). */
export interface AnomalyNotifier {
  record(deviceId: number, mac: string, type: 'ANOMALY', data: NotificationEntry['data']): Promise<unknown>;
}

const kwh = (wh: number) => (Math.round(wh) / 1000).toFixed(3);

/** The notification of an anomaly's start or end, with the band and what was seen. */
export function anomalyNotification(event: 'ANOMALY_STARTED' | 'ANOMALY_ENDED', run: RunState) {
  const where = run.direction === 'LOW' ? 'below' : 'above';
  return {
    timestamp: unixMs((run.startSec ?? 0) * 1000),
    event,
    message: `Consumption ${where} the expected band for ${run.hours} h: ${kwh(run.seenWh)} kWh seen, ${kwh(run.lowWh)} to ${kwh(run.highWh)} kWh expected`,
    energy_consumption_wh: Math.round(run.seenWh),
    expected_low_wh: Math.round(run.lowWh),
    expected_high_wh: Math.round(run.highWh),
  };
}

/** Anomaly models of household meters: training, the band, and detection on completed hours. */
export function anomaliesService(deps: {
  repo: AnomaliesRepository;
  history: HistoryRepository;
  devices: DevicesService;
  notifier: AnomalyNotifier;
  clock: Clock;
  tz: string;
  /** How often a model is retrained by the schedule, ms. */
  retrainMs: number;
}) {
  const { repo, history, devices, notifier, clock, tz } = deps;
  const nowSec = () => Math.floor(clock.nowMs() / 1000);

  /** A household meter the caller owns; anything else answers as absence. */
  async function ownHousehold(user: SessionUser, token: string) {
    const d = await devices.resolve(user, token);
    if (d.owner !== 1 || d.type !== DeviceType.SmartMeter) throw new NotFound('Device not found');
    return d;
  }

  async function hours(deviceId: number, fromSec: number, toSec: number): Promise<HourEnergy[]> {
    const rows = await history.energyBuckets(deviceId, fromSec, toSec, ['e_i_wh'], HOUR_SEC);
    return rows.map((r) => ({ tsSec: r.tsSec, wh: r.values[0]! }));
  }

  /** Learns from the weeks before the last whole hour; null with what there is when too little. */
  async function train(
    deviceId: number,
    weeks: number,
    hoursInRow: number,
    scheduled: boolean,
  ): Promise<AnomalyHistory | null> {
    const toSec = Math.floor(nowSec() / HOUR_SEC) * HOUR_SEC;
    const fromSec = toSec - weeks * WEEK_SEC;
    const found = await hours(deviceId, fromSec, toSec);
    const extent = historyExtent(found, toSec);
    if (extent.weeks < MIN_WEEKS)
      return {
        fromMs: extent.fromSec === null ? null : extent.fromSec * 1000,
        toMs: extent.toSec === null ? null : extent.toSec * 1000,
        hours: extent.hours,
        weeks: extent.weeks,
      };
    const before = await repo.model(deviceId);
    await repo.save({
      device_id: deviceId,
      weeks,
      hours_in_row: hoursInRow,
      from_sec: extent.fromSec ?? fromSec,
      to_sec: extent.toSec ?? toSec,
      hours_used: found.length,
      trained_at_ms: clock.nowMs(),
      scheduled: scheduled ? 1 : 0,
      slots: JSON.stringify(trainSlots(found, tz)),
      // A new model watches the hours after its training; a retrained one carries on.
      checked_to_sec: before?.checked_to_sec ?? toSec,
      run_state: before?.run_state ?? JSON.stringify(NO_RUN),
      open_anomaly_id: before?.open_anomaly_id ?? null,
    });
    return null;
  }

  function modelOf(m: ModelRow): AnomalyModel {
    return {
      weeks: m.weeks,
      hoursInRow: m.hours_in_row,
      fromMs: m.from_sec * 1000,
      toMs: m.to_sec * 1000,
      hoursUsed: m.hours_used,
      trainedAtMs: m.trained_at_ms,
      scheduled: m.scheduled === 1,
      slots: JSON.parse(m.slots) as AnomalySlot[],
    };
  }

  async function episodes(deviceId: number): Promise<AnomalyEpisode[]> {
    return (await repo.latest(deviceId, ANOMALY_LIST_LIMIT)).map((r) => ({
      id: r.id,
      startMs: r.start_sec * 1000,
      endMs: r.end_sec === null ? null : r.end_sec * 1000,
      hours: r.hours,
      direction: r.direction === 'LOW' ? 'LOW' : 'HIGH',
      expectedLowWh: r.expected_low_wh,
      expectedHighWh: r.expected_high_wh,
      seenWh: r.seen_wh,
    }));
  }

  async function view(deviceId: number, notEnoughHistory: AnomalyHistory | null = null) {
    const m = await repo.model(deviceId);
    return { model: m ? modelOf(m) : null, notEnoughHistory, anomalies: await episodes(deviceId) };
  }

  /** Checks one model's completed hours since the last check; raises, extends and ends anomalies. */
  async function check(m: ModelRow): Promise<void> {
    const lastEnd = Math.floor((nowSec() - CHECK_GRACE_SEC) / HOUR_SEC) * HOUR_SEC;
    const toSec = Math.min(lastEnd, m.checked_to_sec + MAX_HOURS_PER_CHECK * HOUR_SEC);
    if (toSec <= m.checked_to_sec) return;
    const seen = new Map((await hours(m.device_id, m.checked_to_sec, toSec)).map((h) => [h.tsSec, h.wh]));
    const bands = new Map((JSON.parse(m.slots) as AnomalySlot[]).map((s) => [s.slot, s]));
    let run = JSON.parse(m.run_state) as RunState;
    let openId = m.open_anomaly_id;
    const values = (r: RunState, endSec: number | null) => ({
      deviceId: m.device_id,
      startSec: r.startSec ?? 0,
      endSec,
      hours: r.hours,
      direction: r.direction ?? 'HIGH',
      expectedLowWh: r.lowWh,
      expectedHighWh: r.highWh,
      seenWh: r.seenWh,
    });
    for (let h = m.checked_to_sec; h < toSec; h += HOUR_SEC) {
      const step = stepRun(
        run,
        { tsSec: h, wh: seen.get(h) ?? null, band: bands.get(slotOf(h, tz)) ?? null },
        m.hours_in_row,
      );
      run = step.run;
      if (step.event === 'RAISE') {
        openId = await repo.insertAnomaly(values(run, null));
        await notifier.record(m.device_id, m.mac, 'ANOMALY', anomalyNotification('ANOMALY_STARTED', run));
      } else if (step.event === 'CONTINUE' && openId !== null) {
        await repo.updateAnomaly(openId, values(run, null));
      } else if (step.event === 'END' && step.ended) {
        if (openId !== null) await repo.updateAnomaly(openId, values(step.ended, h));
        openId = null;
        await notifier.record(m.device_id, m.mac, 'ANOMALY', {
          ...anomalyNotification('ANOMALY_ENDED', step.ended),
          timestamp: unixMs(h * 1000),
        });
      }
      // Progress is kept hour by hour, so a failure part-way never raises an hour twice.
      await repo.saveProgress(m.device_id, h + HOUR_SEC, JSON.stringify(run), openId);
    }
  }

  /** Retrains models older than the schedule's interval, then checks every model's new hours. */
  async function tick(): Promise<void> {
    for (const m of await repo.all()) {
      if (m.type !== DeviceType.SmartMeter) continue;
      if (clock.nowMs() - m.trained_at_ms >= deps.retrainMs)
        await train(m.device_id, m.weeks, m.hours_in_row, true);
      const fresh = await repo.model(m.device_id);
      if (fresh) await check(fresh);
    }
  }

  return {
    async model(user: SessionUser, token: string) {
      const d = await ownHousehold(user, token);
      return view(d.id);
    },

    async train(user: SessionUser, token: string, weeks: number, hoursInRow: number) {
      const d = await ownHousehold(user, token);
      return view(d.id, await train(d.id, weeks, hoursInRow, false));
    },

    /** Per hour of [fromSec, toSec): its start (ms) and the band in kWh. */
    async band(
      user: SessionUser,
      token: string,
      fromSec: number,
      toSec: number,
    ): Promise<[number, number, number][]> {
      const d = await ownHousehold(user, token);
      const m = await repo.model(d.id);
      // Without a model there is no band: an empty answer, so a chart asks without failing.
      if (!m) return [];
      const bands = new Map((JSON.parse(m.slots) as AnomalySlot[]).map((s) => [s.slot, s]));
      const out: [number, number, number][] = [];
      for (let h = Math.ceil(fromSec / HOUR_SEC) * HOUR_SEC; h < toSec; h += HOUR_SEC) {
        const b = bands.get(slotOf(h, tz));
        if (b) out.push([h * 1000, b.lowWh / 1000, b.highWh / 1000]);
      }
      return out;
    },

    tick,

    /** Runs tick every intervalMs until the returned stop is called. */
    start(opts: { intervalMs: number; onError: (err: unknown) => void }): () => void {
      let running = false;
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        tick()
          .catch(opts.onError)
          .finally(() => {
            running = false;
          });
      }, opts.intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
/** Anomaly models and their detection. */
export type AnomaliesService = ReturnType<typeof anomaliesService>;
