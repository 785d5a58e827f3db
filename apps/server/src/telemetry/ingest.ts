// Device messages in, rows out: validates, folds live frames into minute aggregates and
// quarter-hour energy, tracks online status, and writes it all in batched transactions.
// Idempotent on (device, ts): the register cursor commits with the energy it produced, and a
// frame at or before it is a redelivery and is ignored. Meter test results (accutest/data) are
// stored too, keyed (device, IDN, test time), so a redelivered result is not stored twice.
import {
  DEVICE_PUBLISH_KINDS,
  decodeDeviceMessage,
  onlineStatusOf,
  type DeviceMessage,
  type LiveFrame,
  type StateMessage,
} from '@meterportal/protocol';
import { createBurstLogger, type Clock, type Logger } from './burst-log';
import { energyRowValues, registerChannels } from './columns';
import { DEFAULT_DELTA_LIMITS, addInto, registerDeltas, type DeltaLimits } from './energy-deltas';
import type { TelemetryMetrics } from './metrics';
import {
  MINUTE_SEC,
  addSample,
  finishMinute,
  frameChannels,
  mergeMinutes,
  minuteStart,
  newMinuteBucket,
  type MinuteBucket,
} from './minute-aggregate';
import type {
  CursorMove,
  CursorRow,
  MeterTestRow,
  MinuteRow,
  QuarterRow,
  StateRow,
  StatusChangeRow,
  TelemetryRepository,
} from './telemetry.repository';

/** Who gets messages after they are accepted (live push to browsers, command replies, ...). */
export interface IngestListeners {
  /** A valid live frame of a known device, before it is stored. */
  onLive?(mac: string, deviceId: number, frame: LiveFrame): void;
  /** Any other accepted device message (state, event, upgrade, accutest, cmd/res). */
  onMessage?(message: DeviceMessage, deviceId: number): void;
}

/** What ingest needs. */
export interface IngestDeps {
  repository: TelemetryRepository;
  logger: Logger;
  clock: Clock;
  metrics: TelemetryMetrics;
  listeners?: IngestListeners;
  limits?: DeltaLimits;
  /** Time between transactions, ms (default 1000). */
  flushIntervalMs?: number;
  /**
   * A minute is closed this long after its end even if no later frame came, once its device has
   * also sent nothing for this long, s (default 5). A device whose frames still come in (late,
   * behind a backlog) has its minute closed by its own frames, so the row is written once.
   */
  minuteGraceSec?: number;
  /** Once started, a closed minute is committed at most this long after it closed, ms (default 200). */
  minuteCommitMs?: number;
  /** Unknown macs are looked up again after this long, ms (default 30 s). */
  unknownRetryMs?: number;
}

interface DeviceCtx {
  id: number;
  cursor: CursorRow | null;
  bucket: MinuteBucket | null;
  status: number | null;
  /** When its last new live frame came (clock ms). */
  lastFrameAtMs: number;
}

interface Pending {
  quarters: Map<string, QuarterRow & { values: number[] }>;
  minutes: Map<string, MinuteRow>;
  cursors: Map<number, CursorMove>;
  states: Map<number, StateRow>;
  statusChanges: StatusChangeRow[];
  meterTests: MeterTestRow[];
}
const emptyPending = (): Pending => ({ quarters: new Map(), minutes: new Map(), cursors: new Map(), states: new Map(), statusChanges: [], meterTests: [] });
const rowsOf = (p: Pending) => p.quarters.size + p.minutes.size + p.cursors.size + p.states.size + p.statusChanges.length + p.meterTests.length;

const ACCEPTED_KINDS: ReadonlySet<string> = new Set(DEVICE_PUBLISH_KINDS);

/** Creates the ingest pipeline; call start() to begin periodic commits. */
export function createIngest(deps: IngestDeps) {
  const { repository, logger, clock, metrics, listeners = {} } = deps;
  const limits = deps.limits ?? DEFAULT_DELTA_LIMITS;
  const flushIntervalMs = deps.flushIntervalMs ?? 1000;
  const graceSec = deps.minuteGraceSec ?? 5;
  const unknownRetryMs = deps.unknownRetryMs ?? 30_000;
  const burst = createBurstLogger(logger, clock);

  const devices = new Map<string, DeviceCtx>();
  const loading = new Map<string, DeviceMessage[]>();
  const unknownUntil = new Map<string, number>();
  let pending = emptyPending();
  let flushing: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let soon: NodeJS.Timeout | null = null;
  const minuteCommitMs = deps.minuteCommitMs ?? 200;
  const lookups = new Set<Promise<void>>();

  function reject(reason: string, detail: string, topic: string): void {
    metrics.rejects.inc({ reason });
    burst(reason, { reason, detail, topic: topic.slice(0, 120) }, 'device message dropped');
  }

  function closeMinute(ctx: DeviceCtx): void {
    if (!ctx.bucket || ctx.bucket.samples === 0) return;
    const agg = finishMinute(ctx.bucket);
    ctx.bucket = null;
    const key = `${ctx.id}:${agg.minuteStartSec}`;
    const prior = pending.minutes.get(key);
    pending.minutes.set(key, { deviceId: ctx.id, agg: prior ? mergeMinutes(prior.agg, agg) : agg });
  }

  function onLive(ctx: DeviceCtx, mac: string, frame: LiveFrame): void {
    if (ctx.cursor && frame.ts <= ctx.cursor.tsSec) {
      metrics.duplicates.inc();
      return;
    }
    listeners.onLive?.(mac, ctx.id, frame);
    ctx.lastFrameAtMs = clock.nowMs();
    const registers = registerChannels(frame);
    if (ctx.cursor) {
      const { buckets, anomalies } = registerDeltas({ tsSec: ctx.cursor.tsSec, values: ctx.cursor.registers }, { tsSec: frame.ts, values: registers }, limits);
      for (const a of anomalies) {
        metrics.registerAnomalies.inc({ kind: a.kind });
        burst(`register-${a.kind}`, { mac, channel: a.channel, tsSec: frame.ts }, `register ${a.kind}`);
      }
      for (const [tsSec, deltas] of buckets) {
        const key = `${ctx.id}:${tsSec}`;
        const row = pending.quarters.get(key);
        const values = energyRowValues(deltas);
        if (row) addInto(row.values, values);
        else pending.quarters.set(key, { deviceId: ctx.id, tsSec, values });
      }
    }
    // The batch's deltas start where the cursor stood when its first frame came.
    const prior = pending.cursors.get(ctx.id);
    const fromTsSec = prior ? prior.fromTsSec : (ctx.cursor?.tsSec ?? null);
    ctx.cursor = { deviceId: ctx.id, tsSec: frame.ts, registers };
    pending.cursors.set(ctx.id, { ...ctx.cursor, fromTsSec });

    const m = minuteStart(frame.ts);
    if (ctx.bucket && ctx.bucket.minuteStartSec !== m) closeMinute(ctx);
    ctx.bucket ??= newMinuteBucket(m);
    addSample(ctx.bucket, frameChannels(frame));
    // A frame of the minute's last second completes it: frame times are whole seconds and any
    // later frame of this minute would be at or before the cursor, so it is ignored. Closing now
    // lets the next commit write the minute instead of waiting for the next minute's first frame.
    if (frame.ts === m + MINUTE_SEC - 1) {
      closeMinute(ctx);
      // Do not hold a finished minute for the rest of the commit interval.
      if (timer && !soon) {
        soon = setTimeout(() => {
          soon = null;
          void flush();
        }, minuteCommitMs);
      }
    }
  }

  function onState(ctx: DeviceCtx, msg: StateMessage): void {
    const status = onlineStatusOf(msg.status);
    const now = clock.nowMs();
    const connection = msg.connection ?? null;
    if (status !== ctx.status) {
      pending.statusChanges.push({ deviceId: ctx.id, atMs: now, status, connection });
      ctx.status = status;
    }
    const prior = pending.states.get(ctx.id);
    pending.states.set(ctx.id, {
      deviceId: ctx.id,
      status,
      // The last will carries only the status; keep what the device said before.
      connection: connection ?? prior?.connection ?? null,
      fw: msg.fw ?? prior?.fw ?? null,
      model: msg.device ?? prior?.model ?? null,
      changedAtMs: now,
    });
  }

  function process(ctx: DeviceCtx, message: DeviceMessage): void {
    metrics.messages.inc({ kind: message.kind });
    switch (message.kind) {
      case 'live':
        onLive(ctx, message.mac, message.payload);
        return;
      case 'state':
        onState(ctx, message.payload);
        listeners.onMessage?.(message, ctx.id);
        return;
      case 'accutest/data':
        pending.meterTests.push({
          deviceId: ctx.id,
          idn: message.payload.IDN,
          mtimeSec: message.payload.MTIME,
          result: JSON.stringify(message.payload),
          receivedAtMs: clock.nowMs(),
        });
        listeners.onMessage?.(message, ctx.id);
        return;
      case 'event':
      case 'accutest/state':
      case 'upgrade':
      case 'cmd/res':
      case 'cmd/req':
        listeners.onMessage?.(message, ctx.id);
        return;
    }
  }

  function load(mac: string): void {
    const p = repository
      .deviceIdByMac(mac)
      .then(async (id) => {
        const queued = loading.get(mac) ?? [];
        if (id === null) {
          loading.delete(mac);
          unknownUntil.set(mac, clock.nowMs() + unknownRetryMs);
          for (const m of queued) reject('unknown_device', mac, m.kind);
          return;
        }
        const { cursor, status } = await repository.loadDeviceContext(id);
        const ctx: DeviceCtx = { id, cursor, status, bucket: null, lastFrameAtMs: clock.nowMs() };
        devices.set(mac, ctx);
        loading.delete(mac);
        for (const m of queued) process(ctx, m);
      })
      .catch((e: unknown) => {
        const queued = loading.get(mac) ?? [];
        loading.delete(mac);
        logger.error({ err: e, mac }, 'device lookup failed');
        for (const m of queued) reject('store_unavailable', mac, m.kind);
      })
      .finally(() => lookups.delete(p));
    lookups.add(p);
  }

  /** Takes one raw MQTT message; never throws. `publisher` is the broker username when known. */
  function handle(topic: string, payload: Uint8Array, publisher?: string): void {
    const r = decodeDeviceMessage(topic, payload);
    if (!r.ok) return reject(r.reason, r.detail, topic);
    const msg = r.message;
    if (!ACCEPTED_KINDS.has(msg.kind)) return reject('wrong_topic', msg.kind, topic);
    if (publisher !== undefined && publisher !== msg.mac) return reject('wrong_topic', `published by ${publisher}`, topic);
    const ctx = devices.get(msg.mac);
    if (ctx) return process(ctx, msg);
    const until = unknownUntil.get(msg.mac);
    if (until !== undefined && until > clock.nowMs()) return reject('unknown_device', msg.mac, topic);
    const queue = loading.get(msg.mac);
    if (queue) {
      queue.push(msg);
      return;
    }
    loading.set(msg.mac, [msg]);
    load(msg.mac);
  }

  async function commit(): Promise<void> {
    const nowMs = clock.nowMs();
    for (const ctx of devices.values()) {
      if (!ctx.bucket || nowMs - ctx.lastFrameAtMs < graceSec * 1000) continue;
      if (nowMs >= (ctx.bucket.minuteStartSec + MINUTE_SEC + graceSec) * 1000) closeMinute(ctx);
    }
    const batch = pending;
    const rows = rowsOf(batch);
    if (rows === 0) return;
    pending = emptyPending();
    const started = performance.now();
    try {
      const { conflicted } = await repository.writeBatch({
        quarters: [...batch.quarters.values()],
        minutes: [...batch.minutes.values()],
        cursors: [...batch.cursors.values()],
        states: [...batch.states.values()],
        statusChanges: batch.statusChanges,
        meterTests: batch.meterTests,
      });
      if (conflicted.length) dropStale(conflicted);
      metrics.commitSeconds.observe((performance.now() - started) / 1000);
      metrics.batchRows.observe(rows);
      const doneSec = clock.nowMs() / 1000;
      for (const m of batch.minutes.values()) {
        metrics.minuteDelaySeconds.observe(Math.max(0, doneSec - (m.agg.minuteStartSec + MINUTE_SEC)));
      }
    } catch (e) {
      metrics.commitFailures.inc();
      logger.error({ err: e, rows }, 'telemetry commit failed; retrying with the next batch');
      restore(batch);
    }
    metrics.pending.set(rowsOf(pending));
  }

  // Another writer moved these devices' cursors (a second ingest on the same device): what this
  // process holds for them is stale, so drop it and reload from the store on the next message.
  function dropStale(deviceIds: readonly number[]): void {
    const stale = new Set(deviceIds);
    for (const [mac, ctx] of devices) {
      if (!stale.has(ctx.id)) continue;
      devices.delete(mac);
      metrics.rejects.inc({ reason: 'cursor_conflict' });
      burst('cursor_conflict', { mac }, 'another writer advanced this device; reloading its position');
    }
    for (const [k, q] of pending.quarters) if (stale.has(q.deviceId)) pending.quarters.delete(k);
    for (const [k, m] of pending.minutes) if (stale.has(m.deviceId)) pending.minutes.delete(k);
    for (const id of stale) pending.cursors.delete(id);
  }

  // Puts a failed batch back under what arrived since, so nothing is lost or counted twice.
  function restore(failed: Pending): void {
    const newer = pending;
    pending = failed;
    for (const [k, row] of newer.quarters) {
      const old = pending.quarters.get(k);
      if (old) addInto(old.values, row.values);
      else pending.quarters.set(k, row);
    }
    for (const [k, row] of newer.minutes) {
      const old = pending.minutes.get(k);
      pending.minutes.set(k, old ? { deviceId: row.deviceId, agg: mergeMinutes(old.agg, row.agg) } : row);
    }
    for (const [k, c] of newer.cursors) {
      const old = pending.cursors.get(k);
      pending.cursors.set(k, old ? { ...c, fromTsSec: old.fromTsSec } : c);
    }
    for (const [k, s] of newer.states) pending.states.set(k, s);
    pending.statusChanges.push(...newer.statusChanges);
    pending.meterTests.push(...newer.meterTests);
  }

  /** Commits everything pending now (one transaction at a time). */
  async function flush(): Promise<void> {
    while (flushing) await flushing;
    flushing = commit().finally(() => {
      flushing = null;
    });
    await flushing;
  }

  return {
    handle,
    flush,
    /** Rows waiting for the next transaction. */
    pendingRows: () => rowsOf(pending),
    /** Starts periodic commits. */
    start(): void {
      timer ??= setInterval(() => void flush(), flushIntervalMs);
    },
    /** Forgets a removed device so its mac is looked up again. */
    forgetDevice(mac: string): void {
      devices.delete(mac);
      unknownUntil.delete(mac);
    },
    /** Stops commits after writing every open minute and pending row. */
    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      if (soon) clearTimeout(soon);
      timer = null;
      soon = null;
      while (lookups.size) await Promise.all(lookups);
      for (const ctx of devices.values()) closeMinute(ctx);
      await flush();
    },
  };
}

/** The ingest pipeline. */
export type Ingest = ReturnType<typeof createIngest>;
