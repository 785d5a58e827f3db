import type { CostData, Series } from '@meterportal/protocol';
import { sumIntoPeriods } from '../history/history-fns';
import { localIso, utcIso, type SeriesTable } from '../integration/integration-fns';
import type { XlsxCell, XlsxSheet } from './xlsx';

/** One device's part of an export: its serial names its columns when the export holds several. */
export interface DevicePart {
  serial: string;
  title: string;
  table: SeriesTable;
}

/**
 * Device tables side by side on the union of their times. With several devices each column name
 * starts with the device's serial (`4D50000001 E_I`), so every column stays unambiguous.
 */
export function joinTables(parts: readonly DevicePart[], prefixed = parts.length > 1): SeriesTable {
  const columns = parts.flatMap((p) =>
    p.table.columns.map((c) => ({ ...c, name: prefixed ? `${p.serial} ${c.name}` : c.name })),
  );
  const byTime = new Map<number, (number | null)[]>();
  let offset = 0;
  for (const p of parts) {
    for (const r of p.table.rows) {
      let row = byTime.get(r.timeMs);
      if (!row) {
        row = new Array<number | null>(columns.length).fill(null);
        byTime.set(r.timeMs, row);
      }
      r.values.forEach((v, i) => {
        row[offset + i] = v;
      });
    }
    offset += p.table.columns.length;
  }
  return {
    columns,
    rows: [...byTime.entries()].sort(([a], [b]) => a - b).map(([timeMs, values]) => ({ timeMs, values })),
  };
}

/** Two tables of one device side by side on the union of their times (energy and its cost). */
export function besideTable(left: SeriesTable, right: SeriesTable): SeriesTable {
  const part = (table: SeriesTable) => ({ serial: '', title: '', table });
  return joinTables([part(left), part(right)], false);
}

const money = (cents: number) => cents / 100;

/**
 * Cost per period as columns in the tariff's currency: each band's energy cost, the energy cost,
 * fixed fee, capacity charge, VAT, export credit and total, each as the cost answer rounds it.
 */
export function costTable(cost: CostData): SeriesTable {
  const unit = cost.currency;
  const names = [
    ...cost.bandNames.map((b) => `cost_${b}`),
    'cost_energy',
    'cost_fixed',
    'cost_capacity',
    'cost_vat',
    'export_credit',
    'cost_total',
  ];
  return {
    columns: names.map((name) => ({ name, unit })),
    rows: cost.rows.map((r) => ({
      timeMs: r.t,
      values: [
        ...cost.bandNames.map((b) => money(r.bands[b] ?? 0)),
        money(r.energyCents),
        money(r.fixedCents),
        money(r.capacityCents),
        money(r.vatCents),
        money(r.exportCreditCents),
        money(r.totalCents),
      ],
    })),
  };
}

/** Monthly interval values (kWh) summed into the years that hold them, exact to the Wh. */
export function monthsIntoYears(months: Series, yearStartsSec: number[]): Series {
  const wh = months.map(([t, kwh]) => ({ tsSec: t / 1000, value: Math.round(kwh * 1000) }));
  return sumIntoPeriods(wh, yearStartsSec).map(([t, v]) => [t, v / 1000]);
}

/** What an export file says about itself beside its data. */
export interface ExportAbout {
  tz: string;
  /** PROFILE or ENERGY, and the resolution or period of its rows. */
  series: string;
  step: string;
  fromSec: number;
  toSec: number;
  devices: readonly { serial: string; title: string }[];
  /** The tariff's currency, when cost columns are present. */
  currency?: string;
}

/** Header of a column with its unit in brackets, as the CSV names it. */
const header = (c: { name: string; unit: string }) => (c.unit ? `${c.name} [${c.unit}]` : c.name);

/**
 * The export as an XLSX workbook's sheets: "Data" with the same header as the CSV (both times as
 * ISO 8601 text, every value a numeric cell), and "About" naming the time zone, the range and
 * the devices.
 */
export function xlsxSheets(table: SeriesTable, about: ExportAbout): XlsxSheet[] {
  const data: XlsxCell[][] = [
    ['time_utc', `time_local [${about.tz}]`, ...table.columns.map(header)],
    ...table.rows.map((r) => [utcIso(r.timeMs), localIso(r.timeMs, about.tz), ...r.values]),
  ];
  const info: XlsxCell[][] = [
    ['Time zone', about.tz],
    ['Series', about.series],
    [about.series === 'ENERGY' ? 'Period' : 'Resolution', about.step],
    ['From (UTC)', utcIso(about.fromSec * 1000)],
    ['From (local)', localIso(about.fromSec * 1000, about.tz)],
    ['To (UTC, exclusive)', utcIso(about.toSec * 1000)],
    ['To (local, exclusive)', localIso(about.toSec * 1000, about.tz)],
    ...(about.currency ? [['Currency', about.currency]] : []),
    [],
    ['Device', 'Title'],
    ...about.devices.map((d) => [d.serial, d.title]),
  ];
  return [
    { name: 'Data', rows: data, frozenRows: 1, boldRows: 1, columnWidths: [22, 27] },
    { name: 'About', rows: info, columnWidths: [22, 34] },
  ];
}

/** File name of an export: device (or device count), series, rows' step and local start date. */
export function exportFileName(about: ExportAbout, extension: 'csv' | 'xlsx'): string {
  const who = about.devices.length === 1 ? about.devices[0]!.serial : `${about.devices.length}-devices`;
  const day = localIso(about.fromSec * 1000, about.tz).slice(0, 10);
  return `${who}-${about.series.toLowerCase()}-${about.step.toLowerCase()}-${day}.${extension}`;
}
