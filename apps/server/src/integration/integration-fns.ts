import type { IntegrationColumn, ProfileQuantity, Series } from '@meterportal/protocol';
import { wallTime } from '../history/calendar';
import type { ColumnSeries, PhaseColumns, ProfileColumns } from '../history/series-json';

/** Units of the profile quantities as the history answers them (energies per interval). */
export const PROFILE_UNITS: Record<ProfileQuantity, string> = {
  U: 'V',
  I: 'A',
  P: 'W',
  Q: 'var',
  S: 'VA',
  E_I: 'kWh',
  E_E: 'kWh',
  Q_E: 'kvarh',
  S_E: 'kVAh',
  F: 'Hz',
  PF: '',
  DF_U: '%',
  DF_I: '%',
};

/** Quantities whose phases add up to a meaningful total (a sum of voltages is not one). */
const SUMMED: ReadonlySet<ProfileQuantity> = new Set(['I', 'P', 'Q', 'S', 'E_I', 'E_E', 'Q_E', 'S_E']);

/** Units of the energy kinds, per interval. */
export const ENERGY_UNITS: Record<string, string> = {
  E_I: 'kWh',
  E_E: 'kWh',
  Q1: 'kvarh',
  Q2: 'kvarh',
  Q3: 'kvarh',
  Q4: 'kvarh',
};

/** A series table: named columns with units, and per time (epoch ms) one value per column. */
export interface SeriesTable {
  columns: IntegrationColumn[];
  /** Rows by time, ascending; a value is null where the column has none at that time. */
  rows: { timeMs: number; values: (number | null)[] }[];
}

/** Merges named series (each its own times) into one table on the union of their times. */
function mergeColumns(
  series: { column: IntegrationColumn; times: ArrayLike<number>; values: ArrayLike<number> }[],
): SeriesTable {
  const byTime = new Map<number, (number | null)[]>();
  series.forEach((s, c) => {
    for (let k = 0; k < s.times.length; k++) {
      const t = s.times[k]!;
      let row = byTime.get(t);
      if (!row) {
        row = new Array<number | null>(series.length).fill(null);
        byTime.set(t, row);
      }
      const v = s.values[k]!;
      row[c] = Number.isFinite(v) ? Math.round(v * 1000) / 1000 : null;
    }
  });
  return {
    columns: series.map((s) => s.column),
    rows: [...byTime.entries()].sort(([a], [b]) => a - b).map(([timeMs, values]) => ({ timeMs, values })),
  };
}

const isPlain = (v: ColumnSeries | PhaseColumns): v is ColumnSeries => 'times' in v;

/**
 * A profile answer as a table: per quantity one column per phase (`P_L1`), and for quantities
 * whose phases add up the total (`P_total`); frequency is one column (`F`).
 */
export function profileTable(quantities: readonly ProfileQuantity[], data: ProfileColumns): SeriesTable {
  const series: Parameters<typeof mergeColumns>[0] = [];
  for (const q of quantities) {
    const d = data[q];
    if (!d) continue;
    const unit = PROFILE_UNITS[q];
    if (isPlain(d)) {
      series.push({ column: { name: q, unit }, ...d });
      continue;
    }
    for (const p of ['L1', 'L2', 'L3'] as const) {
      const s = d[p];
      if (s) series.push({ column: { name: `${q}_${p}`, unit }, ...s });
    }
    if (SUMMED.has(q)) series.push({ column: { name: `${q}_total`, unit }, ...d.cumulative });
  }
  return mergeColumns(series);
}

/** An energy answer (interval values per kind) as a table with one column per kind. */
export function energyTable(data: Record<string, { CUM: Series }>): SeriesTable {
  return mergeColumns(
    Object.entries(data).map(([kind, { CUM }]) => ({
      column: { name: kind, unit: ENERGY_UNITS[kind] ?? '' },
      times: CUM.map(([t]) => t),
      values: CUM.map(([, v]) => v),
    })),
  );
}

/** UTC ISO 8601 time of an instant, whole seconds: `2026-03-29T00:15:00Z`. */
export function utcIso(timeMs: number): string {
  return new Date(timeMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const two = (n: number) => String(n).padStart(2, '0');

/** Local ISO 8601 time with its offset in the zone: `2026-03-29T03:15:00+02:00`. */
export function localIso(timeMs: number, tz: string): string {
  const sec = Math.floor(timeMs / 1000);
  const w = wallTime(sec, tz);
  const offsetMin = Math.round(
    (Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) / 1000 - sec) / 60,
  );
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}:${two(w.second)}${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

/** The table as JSON rows: `time` (UTC), `localTime`, then the columns by name. */
export function jsonRows(table: SeriesTable, tz: string): Record<string, string | number | null>[] {
  return table.rows.map((r) => {
    const row: Record<string, string | number | null> = {
      time: utcIso(r.timeMs),
      localTime: localIso(r.timeMs, tz),
    };
    table.columns.forEach((c, i) => {
      row[c.name] = r.values[i] ?? null;
    });
    return row;
  });
}

/** A CSV field: quoted (quotes doubled) when it holds a comma, a quote or a line break. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The table as CSV (RFC 4180, CRLF lines, dot decimals): a header naming each column with its
 * unit in brackets and the local time with its zone, then one line per time.
 */
export function csvText(table: SeriesTable, tz: string): string {
  const header = [
    'time_utc',
    `time_local [${tz}]`,
    ...table.columns.map((c) => (c.unit ? `${c.name} [${c.unit}]` : c.name)),
  ];
  const lines = [header.map(csvField).join(',')];
  for (const r of table.rows) {
    lines.push(
      [utcIso(r.timeMs), localIso(r.timeMs, tz), ...r.values.map((v) => (v === null ? '' : String(v)))].join(
        ',',
      ),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Whether an answer is asked for as CSV: `format` decides, else the Accept header. */
export function wantsCsv(format: 'json' | 'csv' | undefined, accept: string | undefined): boolean {
  if (format) return format === 'csv';
  return /(^|,)\s*text\/csv\b/i.test(accept ?? '');
}
