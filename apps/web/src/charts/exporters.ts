import type { EChartsType } from './echarts';
import { toCsv, toTable, type NamedSeries } from './series';

/** Chart export: PNG, CSV, XLSX, PDF, print. The file libraries load only when asked for. */

function download(href: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Saves a Blob as a file of that name. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  download(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function imageOf(chart: EChartsType, background: string): string {
  return chart.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: background });
}

export function exportPng(chart: EChartsType, name: string, background: string): void {
  download(imageOf(chart, background), `${name}.png`);
}

/** CSV for machines: `note` (first line) says dot decimals, no grouping, ISO 8601 times. */
export function exportCsv(
  series: readonly NamedSeries[],
  name: string,
  keyHeader: string,
  formatKey: (key: number) => string,
  note: string,
): void {
  downloadBlob(
    new Blob([toCsv(series, keyHeader, formatKey, note)], { type: 'text/csv;charset=utf-8' }),
    `${name}.csv`,
  );
}

/**
 * XLSX with typed cells (numbers and dates, which the spreadsheet shows in its own locale), a note
 * row first, then one row per key: a time (epoch ms, the default) or a plain number.
 */
export async function exportXlsx(
  series: readonly NamedSeries[],
  name: string,
  timeHeader: string,
  note: string,
  keyKind: 'time' | 'number' = 'time',
): Promise<void> {
  const { default: writeXlsxFile } = await import('write-excel-file/browser');
  const { header, rows } = toTable(series);
  const data = [
    [{ value: note }],
    [timeHeader, ...header].map((value) => ({ value, fontWeight: 'bold' as const })),
    ...rows.map(([t, ...values]) => [
      keyKind === 'time'
        ? { value: new Date(t ?? 0), type: Date, format: 'dd.mm.yyyy hh:mm:ss' }
        : { value: t ?? 0, type: Number },
      ...values.map((v) => (v === null ? null : { value: v, type: Number, format: '0.000' })),
    ]),
  ];
  await writeXlsxFile(data).toFile(`${name}.xlsx`);
}

export async function exportPdf(
  chart: EChartsType,
  name: string,
  title: string,
  background: string,
): Promise<void> {
  const { jsPDF } = await import('jspdf');
  const img = imageOf(chart, background);
  const w = chart.getWidth();
  const h = chart.getHeight();
  const doc = new jsPDF({ orientation: w >= h ? 'landscape' : 'portrait', unit: 'pt', format: 'a4' });
  const pageW = doc.internal.pageSize.getWidth();
  const margin = 36;
  const drawW = pageW - margin * 2;
  doc.setFontSize(14);
  doc.text(title, margin, margin);
  doc.addImage(img, 'PNG', margin, margin + 12, drawW, (drawW * h) / w);
  doc.save(`${name}.pdf`);
}

/** Prints only the chart: its image in a hidden frame. */
export function printChart(chart: EChartsType, title: string): void {
  const frame = document.createElement('iframe');
  frame.style.position = 'fixed';
  frame.style.width = '0';
  frame.style.height = '0';
  frame.style.border = '0';
  document.body.appendChild(frame);
  const doc = frame.contentDocument;
  if (!doc) return;
  const h1 = doc.createElement('h3');
  h1.textContent = title;
  h1.style.fontFamily = 'sans-serif';
  const img = doc.createElement('img');
  img.style.width = '100%';
  img.onload = () => {
    frame.contentWindow?.print();
    setTimeout(() => frame.remove(), 1000);
  };
  img.src = imageOf(chart, '#ffffff');
  doc.body.append(h1, img);
}
