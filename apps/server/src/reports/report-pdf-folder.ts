// The page of a folder's report: each device's energy and cost, and the folder's totals.
import type { FolderEnergyModel } from './report-folder';
import type { Formats, Table } from './report-pdf';
import type { ReportWords } from './report-texts';

/** One row per device, then the folder's total; the cost per currency when tariffs differ. */
export function folderEnergy(
  m: FolderEnergyModel,
  w: ReportWords,
  f: Formats,
  table: Table,
  note: (t: string) => void,
) {
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
