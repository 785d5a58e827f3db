// Device messages in, rows out: validates, folds live frames into minute aggregates and
// quarter-hour energy, tracks online status, and writes it all in batched transactions.
// Idempotent on (device, ts): the register cursor commits with the energy it produced and with
// the partial sums of the device's open minute, and a frame at or before it is a redelivery and
// is ignored. Meter test results (accutest/data) are stored too, keyed (device, IDN, test time),
// so a redelivered result is not stored twice.
//
// A message is acknowledged to its broker only after the transaction holding all it contributes
// has committed (its ack is released by the next commit), so a crash loses nothing a meter was
// told was taken: the broker delivers it again and the cursor applies it exactly once.
import {
  CLOCK_AHEAD_TOLERANCE_SEC,
  CLOCK_BEHIND_LIMIT_SEC,
  DEVICE_PUBLISH_KINDS,
  DeviceType,
  decodeDeviceMessage,
  onlineStatusOf,
  type DeviceMessage,
  type LiveFrame,
  type StateMessage,
} from '@meterportal/protocol';
import type { Clock } from '../clock';
import { createBurstLogger, type Logger } from './burst-log';
import { energyRowValues, registerChannels } from './columns';
import { DEFAULT_DELTA_LIMITS, addInto, registerDeltas, type DeltaLimits } from './energy-deltas';
import type { TelemetryMetrics } from './metrics';
import {
  MINUTE_SEC,
  addSample,
  decodeOpenMinute,
  encodeOpenMinute,
  finishMinute,
  frameChannels,
  mergeMinutes,
  minuteStart,
  newMinuteBucket,
  type MinuteBucket,
} from './minute-aggregate';
import type {
  ClockRow,
  CursorMove,
  CursorRow,
  MeterTestRow,
  MinuteRow,
  QuarterRow,
  StateRow,
  StatusChangeRow,
  TelemetryBatch,
  TelemetryRepository,
} from './telemetry.repository';

/** Tells the broker a message was taken; called once what it contributes is committed. */
export type Ack = () => void;

// The clock bounds live in the protocol package, so the web app tells the same numbers.
export { CLOCK_AHEAD_TOLERANCE_SEC, CLOCK_BEHIND_LIMIT_SEC };

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
  /** The host's clock that device times are checked against (default: clock). */
  hostClock?: Clock;
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
  /** Once started, a message waiting for its acknowledgement is committed at most this long after it came, ms (default 50). */
  ackCommitMs?: number;
  /** Unknown macs are looked up again after this long, ms (default 30 s). */
  unknownRetryMs?: number;
  /** A device look-up the store did not answer is tried again after this long, ms (default 1 s). */
  lookupRetryMs?: number;
}

interface DeviceCtx {
  id: number;
  /** Device type (DeviceType); accuracy tests come only from analyzers. */
  type: number;
  mac: string;
  /** How far its clock was off when its frames were last refused, s; null while right. */
  clockSkewSec: number | null;
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
  clocks: Map<number, ClockRow>;
  /** Acknowledgements released once this batch has committed. */
  acks: Ack[];
}
const emptyPending = (): Pending => ({
  quarters: new Map(),
  minutes: new Map(),
  cursors: new Map(),
  states: new Map(),
  statusChanges: [],
  meterTests: [],
  clocks: new Map(),
  acks: [],
});
const rowsOf = (p: Pending) =>
  p.quarters.size +
  p.minutes.size +
  p.cursors.size +
  p.states.size +
  p.statusChanges.length +
  p.meterTests.length +
  p.clocks.size;

/** The rows of a batch that belong to the given devices. */
function pickDevices(b: TelemetryBatch, keep: (deviceId: number) => boolean): TelemetryBatch {
  const k = (r: { deviceId: number }) => keep(r.deviceId);
  return {
    quarters: b.quarters.filter(k),
    minutes: b.minutes.filter(k),
    cursors: b.cursors.filter(k),
    states: b.states.filter(k),
    statusChanges: b.statusChanges.filter(k),
    meterTests: b.meterTests.filter(k),
    clocks: (b.clocks ?? []).filter(k),
  };
}

/** The pending rows of the given devices (acks stay with the caller). */
function pickPending(p: Pending, keep: (deviceId: number) => boolean): Pending {
  const out = emptyPending();
  for (const [k, r] of p.quarters) if (keep(r.deviceId)) out.quarters.set(k, r);
  for (const [k, r] of p.minutes) if (keep(r.deviceId)) out.minutes.set(k, r);
  for (const [k, r] of p.cursors) if (keep(k)) out.cursors.set(k, r);
  for (const [k, r] of p.states) if (keep(k)) out.states.set(k, r);
  for (const [k, r] of p.clocks) if (keep(k)) out.clocks.set(k, r);
  out.statusChanges = p.statusChanges.filter((r) => keep(r.deviceId));
  out.meterTests = p.meterTests.filter((r) => keep(r.deviceId));
  return out;
}

function devicesOf(b: TelemetryBatch): number[] {
  const ids = new Set<number>();
  for (const list of [
    b.quarters,
    b.minutes,
    b.cursors,
    b.states,
    b.statusChanges,
    b.meterTests,
    b.clocks ?? [],
  ]) {
    for (const r of list) ids.add(r.deviceId);
  }
  return [...ids].sort((a, z) => a - z);
}

const ACCEPTED_KINDS: ReadonlySet<string> = new Set(DEVICE_PUBLISH_KINDS);

/**
 * Whether the database refused the data itself, so writing it again would fail again:
 * PostgreSQL's data exceptions and integrity violations (SQLSTATE classes 22 and 23), SQLite's
 * constraint, type and size errors.
 */
export function isRefusal(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return /^2[23][0-9A-Z]{3}$/.test(code) || /^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE)/.test(code);
}

/** Device-hours of the rollup recomputed per transaction (60 minute rows each). */
const HOUR_REFRESH_BATCH = 500;
/** Seconds at the start of each minute left to the commits of the minutes that just closed. */
const HOUR_REFRESH_QUIET_SEC = 10;

/** Creates the ingest pipeline; call start() to begin periodic commits. */
export function createIngest(deps: IngestDeps) {
  const { repository, logger, clock, metrics, listeners = {} } = deps;
  const hostClock = deps.hostClock ?? clock;
  const limits = deps.limits ?? DEFAULT_DELTA_LIMITS;
  const flushIntervalMs = deps.flushIntervalMs ?? 1000;
  const graceSec = deps.minuteGraceSec ?? 5;
  const unknownRetryMs = deps.unknownRetryMs ?? 30_000;
  const burst = createBurstLogger(logger, clock);

  const devices = new Map<string, DeviceCtx>();
  const byId = new Map<number, DeviceCtx>();
  const loading = new Map<string, { message: DeviceMessage; ack: Ack | undefined }[]>();
  const unknownUntil = new Map<string, number>();
  let pending = emptyPending();
  let flushing: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let soon: NodeJS.Timeout | null = null;
  const minuteCommitMs = deps.minuteCommitMs ?? 200;
  const ackCommitMs = deps.ackCommitMs ?? 50;
  const lookups = new Set<Promise<void>>();
  const retries = new Set<NodeJS.Timeout>();
  const lookupRetryMs = deps.lookupRetryMs ?? 1000;

  function reject(reason: string, detail: string, topic: string, ack: Ack | undefined): void {
    metrics.rejects.inc({ reason });
    burst(reason, { reason, detail, topic: topic.slice(0, 120) }, 'device message dropped');
    // Taken, though not stored: delivering it again would not change that.
    if (ack) holdAck(ack);
  }

  // A waiting acknowledgement brings the next commit forward: a publisher that sends its next
  // message only after the last one's acknowledgement (a client resending its queue after a
  // reconnect) is not held to one message per commit interval.
  function holdAck(ack: Ack): void {
    pending.acks.push(ack);
    commitSoon(ackCommitMs);
  }

  function commitSoon(delayMs: number): void {
    if (!timer || soon) return;
    soon = setTimeout(() => {
      soon = null;
      void flush();
    }, delayMs);
  }

  function setCtx(mac: string, ctx: DeviceCtx): void {
    devices.set(mac, ctx);
    byId.set(ctx.id, ctx);
  }

  function dropCtx(mac: string): void {
    const ctx = devices.get(mac);
    if (ctx && byId.get(ctx.id) === ctx) byId.delete(ctx.id);
    devices.delete(mac);
  }

  // A meter's clock, as the time of what it sends tells it: refused when too far ahead or behind
  // the server clock, and shown to its users until a frame is right again.
  function clockRefusal(ctx: DeviceCtx, tsSec: number, kind: string): string | null {
    const skewSec = tsSec - hostClock.nowMs() / 1000;
    const reason =
      skewSec > CLOCK_AHEAD_TOLERANCE_SEC
        ? 'clock_ahead'
        : skewSec < -CLOCK_BEHIND_LIMIT_SEC
          ? 'clock_behind'
          : null;
    if (reason === null) {
      if (ctx.clockSkewSec !== null) noteClock(ctx, null);
      return null;
    }
    metrics.clockRefusals.inc({ reason });
    burst(
      `${reason}:${ctx.mac}`,
      { mac: ctx.mac, kind, tsSec, skewSec: Math.round(skewSec) },
      `device message refused: device clock ${reason === 'clock_ahead' ? 'ahead' : 'behind'}`,
    );
    const rounded = Math.max(-2e9, Math.min(2e9, Math.round(skewSec)));
    // Stored again only when the error changes noticeably, not with every refused frame.
    if (ctx.clockSkewSec === null || Math.abs(ctx.clockSkewSec - rounded) > CLOCK_AHEAD_TOLERANCE_SEC)
      noteClock(ctx, rounded);
    return reason;
  }

  function noteClock(ctx: DeviceCtx, skewSec: number | null): void {
    ctx.clockSkewSec = skewSec;
    pending.clocks.set(ctx.id, { deviceId: ctx.id, skewSec, status: ctx.status ?? 1, atMs: clock.nowMs() });
  }

  function closeMinute(ctx: DeviceCtx): void {
    if (!ctx.bucket || ctx.bucket.samples === 0) return;
    const agg = finishMinute(ctx.bucket);
    ctx.bucket = null;
    const key = `${ctx.id}:${agg.minuteStartSec}`;
    const prior = pending.minutes.get(key);
    pending.minutes.set(key, { deviceId: ctx.id, agg: prior ? mergeMinutes(prior.agg, agg) : agg });
    // The stored open minute goes in the same transaction as its row.
    if (ctx.cursor && !pending.cursors.has(ctx.id))
      pending.cursors.set(ctx.id, { ...ctx.cursor, fromTsSec: ctx.cursor.tsSec });
  }

  function onLive(ctx: DeviceCtx, mac: string, frame: LiveFrame): void {
    if (clockRefusal(ctx, frame.ts, 'live')) return;
    if (ctx.cursor && frame.ts <= ctx.cursor.tsSec) {
      metrics.duplicates.inc();
      return;
    }
    listeners.onLive?.(mac, ctx.id, frame);
    ctx.lastFrameAtMs = clock.nowMs();
    const registers = registerChannels(frame);
    if (ctx.cursor) {
      const { buckets, anomalies } = registerDeltas(
        { tsSec: ctx.cursor.tsSec, values: ctx.cursor.registers },
        { tsSec: frame.ts, values: registers },
        limits,
      );
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
      commitSoon(minuteCommitMs);
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

  function process(ctx: DeviceCtx, message: DeviceMessage, ack: Ack | undefined): void {
    if (
      (message.kind === 'accutest/data' || message.kind === 'accutest/state') &&
      ctx.type !== DeviceType.Precision
    ) {
      return reject('not_analyzer', message.mac, message.kind, ack);
    }
    // Released by the next commit, which holds everything this message changed.
    if (ack) holdAck(ack);
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
        if (clockRefusal(ctx, message.payload.MTIME, message.kind)) return;
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

  function contextOf(
    mac: string,
    id: number,
    type: number,
    loaded: {
      cursor: CursorRow | null;
      status: number | null;
      openMinute: Uint8Array | null;
      clockSkewSec: number | null;
    },
  ): DeviceCtx {
    const bucket = decodeOpenMinute(loaded.openMinute);
    return {
      id,
      type,
      mac,
      cursor: loaded.cursor,
      status: loaded.status,
      clockSkewSec: loaded.clockSkewSec,
      // The open minute of frames acknowledged before a restart, rebuilt from its partial sums.
      bucket: bucket && loaded.cursor && bucket.minuteStartSec <= loaded.cursor.tsSec ? bucket : null,
      lastFrameAtMs: clock.nowMs(),
    };
  }

  function load(mac: string): void {
    const p = repository
      .deviceByMac(mac)
      .then(async (device) => {
        const queued = loading.get(mac) ?? [];
        if (device === null) {
          loading.delete(mac);
          unknownUntil.set(mac, clock.nowMs() + unknownRetryMs);
          for (const m of queued) reject('unknown_device', mac, m.message.kind, m.ack);
          return;
        }
        const { id, type } = device;
        const ctx = contextOf(mac, id, type, await repository.loadDeviceContext(id));
        // A device recovered at start-up meanwhile keeps what it already holds.
        const known = devices.get(mac) ?? ctx;
        setCtx(mac, known);
        loading.delete(mac);
        for (const m of queued) process(known, m.message, m.ack);
      })
      .catch((e: unknown) => {
        // The store is unreachable: keep the messages, unacknowledged, and look again shortly.
        metrics.rejects.inc({ reason: 'store_unavailable' });
        burst('device_lookup', { err: e, mac }, 'device lookup failed; retrying');
        const retry = setTimeout(() => {
          retries.delete(retry);
          if (loading.has(mac)) load(mac);
        }, lookupRetryMs);
        retries.add(retry);
      })
      .finally(() => lookups.delete(p));
    lookups.add(p);
  }

  /** Takes one decoded device message; never throws. `ack` is called once it is durable. */
  function accept(msg: DeviceMessage, publisher?: string, ack?: Ack): void {
    if (!ACCEPTED_KINDS.has(msg.kind)) return reject('wrong_topic', msg.kind, msg.kind, ack);
    if (publisher !== undefined && publisher !== msg.mac)
      return reject('wrong_topic', `published by ${publisher}`, msg.kind, ack);
    const ctx = devices.get(msg.mac);
    if (ctx) return process(ctx, msg, ack);
    const until = unknownUntil.get(msg.mac);
    if (until !== undefined && until > clock.nowMs()) return reject('unknown_device', msg.mac, msg.kind, ack);
    const queue = loading.get(msg.mac);
    if (queue) {
      queue.push({ message: msg, ack });
      return;
    }
    loading.set(msg.mac, [{ message: msg, ack }]);
    load(msg.mac);
  }

  /**
   * Takes one raw MQTT message; never throws. `publisher` is the broker username when known;
   * `ack` tells the broker the message was taken and is called only once it is committed.
   */
  function handle(topic: string, payload: Uint8Array, publisher?: string, ack?: Ack): void {
    const r = decodeDeviceMessage(topic, payload);
    if (!r.ok) return reject(r.reason, r.detail, topic, ack);
    accept(r.message, publisher, ack);
  }

  /** Rebuilds, after a restart, the open minutes that were committed with their devices' positions. */
  async function recover(): Promise<number> {
    const open = await repository.openContexts();
    for (const o of open) {
      if (devices.has(o.mac)) continue;
      setCtx(o.mac, contextOf(o.mac, o.cursor.deviceId, o.type, o));
    }
    return open.length;
  }

  async function commit(): Promise<void> {
    const nowMs = clock.nowMs();
    for (const ctx of devices.values()) {
      if (!ctx.bucket || nowMs - ctx.lastFrameAtMs < graceSec * 1000) continue;
      if (nowMs >= (ctx.bucket.minuteStartSec + MINUTE_SEC + graceSec) * 1000) closeMinute(ctx);
    }
    const batch = pending;
    const rows = rowsOf(batch);
    pending = emptyPending();
    if (rows === 0) {
      release(batch.acks);
      return;
    }
    // Each position is stored with its device's open minute as it stands now: both describe
    // exactly the frames taken so far.
    const cursors = [...batch.cursors.values()].map((c) => {
      const bucket = byId.get(c.deviceId)?.bucket;
      return { ...c, openMinute: bucket && bucket.samples > 0 ? encodeOpenMinute(bucket) : null };
    });
    const all: TelemetryBatch = {
      quarters: [...batch.quarters.values()],
      minutes: [...batch.minutes.values()],
      cursors,
      states: [...batch.states.values()],
      statusChanges: batch.statusChanges,
      meterTests: batch.meterTests,
      clocks: [...batch.clocks.values()],
    };
    const unwritten = await writeSplitting(all, null);
    if (unwritten.length) {
      metrics.commitFailures.inc();
      metrics.storeUp.set(0);
      const keep = new Set(unwritten);
      const back = pickPending(batch, (id) => keep.has(id));
      back.acks = batch.acks;
      restore(back);
    } else {
      metrics.storeUp.set(1);
      release(batch.acks);
    }
    metrics.pending.set(rowsOf(pending));
  }

  function release(acks: readonly Ack[]): void {
    for (const ack of acks) ack();
  }

  async function writeRows(part: TelemetryBatch): Promise<void> {
    const started = performance.now();
    const { conflicted } = await repository.writeBatch(part);
    if (conflicted.length) dropStale(conflicted);
    metrics.commitSeconds.observe((performance.now() - started) / 1000);
    metrics.batchRows.observe(
      part.quarters.length +
        part.minutes.length +
        part.cursors.length +
        part.states.length +
        part.statusChanges.length +
        part.meterTests.length,
    );
    const doneSec = clock.nowMs() / 1000;
    for (const m of part.minutes) {
      metrics.minuteDelaySeconds.observe(Math.max(0, doneSec - (m.agg.minuteStartSec + MINUTE_SEC)));
    }
  }

  /**
   * Writes a batch; if the database refuses it while still answering, the batch is split by
   * device (halves, recursively) so every other meter's rows are stored and only the rows of the
   * device the database refuses are dropped. Returns the devices left unwritten because the
   * database is unreachable (they go back to pending).
   */
  async function writeSplitting(part: TelemetryBatch, ids: number[] | null): Promise<number[]> {
    try {
      await writeRows(part);
      return [];
    } catch (e) {
      const devicesHere = ids ?? devicesOf(part);
      // Anything but a refusal of the data (a lost connection, a timeout, a full disk) is an
      // outage: nothing is dropped, the rows wait for the next commit.
      if (!isRefusal(e) || !(await repository.reachable())) {
        burst(
          'commit_failed',
          { err: e, rows: devicesHere.length },
          'telemetry commit failed; the store is unreachable, retrying with the next batch',
        );
        return devicesHere;
      }
      if (devicesHere.length === 1) return refused(part, devicesHere[0]!, e);
      const mid = Math.ceil(devicesHere.length / 2);
      const left = devicesHere.slice(0, mid);
      const right = devicesHere.slice(mid);
      const inLeft = new Set(left);
      const notWritten = await writeSplitting(
        pickDevices(part, (id) => inLeft.has(id)),
        left,
      );
      // Unreachable now: the rest is not tried, and goes back with what failed.
      if (notWritten.length) return [...notWritten, ...right];
      return writeSplitting(
        pickDevices(part, (id) => !inLeft.has(id)),
        right,
      );
    }
  }

  // The database answers but refuses this device's rows. Its texts (state, meter tests) are the
  // usual cause: without them its energy, minutes and position are stored; if those are refused
  // too, all of its rows in the batch go and it is reloaded from what is stored.
  async function refused(part: TelemetryBatch, deviceId: number, err: unknown): Promise<number[]> {
    const ctx = byId.get(deviceId);
    const mac = ctx?.mac ?? String(deviceId);
    const numeric = { ...part, states: [], statusChanges: [], meterTests: [] };
    const texts = part.states.length + part.statusChanges.length + part.meterTests.length;
    let dropped =
      part.quarters.length + part.minutes.length + part.cursors.length + (part.clocks?.length ?? 0) + texts;
    if (texts > 0) {
      try {
        await writeRows(numeric);
        dropped = texts;
      } catch (e2) {
        if (!isRefusal(e2) || !(await repository.reachable())) return [deviceId];
      }
    }
    if (dropped > texts || texts === 0) {
      // Nothing of the batch was stored for it: what this process holds is ahead of the store.
      if (ctx) dropCtx(ctx.mac);
      dropDeviceRows(deviceId);
    }
    metrics.storeRefusals.inc();
    metrics.rejects.inc({ reason: 'refused_by_store' }, dropped);
    burst(
      `refused:${mac}`,
      { mac, deviceId, rows: dropped, err: err instanceof Error ? err.message.slice(0, 200) : String(err) },
      "the database refused this device's rows; they were dropped",
    );
    return [];
  }

  function dropDeviceRows(deviceId: number): void {
    for (const [k, q] of pending.quarters) if (q.deviceId === deviceId) pending.quarters.delete(k);
    for (const [k, m] of pending.minutes) if (m.deviceId === deviceId) pending.minutes.delete(k);
    pending.cursors.delete(deviceId);
  }

  // Another writer moved these devices' cursors (a second ingest on the same device): what this
  // process holds for them is stale, so drop it and reload from the store on the next message.
  function dropStale(deviceIds: readonly number[]): void {
    const stale = new Set(deviceIds);
    for (const [mac, ctx] of devices) {
      if (!stale.has(ctx.id)) continue;
      dropCtx(mac);
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
    for (const [k, c] of newer.clocks) pending.clocks.set(k, c);
    pending.statusChanges.push(...newer.statusChanges);
    pending.meterTests.push(...newer.meterTests);
    pending.acks.push(...newer.acks);
  }

  // Hours of the rollup are recomputed once each, after they ended (a minute closes up to the
  // grace after its end): at most once a commit interval, a bounded number of device-hours per
  // transaction, away from the first seconds of a minute when the minutes of every meter close.
  let hoursDueAtMs = 0;
  async function refreshHours(): Promise<void> {
    const nowMs = clock.nowMs();
    if (nowMs < hoursDueAtMs) return;
    const nowSec = Math.floor(nowMs / 1000);
    if (nowSec % MINUTE_SEC < HOUR_REFRESH_QUIET_SEC) return;
    const done = await repository.refreshEndedHours(nowSec - graceSec - MINUTE_SEC, HOUR_REFRESH_BATCH);
    hoursDueAtMs =
      done < HOUR_REFRESH_BATCH
        ? (Math.floor(nowSec / 3600) * 3600 + 3600 + graceSec + MINUTE_SEC + HOUR_REFRESH_QUIET_SEC) * 1000
        : nowMs + flushIntervalMs;
  }

  async function commitAndRefresh(): Promise<void> {
    await commit();
    try {
      await refreshHours();
    } catch (e) {
      // The marks stay: the hours are recomputed at a later commit; reads use their minutes meanwhile.
      burst('hour-refresh', { err: e }, 'hourly rollup not refreshed');
      hoursDueAtMs = clock.nowMs() + flushIntervalMs;
    }
  }

  /** Commits everything pending now (one transaction at a time). */
  async function flush(): Promise<void> {
    while (flushing) await flushing;
    flushing = commitAndRefresh().finally(() => {
      flushing = null;
    });
    await flushing;
  }

  return {
    handle,
    accept,
    recover,
    flush,
    /** Resolves once every device look-up under way has ended (its messages taken). */
    async settled(): Promise<void> {
      while (lookups.size) await Promise.all(lookups);
    },
    /** Rows waiting for the next transaction. */
    pendingRows: () => rowsOf(pending),
    /** Starts periodic commits. */
    start(): void {
      timer ??= setInterval(() => void flush(), flushIntervalMs);
    },
    /** Forgets a removed device so its mac is looked up again. */
    forgetDevice(mac: string): void {
      dropCtx(mac);
      unknownUntil.delete(mac);
    },
    /** Stops commits after writing every open minute and pending row. */
    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      if (soon) clearTimeout(soon);
      for (const r of retries) clearTimeout(r);
      retries.clear();
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
