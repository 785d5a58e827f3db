// History backfill: writes the past year of quarter-hour energy and recent weeks of one-minute
// profiles for simulated (demo) devices straight to the store, from the same physics the live
// simulator uses, so charts have believable history on first start.
import { createHistory } from '@meterportal/simulator';
import { OnlineStatus, type DeviceTypeId } from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { Logger } from './burst-log';
import { registerChannels, energyRowValues } from './columns';
import { QUARTER_SEC } from './energy-deltas';
import { MINUTE_SEC, addSample, finishMinute, frameChannels, newMinuteBucket } from './minute-aggregate';
import type { MinuteRow, QuarterRow, StatusChangeRow, TelemetryRepository } from './telemetry.repository';

/** A device to backfill. */
export interface BackfillDevice {
  id: number;
  mac: string;
  type: DeviceTypeId;
  /** Phases wired (phase_use); default by type. */
  phases?: 1 | 2 | 3;
}

/** What the backfill needs. */
export interface BackfillDeps {
  repository: TelemetryRepository;
  clock: Clock;
  logger: Logger;
}

/** How much history to write. */
export interface BackfillOptions {
  /** Days of quarter-hour energy (default 365). */
  quarterDays?: number;
  /** Days of one-minute profiles (default 14). */
  minuteDays?: number;
  /** Rewrite even when the device already has history. */
  force?: boolean;
}

/** What was written. */
export interface BackfillReport {
  devices: number;
  skipped: number;
  quarterRows: number;
  minuteRows: number;
  /** Status transitions written (power cuts of the simulated past). */
  statusChanges: number;
  elapsedMs: number;
}

// Rows per insert transaction: bounded memory, few commits.
const ROWS_PER_WRITE = 8000;

/** Backfills every device that has no history yet. */
export async function backfillHistory(
  deps: BackfillDeps,
  devices: readonly BackfillDevice[],
  opts: BackfillOptions = {},
): Promise<BackfillReport> {
  const started = performance.now();
  const nowSec = Math.floor(deps.clock.nowMs() / 1000);
  // History stops where live ingest starts: the current quarter and minute belong to it.
  const endQuarter = nowSec - (nowSec % QUARTER_SEC);
  const endMinute = nowSec - (nowSec % MINUTE_SEC);
  const fromQuarter = endQuarter - (opts.quarterDays ?? 365) * 86400;
  const fromMinute = endMinute - (opts.minuteDays ?? 14) * 86400;
  const report: BackfillReport = {
    devices: 0,
    skipped: 0,
    quarterRows: 0,
    minuteRows: 0,
    statusChanges: 0,
    elapsedMs: 0,
  };

  async function one(device: BackfillDevice): Promise<void> {
    const first = await deps.repository.firstQuarterSec(device.id);
    if (!opts.force && first !== null && first <= fromQuarter + 86400) {
      report.skipped++;
      return;
    }
    const history = createHistory(device.type, device.mac, device.phases);
    let quarters: QuarterRow[] = [];
    let minutes: MinuteRow[] = [];
    const write = async () => {
      await deps.repository.insertHistory(quarters, minutes);
      report.quarterRows += quarters.length;
      report.minuteRows += minutes.length;
      quarters = [];
      minutes = [];
    };
    for (const q of history.quarters(fromQuarter, endQuarter)) {
      quarters.push({
        deviceId: device.id,
        tsSec: q.startSec,
        values: energyRowValues(registerChannels(q.energy)),
      });
      if (quarters.length >= ROWS_PER_WRITE) await write();
    }
    for (let m = fromMinute; m < endMinute; m += MINUTE_SEC) {
      const samples = history.minute(m);
      if (samples.length === 0) continue; // power cut: no measurements
      const bucket = newMinuteBucket(m);
      for (const s of samples) addSample(bucket, frameChannels(s));
      minutes.push({ deviceId: device.id, agg: finishMinute(bucket) });
      if (minutes.length >= ROWS_PER_WRITE) await write();
    }
    await write();
    // Availability: online from the start of the history, offline through each power cut.
    const changes: StatusChangeRow[] = [
      { deviceId: device.id, atMs: fromQuarter * 1000, status: OnlineStatus.Online, connection: null },
    ];
    for (const o of history.outages(fromQuarter, endMinute)) {
      changes.push({
        deviceId: device.id,
        atMs: o.fromSec * 1000,
        status: OnlineStatus.Offline,
        connection: null,
      });
      if (o.toSec < endMinute)
        changes.push({
          deviceId: device.id,
          atMs: o.toSec * 1000,
          status: OnlineStatus.Online,
          connection: null,
        });
    }
    await deps.repository.insertStatusChanges(changes);
    report.statusChanges += changes.length;
    report.devices++;
  }
  // Two at a time: one device's rows are generated while the other's are written.
  const queue = [...devices];
  const worker = async () => {
    for (let d = queue.shift(); d; d = queue.shift()) await one(d);
  };
  await Promise.all([worker(), worker()]);
  report.elapsedMs = Math.round(performance.now() - started);
  deps.logger.info({ ...report }, 'history backfill done');
  return report;
}
