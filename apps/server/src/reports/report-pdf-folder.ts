// The page of a folder's report: each device's energy and cost, maximum demand or availability,
// and the folder's totals.
import type { FolderAvailabilityModel, FolderEnergyModel, FolderPeaksModel } from './report-folder';
import type { Page, Table } from './report-pdf';

/** One row per device, then the folder's total; the cost per currency when tariffs differ. */
export function folderEnergy(m: FolderEnergyModel, p: Page) {
  const { w, f, table, note } = p;
  if (m.devices.length === 0) return note(w.noData);
  const oneCurrency = m.costs.length === 1 ? m.costs[0]! : null;
  const rows = m.devices.map((d) => [
    d.title,
    d.mac,
    f.wh(d.importWh),
    f.wh(d.exportWh),
    d.currency !== null && d.totalCents !== null ? f.money(d.totalCents, d.currency) : '–',
  ]);
  rows.push([
    w.total,
    '',
    f.wh(m.totalImportWh),
    f.wh(m.totalExportWh),
    oneCurrency ? f.money(oneCurrency.totalCents, oneCurrency.currency) : m.costs.length === 0 ? '–' : '',
  ]);
  table(
    [
      { title: w.device, width: 2.6, align: 'left' },
      { title: w.mac, width: 2, align: 'left' },
      { title: w.importKwh, width: 1.5 },
      { title: w.exportKwh, width: 1.5 },
      { title: w.total, width: 1.5 },
    ],
    rows,
    { boldLast: true },
  );
  if (m.costs.length > 1)
    table(
      [
        { title: w.cost, width: 3, align: 'left' },
        { title: w.total, width: 2 },
      ],
      m.costs.map((c) => [c.currency, f.money(c.totalCents, c.currency)]),
    );
  if (m.withoutTariff > 0) note(w.devicesWithoutTariff.replace('{n}', String(m.withoutTariff)));
}

/** One row per device with its limits, peak and 12-month average; then the sum and the coincident peak. */
export function folderPeaks(m: FolderPeaksModel, p: Page) {
  const { w, f, table, note } = p;
  if (m.devices.length === 0) return note(w.noData);
  const kw = (v: number | null) => (v === null ? '–' : f.kw(v));
  const limit = (v: number) => (v > 0 ? f.kw(v) : w.notSet);
  table(
    [
      { title: w.device, width: 2, align: 'left' },
      { title: w.mac, width: 1.8, align: 'left' },
      { title: w.mrk, width: 1.1 },
      { title: w.rk, width: 1.1 },
      { title: w.peakKw, width: 1.2 },
      { title: w.peakAt, width: 2.1 },
      { title: w.avg12Kw, width: 2.2 },
    ],
    m.devices.map((d) => [
      d.title,
      d.mac,
      limit(d.mrkKw),
      limit(d.rkKw),
      kw(d.peakKw),
      d.peakAtMs === null ? '–' : f.dateTime(d.peakAtMs),
      kw(d.avg12Kw),
    ]),
  );
  facts(table, [
    [w.devices, String(m.devices.length)],
    [w.sumOfPeaks, f.kw(m.sumOfPeaksKw)],
    [
      w.coincidentPeak,
      m.coincidentKw === null || m.coincidentAtMs === null
        ? '–'
        : `${f.kw(m.coincidentKw)} kW · ${f.dateTime(m.coincidentAtMs)}`,
    ],
  ]);
  note(w.peaksNote);
}

/** One row per device with its hours, outages and share; then the folder's sums, mean and count. */
export function folderAvailability(m: FolderAvailabilityModel, p: Page) {
  const { w, f, table, note } = p;
  if (m.devices.length === 0) return note(w.noData);
  const rows = m.devices.map((d) => [
    d.title,
    d.mac,
    f.hours(d.onlineHours),
    f.hours(d.offlineHours),
    String(d.outages),
    f.share(d.share),
  ]);
  rows.push([w.total, '', f.hours(m.onlineHours), f.hours(m.offlineHours), String(m.outages), '']);
  table(
    [
      { title: w.device, width: 2.4, align: 'left' },
      { title: w.mac, width: 2, align: 'left' },
      { title: w.online, width: 1.3 },
      { title: w.offline, width: 1.3 },
      { title: w.outages, width: 1.1 },
      { title: w.share, width: 1.4 },
    ],
    rows,
    { boldLast: true },
  );
  facts(table, [
    [w.meanShare, f.share(m.meanShare)],
    [w.belowFull, `${m.belowFull} / ${m.devices.length}`],
  ]);
}

/** A folder's totals: a label and its value per row, with no header. */
export function facts(table: Table, rows: [string, string][]) {
  table(
    [
      { title: '', width: 3, align: 'left' },
      { title: '', width: 2 },
    ],
    rows,
    { header: false },
  );
}
