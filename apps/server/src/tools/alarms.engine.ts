// Alarm evaluation where the data arrives: every live frame of a device is checked against that
// device's rules, held in memory (loaded at start, reloaded when a rule changes and on a slow
// refresh), so a frame costs a map look-up and one comparison per rule and no database read.
// Raises and clears are written in their own small statements, in order, off the frame's path,
// and each becomes a notification routed through the rule owner's pairs.
import {
  AlarmRuleDefinition,
  unixMs,
  type AlarmLanguage,
  type LiveFrame,
  type NotificationEntry,
} from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { Logger } from '../telemetry/burst-log';
import {
  QUARTER_SEC,
  clears,
  importedWh,
  projectedDemandW,
  quantityValue,
  violates,
  type Condition,
} from './alarms.fns';
import type { AlarmsRepository, LoadedRuleRow, OpenAlarmRow } from './alarms.repository';
import { alarmText } from './alarms.texts';

/** Where raises and clears are announced (the notifications service). */
export interface AlarmNotifier {
  record(
    deviceId: number,
    mac: string,
    type: 'STATUS',
    data: NotificationEntry['data'],
    onlyUserId?: number,
  ): Promise<unknown>;
}

interface ActiveAlarm {
  /** Stored id, once its row is written. */
  id: number | null;
}

interface RuleRt {
  id: number;
  userId: number;
  lang: AlarmLanguage;
  def: AlarmRuleDefinition;
  /** Frame time the condition began to hold, s; null while it does not. */
  pendingSinceSec: number | null;
  active: ActiveAlarm | null;
}

interface DeviceRt {
  mac: string;
  rules: RuleRt[];
  hasOffline: boolean;
  mrkW: number;
  rkW: number;
  /** Start of the quarter-hour being watched, s, and the imported energy at its first frame. */
  quarterSec: number;
  quarterStartWh: number;
  /** When its last live frame came (clock ms). */
  lastFrameMs: number;
}

/** Default period of the offline check and of the full reload of rules, ms. */
const OFFLINE_CHECK_MS = 10_000;
const REFRESH_MS = 60_000;

/** Evaluates alarm rules on live frames and on a timer (offline rules). */
export function alarmEngine(deps: {
  repo: AlarmsRepository;
  notifier: AlarmNotifier;
  clock: Clock;
  log: Logger;
}) {
  const { repo, notifier, clock, log } = deps;
  const devices = new Map<number, DeviceRt>();
  const generation = new Map<number, number>();
  let writes: Promise<void> = Promise.resolve();

  function enqueue(what: string, job: () => Promise<void>): void {
    writes = writes.then(job).catch((err: unknown) => log.error({ err }, `alarm ${what} not stored`));
  }

  function notify(
    dev: DeviceRt,
    deviceId: number,
    r: RuleRt,
    event: 'raised' | 'cleared',
    value: number | null,
    atMs: number,
  ) {
    return notifier.record(
      deviceId,
      dev.mac,
      'STATUS',
      {
        timestamp: unixMs(atMs),
        event: event === 'raised' ? 'ALARM_RAISED' : 'ALARM_CLEARED',
        name: r.def.name,
        message: alarmText(r.lang, event, r.def, value),
      },
      r.userId,
    );
  }

  function raise(deviceId: number, dev: DeviceRt, r: RuleRt, value: number): void {
    const active: ActiveAlarm = { id: null };
    r.active = active;
    r.pendingSinceSec = null;
    const atMs = clock.nowMs();
    const rounded = Math.round(value * 1000) / 1000;
    enqueue('raise', async () => {
      active.id = await repo.insertAlarm({
        ruleId: r.id,
        userId: r.userId,
        deviceId,
        name: r.def.name,
        severity: r.def.severity,
        value: rounded,
        atMs,
      });
      await notify(dev, deviceId, r, 'raised', rounded, atMs);
    });
  }

  function clear(deviceId: number, dev: DeviceRt, r: RuleRt, value: number | null): void {
    const active = r.active;
    r.active = null;
    r.pendingSinceSec = null;
    if (!active) return;
    const atMs = clock.nowMs();
    const rounded = value === null ? null : Math.round(value * 1000) / 1000;
    enqueue('clear', async () => {
      if (active.id !== null) await repo.clearAlarm(active.id, atMs);
      await notify(dev, deviceId, r, 'cleared', rounded, atMs);
    });
  }

  /** Steps a condition rule with one value at frame time tsSec. */
  function step(
    deviceId: number,
    dev: DeviceRt,
    r: RuleRt,
    c: Condition,
    holdSec: number,
    v: number | null,
    tsSec: number,
  ) {
    // A quantity the device does not measure neither raises nor clears.
    if (v === null) return;
    if (r.active) {
      if (clears(c, v)) clear(deviceId, dev, r, v);
      return;
    }
    if (!violates(c, v)) {
      r.pendingSinceSec = null;
      return;
    }
    r.pendingSinceSec ??= tsSec;
    if (tsSec - r.pendingSinceSec >= holdSec) raise(deviceId, dev, r, v);
  }

  /** Checks one live frame of a device against its rules. */
  function onFrame(deviceId: number, frame: LiveFrame): void {
    const dev = devices.get(deviceId);
    if (!dev) return;
    dev.lastFrameMs = clock.nowMs();
    const quarterSec = Math.floor(frame.ts / QUARTER_SEC) * QUARTER_SEC;
    if (quarterSec !== dev.quarterSec) {
      dev.quarterSec = quarterSec;
      dev.quarterStartWh = importedWh(frame);
    }
    for (const r of dev.rules) {
      const def = r.def;
      switch (def.kind) {
        case 'threshold':
          step(deviceId, dev, r, def, def.holdSec, quantityValue(frame, def.quantity, def.phase), frame.ts);
          break;
        case 'offline':
          if (r.active) clear(deviceId, dev, r, null);
          break;
        case 'demand': {
          const limitW = def.limit === 'MRK' ? dev.mrkW : dev.rkW;
          // No contract limit set: nothing to measure against.
          if (limitW <= 0) break;
          const demandW = projectedDemandW(
            importedWh(frame) - dev.quarterStartWh,
            (frame.P.L1 ?? 0) + (frame.P.L2 ?? 0) + (frame.P.L3 ?? 0),
            frame.ts,
          );
          // Passing the share raises; the alarm stays until the projection falls back to it.
          const c: Condition = {
            condition: 'above',
            threshold: (limitW * def.sharePct) / 100,
            hysteresis: 0,
          };
          step(deviceId, dev, r, c, 0, demandW, frame.ts);
          break;
        }
      }
    }
  }

  /** Raises offline rules whose device has sent nothing for longer than the rule allows. */
  function checkOffline(): void {
    const now = clock.nowMs();
    for (const [deviceId, dev] of devices) {
      if (!dev.hasOffline) continue;
      const silentMs = now - dev.lastFrameMs;
      for (const r of dev.rules) {
        if (r.def.kind !== 'offline' || r.active) continue;
        if (silentMs > r.def.offlineMin * 60_000) raise(deviceId, dev, r, Math.floor(silentMs / 60_000));
      }
    }
  }

  function build(
    deviceId: number,
    rows: LoadedRuleRow[],
    open: OpenAlarmRow[],
    limit: { mrk_w: number; rk_w: number } | undefined,
  ): DeviceRt | null {
    if (rows.length === 0) return null;
    const before = devices.get(deviceId);
    const old = new Map(before?.rules.map((r) => [r.id, r]) ?? []);
    const openOf = new Map(open.map((a) => [a.rule_id, a.id]));
    const rules: RuleRt[] = [];
    for (const row of rows) {
      const parsed = AlarmRuleDefinition.safeParse(JSON.parse(row.definition));
      if (!parsed.success) {
        log.error({ ruleId: row.id }, 'alarm rule unreadable; skipped');
        continue;
      }
      const prior = old.get(row.id);
      const same = prior && JSON.stringify(prior.def) === JSON.stringify(parsed.data);
      const openId = openOf.get(row.id);
      rules.push({
        id: row.id,
        userId: row.user_id,
        lang: row.lang as AlarmLanguage,
        def: parsed.data,
        pendingSinceSec: same ? prior.pendingSinceSec : null,
        // An alarm raised here and not yet written is still this rule's open alarm.
        active: prior?.active ?? (openId !== undefined ? { id: openId } : null),
      });
    }
    return {
      mac: rows[0]!.mac,
      rules,
      hasOffline: rules.some((r) => r.def.kind === 'offline'),
      mrkW: Number(limit?.mrk_w ?? 0),
      rkW: Number(limit?.rk_w ?? 0),
      quarterSec: before?.quarterSec ?? -1,
      quarterStartWh: before?.quarterStartWh ?? 0,
      lastFrameMs: before?.lastFrameMs ?? clock.nowMs(),
    };
  }

  /** Reloads the rules of one device (after a change) or of all. */
  async function reload(deviceId?: number): Promise<void> {
    const key = deviceId ?? 0;
    const gen = (generation.get(key) ?? 0) + 1;
    generation.set(key, gen);
    const [rows, open, limitRows] = await Promise.all([
      repo.rules(deviceId),
      repo.openAlarms(deviceId),
      repo.limits(deviceId),
    ]);
    const limits = new Map(limitRows.map((l) => [l.device_id, l]));
    // A newer reload of the same scope has started meanwhile: it wins.
    if (generation.get(key) !== gen) return;
    const byDevice = new Map<number, LoadedRuleRow[]>();
    const deviceOfRule = new Map<number, number>();
    for (const r of rows) {
      const list = byDevice.get(r.device_id);
      if (list) list.push(r);
      else byDevice.set(r.device_id, [r]);
      deviceOfRule.set(r.id, r.device_id);
    }
    const scope = deviceId === undefined ? [...new Set([...devices.keys(), ...byDevice.keys()])] : [deviceId];
    for (const id of scope) {
      const built = build(
        id,
        byDevice.get(id) ?? [],
        open.filter((a) => deviceOfRule.get(a.rule_id) === id),
        limits.get(id),
      );
      if (built) devices.set(id, built);
      else devices.delete(id);
    }
  }

  return {
    onFrame,
    checkOffline,
    reload,
    /** Resolves once every raise and clear so far is stored and announced. */
    async settled(): Promise<void> {
      let last: Promise<void> | null = null;
      while (last !== writes) {
        last = writes;
        await writes;
      }
    },
    /** Rules held in memory. */
    ruleCount: () => [...devices.values()].reduce((n, d) => n + d.rules.length, 0),
    /** Loads every rule and starts the offline check and the slow refresh; answers the stop. */
    async start(opts: { offlineCheckMs?: number; refreshMs?: number } = {}): Promise<() => Promise<void>> {
      await reload();
      const offline = setInterval(checkOffline, opts.offlineCheckMs ?? OFFLINE_CHECK_MS);
      // Rules changed by a write door in another process reach this one at the next refresh.
      const refresh = setInterval(
        () => void reload().catch((err: unknown) => log.error({ err }, 'alarm rules not reloaded')),
        opts.refreshMs ?? REFRESH_MS,
      );
      offline.unref();
      refresh.unref();
      return async () => {
        clearInterval(offline);
        clearInterval(refresh);
        await writes;
      };
    },
  };
}
/** The alarm evaluator. */
export type AlarmEngine = ReturnType<typeof alarmEngine>;
