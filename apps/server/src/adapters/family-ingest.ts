// Messages of adapted device families into ingest: the topic names the family device, its
// decoder turns the payload into a reading or an online state, and ingest takes it as that
// device's live frame or state, exactly as if the device spoke the portal's own protocol.
// A payload that cannot be read is refused and counted (`adapter_<reason>`), and nothing of it is
// stored. Shelly status components are merged per device, as NotifyStatus sends only changes.
// P1 bridges and JSON gateways publish no online topic of their own: such a device is online
// while its readable messages arrive, and offline once it has been silent for the presence
// timeout (5 minutes unless set). A P1 meter's own record of the Belgian capacity tariff (monthly
// peaks, running average demand) is stored beside its frames, from telegrams that are taken.
import {
  CLOCK_AHEAD_TOLERANCE_SEC,
  CLOCK_BEHIND_LIMIT_SEC,
  LiveFrame,
  type DeviceMessage,
} from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { Ack } from '../broker/broker-link';
import { createBurstLogger, type Logger } from '../telemetry/burst-log';
import type { TelemetryMetrics } from '../telemetry/metrics';
import type { FamilyDeviceRow, FamilyDevicesRepository } from './family-devices.repository';
import { parseFamilyTopic } from './families';
import { decodeJsonMeter } from './json';
import { decodeP1, type P1Telegram } from './p1';
import { capacityReport, type CapacityRecorder } from './p1-capacity';
import { readingToFrame, type AdapterReject, type MeterReading } from './reading';
import { decodeShelly, mergeShelly, shellyReading, type ShellyComponents } from './shelly';
import { decodeTasmota } from './tasmota';

/** What the family adapters need. */
export interface FamilyIngestDeps {
  repository: FamilyDevicesRepository;
  /** Ingest's entry for decoded device messages. */
  accept(message: DeviceMessage, publisher?: string, ack?: Ack): void;
  clock: Clock;
  /** The installation's time zone: device clocks run in it unless the device names its own. */
  tz: string;
  metrics: TelemetryMetrics;
  logger: Logger;
  /** An unknown topic is looked up again after this long, ms (default 30 s). */
  unknownRetryMs?: number;
  /** A JSON meter's mapping is read again after this long, ms (default 10 s), so edits take hold. */
  mappingRefreshMs?: number;
  /** A P1 or JSON meter silent this long is offline, ms (default 5 minutes). */
  presenceTimeoutMs?: number;
  /** Stores the capacity-tariff values P1 meters report; without it they are not kept. */
  capacity?: CapacityRecorder;
}

/** Families without an online topic: their devices are present while their messages arrive. */
export const PRESENCE_BY_ARRIVAL: readonly FamilyDeviceRow['family'][] = ['p1', 'json'];
const DEFAULT_PRESENCE_TIMEOUT_MS = 5 * 60_000;
/** How often silent devices are looked for, ms. */
const PRESENCE_CHECK_MS = 15_000;

/** What one family message became (for the caller's tests and logs). */
type Outcome = 'frame' | 'state' | 'ignored' | 'rejected';

interface Queued {
  sub: string;
  payload: Uint8Array;
  publisher: string | undefined;
  ack: Ack | undefined;
}

/** Creates the adapter stage in front of ingest. */
export function createFamilyIngest(deps: FamilyIngestDeps) {
  const { metrics, clock } = deps;
  const burst = createBurstLogger(deps.logger, clock);
  const unknownRetryMs = deps.unknownRetryMs ?? 30_000;
  const mappingRefreshMs = deps.mappingRefreshMs ?? 10_000;
  const known = new Map<string, FamilyDeviceRow>();
  const loadedAt = new Map<string, number>();
  const unknownUntil = new Map<string, number>();
  const loading = new Map<string, Queued[]>();
  const shelly = new Map<string, ShellyComponents>();
  const lookups = new Set<Promise<void>>();
  const presenceTimeoutMs = deps.presenceTimeoutMs ?? DEFAULT_PRESENCE_TIMEOUT_MS;
  /** When each device present by its messages was last heard, ms. */
  const lastHeard = new Map<string, number>();

  function reject(reason: string, detail: string, topic: string, ack: Ack | undefined): Outcome {
    metrics.rejects.inc({ reason });
    burst(reason, { reason, detail, topic: topic.slice(0, 120) }, 'device message dropped');
    ack?.();
    return 'rejected';
  }

  const refused = (r: AdapterReject, device: FamilyDeviceRow, ack: Ack | undefined) =>
    reject(`adapter_${r.reason}`, `${device.mac}: ${r.detail}`, `${device.family}/${device.topic}`, ack);

  function frame(device: FamilyDeviceRow, reading: MeterReading, ack: Ack | undefined): Outcome {
    // A message without the device's own energy register makes no frame: energy is never made
    // up from power, and a register that is not there is not a zero.
    if (!reading.E_I) {
      ack?.();
      return 'ignored';
    }
    const tsSec = reading.tsSec ?? Math.floor(clock.nowMs() / 1000);
    const parsed = LiveFrame.safeParse(readingToFrame(reading, tsSec));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return refused(
        { ok: false, reason: 'schema', detail: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}` },
        device,
        ack,
      );
    }
    deps.accept({ kind: 'live', mac: device.mac, payload: parsed.data }, undefined, ack);
    return 'frame';
  }

  function state(device: FamilyDeviceRow, online: boolean, ack: Ack | undefined): Outcome {
    deps.accept(
      { kind: 'state', mac: device.mac, payload: { status: online ? 'ONLINE' : 'OFFLINE' } },
      undefined,
      ack,
    );
    return 'state';
  }

  /** A readable message of a device present by its messages: online, if it was not. */
  function heard(device: FamilyDeviceRow): void {
    const was = lastHeard.has(device.mac);
    lastHeard.set(device.mac, clock.nowMs());
    if (!was) deps.accept({ kind: 'state', mac: device.mac, payload: { status: 'ONLINE' } });
  }

  /** Devices present by their messages that have been silent for the timeout go offline. */
  function checkPresence(): number {
    const now = clock.nowMs();
    let gone = 0;
    for (const [mac, at] of lastHeard) {
      if (now - at < presenceTimeoutMs) continue;
      lastHeard.delete(mac);
      deps.accept({ kind: 'state', mac, payload: { status: 'OFFLINE' } });
      gone++;
    }
    return gone;
  }

  /**
   * Stores what a taken telegram says of the capacity tariff. A telegram whose time ingest would
   * refuse is not stored either: one dated ahead of the server's clock would keep the meter's later
   * reports from replacing it.
   */
  function capacity(device: FamilyDeviceRow, telegram: P1Telegram, tz: string): void {
    if (!deps.capacity) return;
    const nowSec = Math.floor(clock.nowMs() / 1000);
    const reportedSec = telegram.reading.tsSec ?? nowSec;
    if (reportedSec > nowSec + CLOCK_AHEAD_TOLERANCE_SEC || reportedSec < nowSec - CLOCK_BEHIND_LIMIT_SEC)
      return;
    const report = capacityReport(telegram.capacity, reportedSec, tz);
    if (report) deps.capacity.record(device.mac, report);
  }

  function process(device: FamilyDeviceRow, q: Queued): Outcome {
    const { sub, payload, ack } = q;
    if (q.publisher !== undefined && q.publisher !== device.mac)
      return reject('wrong_topic', `published by ${q.publisher}`, `${device.family}/${device.topic}`, ack);
    const tz = device.tz ?? deps.tz;
    switch (device.family) {
      case 'shelly': {
        const r = decodeShelly(sub, payload);
        if (!r.ok) return refused(r, device, ack);
        if (r.kind === 'online') return state(device, r.online, ack);
        if (r.kind === 'ignored') {
          ack?.();
          return 'ignored';
        }
        const merged = mergeShelly(shelly.get(device.mac) ?? {}, r.components);
        shelly.set(device.mac, merged);
        const reading = shellyReading(merged);
        if (!reading) {
          ack?.();
          return 'ignored';
        }
        return frame(device, r.tsSec === undefined ? reading : { ...reading, tsSec: r.tsSec }, ack);
      }
      case 'tasmota': {
        const r = decodeTasmota(sub, payload, tz);
        if (!r.ok) return refused(r, device, ack);
        if (r.kind === 'online') return state(device, r.online, ack);
        if (r.kind === 'ignored') {
          ack?.();
          return 'ignored';
        }
        return frame(device, r.reading, ack);
      }
      case 'p1': {
        const r = decodeP1(payload, tz);
        if (!r.ok) return refused(r, device, ack);
        heard(device);
        const outcome = frame(device, r.telegram.reading, ack);
        if (outcome !== 'rejected') capacity(device, r.telegram, tz);
        return outcome;
      }
      case 'json': {
        if (!device.mapping)
          return refused({ ok: false, reason: 'schema', detail: 'no mapping stored' }, device, ack);
        const r = decodeJsonMeter(payload, device.mapping);
        if (!r.ok) return refused(r, device, ack);
        heard(device);
        return frame(device, r.reading, ack);
      }
    }
  }

  function load(key: string, family: FamilyDeviceRow['family'], topic: string): void {
    const p = deps.repository
      .byTopic(family, topic)
      .then((device) => {
        const queued = loading.get(key) ?? [];
        loading.delete(key);
        if (!device) {
          unknownUntil.set(key, clock.nowMs() + unknownRetryMs);
          for (const q of queued) reject('unknown_device', key, key, q.ack);
          return;
        }
        known.set(key, device);
        loadedAt.set(key, clock.nowMs());
        for (const q of queued) process(device, q);
      })
      .catch((e: unknown) => {
        // The store did not answer: what waited is left unacknowledged, so the broker resends it.
        loading.delete(key);
        metrics.rejects.inc({ reason: 'store_unavailable' });
        burst('family_lookup', { err: e, key }, 'family device lookup failed');
      })
      .finally(() => lookups.delete(p));
    lookups.add(p);
  }

  return {
    /**
     * Takes one message of an adapted family's topic; false when the topic is no family's (the
     * caller treats it as the portal's own). Never throws.
     */
    handle(topic: string, payload: Uint8Array, publisher?: string, ack?: Ack): boolean {
      const t = parseFamilyTopic(topic);
      if (!t) return false;
      const key = `${t.family}:${t.topic}`;
      const q: Queued = { sub: t.sub, payload, publisher, ack };
      let device = known.get(key);
      // A JSON meter's mapping may be edited: it is read again once it has been held a while.
      if (device?.family === 'json' && clock.nowMs() - (loadedAt.get(key) ?? 0) >= mappingRefreshMs) {
        known.delete(key);
        device = undefined;
      }
      if (device) {
        process(device, q);
        return true;
      }
      const until = unknownUntil.get(key);
      if (until !== undefined && until > clock.nowMs()) {
        reject('unknown_device', key, topic, ack);
        return true;
      }
      const waiting = loading.get(key);
      if (waiting) waiting.push(q);
      else {
        loading.set(key, [q]);
        load(key, t.family, t.topic);
      }
      return true;
    },
    /** Forgets a device's topic and merged state (a device removed or registered anew). */
    forget(family: FamilyDeviceRow['family'], topic: string, mac?: string): void {
      known.delete(`${family}:${topic}`);
      unknownUntil.delete(`${family}:${topic}`);
      if (mac) {
        shelly.delete(mac);
        lastHeard.delete(mac);
        deps.capacity?.forget(mac);
      }
    },
    checkPresence,
    /**
     * Follows the presence of P1 and JSON meters: those stored as online are held online for one
     * timeout from now (they went silent while the portal was down, or they speak again), and
     * silent ones are looked for every 15 s. Answers the function that stops it.
     */
    watchPresence(): () => void {
      const since = clock.nowMs();
      deps.repository
        .onlineOf(PRESENCE_BY_ARRIVAL)
        .then((macs) => {
          for (const mac of macs) if (!lastHeard.has(mac)) lastHeard.set(mac, since);
        })
        .catch((e: unknown) => burst('family_presence', { err: e }, 'family presence lookup failed'));
      const timer = setInterval(checkPresence, PRESENCE_CHECK_MS);
      timer.unref();
      return () => clearInterval(timer);
    },
    /** Resolves once every look-up and every capacity write under way has ended. */
    async settled(): Promise<void> {
      while (lookups.size) await Promise.all(lookups);
      await deps.capacity?.settled();
    },
  };
}

/** The adapter stage in front of ingest. */
export type FamilyIngest = ReturnType<typeof createFamilyIngest>;
