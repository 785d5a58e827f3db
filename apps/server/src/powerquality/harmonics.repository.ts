import { DeviceType, OnlineStatus } from '@meterportal/protocol';
import type { Database } from '../db/database';
import type { HarmonicColumn, HarmonicIntervalsTable, TelemetryDB } from '../db/schema.telemetry';
import { HARMONIC_ORDERS, harmonicColumn, type SpectrumInterval } from './harmonics-fns';
import { INTERVAL_SEC } from './pq-shares';

/** One phase's voltage spectrum as polled: % of the fundamental, index 0 the 2nd order. */
export type PhaseSpectrum = readonly (number | null)[];

/** A 10-minute spectrum of one phase, written whole (history from the simulator's physics). */
export interface SpectrumRow {
  deviceId: number;
  intervalSec: number;
  /** 1, 2 or 3. */
  phase: number;
  values: PhaseSpectrum;
}

const ROWS_PER_STATEMENT = 200;

const orderColumns = (values: PhaseSpectrum) =>
  Object.fromEntries(HARMONIC_ORDERS.map((h, i) => [harmonicColumn(h), values[i] ?? null])) as Record<
    HarmonicColumn,
    number | null
  >;

/** rms of the stored value over `samples` polls and one more value. */
const rmsWith = (stored: number | null, samples: number, next: number | null): number | null => {
  if (next === null) return stored;
  if (stored === null) return next;
  return Math.sqrt((stored * stored * samples + next * next) / (samples + 1));
};

/** SQL of the analyzers' polled harmonic spectra. */
export function harmonicsRepository(database: Database) {
  const db = database.db.withTables<TelemetryDB>();
  return {
    /** Analyzers (type 3) whose last state message says online. */
    onlineAnalyzers(): Promise<{ id: number; mac: string }[]> {
      return db
        .selectFrom('devices')
        .innerJoin('device_states', 'device_states.device_id', 'devices.id')
        .select(['devices.id', 'devices.mac'])
        .where('devices.type', '=', DeviceType.Precision)
        .where('device_states.status', '=', OnlineStatus.Online)
        .orderBy('devices.id')
        .execute();
    },

    /**
     * Adds one polled spectrum per phase (L1..L3, null for a phase not sent) to the 10-minute
     * interval holding tsSec: each order becomes the rms of the interval's polled values.
     */
    async addSpectrum(
      deviceId: number,
      tsSec: number,
      phases: readonly (PhaseSpectrum | null)[],
    ): Promise<void> {
      const intervalSec = tsSec - (tsSec % INTERVAL_SEC);
      await db.transaction().execute(async (trx) => {
        const stored = await trx
          .selectFrom('harmonic_intervals')
          .selectAll()
          .where('device_id', '=', deviceId)
          .where('interval_sec', '=', intervalSec)
          .execute();
        for (const [i, values] of phases.entries()) {
          if (!values) continue;
          const phase = i + 1;
          const old = stored.find((r) => r.phase === phase);
          const merged = old
            ? HARMONIC_ORDERS.map((h, k) => rmsWith(old[harmonicColumn(h)], old.samples, values[k] ?? null))
            : values;
          const row: HarmonicIntervalsTable = {
            device_id: deviceId,
            interval_sec: intervalSec,
            phase,
            samples: (old?.samples ?? 0) + 1,
            ...orderColumns(merged),
          };
          const { device_id: _d, interval_sec: _t, phase: _p, ...update } = row;
          await trx
            .insertInto('harmonic_intervals')
            .values(row)
            .onConflict((oc) => oc.columns(['device_id', 'interval_sec', 'phase']).doUpdateSet(update))
            .execute();
        }
      });
    },

    /** Writes whole 10-minute spectra; an interval already stored is kept. */
    async insertIntervals(rows: readonly SpectrumRow[]): Promise<void> {
      for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
        const values = rows.slice(i, i + ROWS_PER_STATEMENT).map((r) => ({
          device_id: r.deviceId,
          interval_sec: r.intervalSec,
          phase: r.phase,
          samples: 1,
          ...orderColumns(r.values),
        }));
        await db
          .insertInto('harmonic_intervals')
          .values(values)
          .onConflict((oc) => oc.columns(['device_id', 'interval_sec', 'phase']).doNothing())
          .execute();
      }
    },

    /** The stored spectra of intervals starting in [fromSec, toSec), in time order. */
    async spectra(deviceId: number, fromSec: number, toSec: number): Promise<SpectrumInterval[]> {
      const rows = await db
        .selectFrom('harmonic_intervals')
        .selectAll()
        .where('device_id', '=', deviceId)
        .where('interval_sec', '>=', fromSec)
        .where('interval_sec', '<', toSec)
        .orderBy('interval_sec')
        .orderBy('phase')
        .execute();
      return rows.map((r) => ({
        intervalSec: Number(r.interval_sec),
        phase: r.phase,
        values: HARMONIC_ORDERS.map((h) => r[harmonicColumn(h)]),
      }));
    },

    /** True when any spectrum of the device is stored in [fromSec, toSec). */
    async hasSpectra(deviceId: number, fromSec: number, toSec: number): Promise<boolean> {
      const row = await db
        .selectFrom('harmonic_intervals')
        .select('interval_sec')
        .where('device_id', '=', deviceId)
        .where('interval_sec', '>=', fromSec)
        .where('interval_sec', '<', toSec)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
/** SQL of the polled harmonic spectra. */
export type HarmonicsRepository = ReturnType<typeof harmonicsRepository>;
