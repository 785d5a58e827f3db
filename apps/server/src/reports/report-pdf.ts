import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import type { AvailabilityModel, EnergyCostModel, PeaksModel, ReportModel } from './report-model';
import { folderPowerQuality, powerQuality } from './report-pdf-pq';
import { folderAvailability, folderEnergy, folderPeaks } from './report-pdf-folder';
import { REPORT_WORDS, type ReportWords } from './report-texts';

const require = createRequire(import.meta.url);

let fonts: { regular: Buffer; bold: Buffer } | undefined;
/** DejaVu Sans from its package: it has every letter Slovak and German need (č ť ž ľ ä ö ü ß). */
function reportFonts() {
  fonts ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  };
  return fonts;
}

/** Number and date formats of a report's language in the installation's zone. */
export function reportFormats(language: ReportModel['language'], tz: string) {
  const w = REPORT_WORDS[language];
  const dec = (digits: number) =>
    new Intl.NumberFormat(w.locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const kwh = dec(3);
  const kw = dec(3);
  const hours = dec(2);
  const pct = new Intl.NumberFormat(w.locale, {
    style: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  const date = new Intl.DateTimeFormat(w.locale, { timeZone: tz, dateStyle: 'medium' });
  const dateTime = new Intl.DateTimeFormat(w.locale, {
    timeZone: tz,
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  const month = new Intl.DateTimeFormat(w.locale, { timeZone: tz, year: 'numeric', month: 'long' });
  const fixed = [0, 1, 2, 3].map(dec);
  return {
    /** A number with 0 to 3 decimals. */
    num: (v: number, digits: 0 | 1 | 2 | 3) => fixed[digits]!.format(v),
    /** Wh as kWh with three decimals: exact to the watt-hour. */
    wh: (v: number) => kwh.format(v / 1000),
    kw: (v: number) => kw.format(v),
    hours: (v: number) => hours.format(v),
    share: (v: number | null) => (v === null ? '–' : pct.format(v)),
    money: (cents: number, currency: string) =>
      new Intl.NumberFormat(w.locale, { style: 'currency', currency }).format(cents / 100),
    date: (ms: number) => date.format(ms),
    dateTime: (ms: number) => dateTime.format(ms),
    month: (ms: number) => month.format(ms),
  };
}
/** Number and date formats of one report. */
export type Formats = ReturnType<typeof reportFormats>;

/** A column of a report table; widths are relative. */
export interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

const MARGIN = 40;
const ROW = 14;

/** A report as PDF bytes, drawn on the server with no browser. */
export function renderReportPdf(model: ReportModel): Promise<Buffer> {
  const w = REPORT_WORDS[model.language];
  const f = reportFormats(model.language, model.tz);
  const { regular, bold } = reportFonts();
  const title = `${w.titles[model.body.kind]}: ${model.device.title}`;
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: title, Creator: 'meterportal' },
  });
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN - 30;

  // Heading.
  doc.font('bold').fontSize(16).text(w.titles[model.body.kind], MARGIN, MARGIN);
  doc.moveDown(0.4);
  doc.font('regular').fontSize(10);
  const lastDayMs = model.period.toSec * 1000 - 1;
  const facts: [string, string][] = [
    model.folder !== undefined
      ? [w.folder, model.folder]
      : [w.device, `${model.device.title} (${model.device.mac})`],
    [w.period, `${f.date(model.period.fromSec * 1000)} – ${f.date(lastDayMs)}`],
    [w.timeZone, model.tz],
    [w.created, f.dateTime(model.createdMs)],
  ];
  for (const [k, v] of facts) {
    doc.font('bold').text(`${k}: `, { continued: true }).font('regular').text(v);
  }
  doc.moveDown(1);

  function table(columns: Column[], rows: string[][], opts: { boldLast?: boolean; header?: boolean } = {}) {
    const scale = width / columns.reduce((a, c) => a + c.width, 0);
    const cols = columns.map((c) => ({ ...c, width: c.width * scale }));
    const drawRow = (cells: string[], font: 'regular' | 'bold', shade: boolean) => {
      if (doc.y + ROW > bottom()) {
        doc.addPage();
        doc.y = MARGIN;
        drawRow(
          cols.map((c) => c.title),
          'bold',
          true,
        );
      }
      const y = doc.y;
      if (shade)
        doc
          .rect(MARGIN, y - 2, width, ROW)
          .fill('#eef2f7')
          .fillColor('black');
      let x = MARGIN;
      cells.forEach((cell, i) => {
        const c = cols[i]!;
        // A text wider than its column is set smaller rather than wrapped into the next row.
        let size = 8.5;
        doc.font(font).fontSize(size);
        while (size > 5.5 && doc.widthOfString(cell) > c.width - 6) doc.fontSize((size -= 0.5));
        doc.text(cell, x + 3, y + 1 + (8.5 - size) / 2, {
          width: c.width - 6,
          height: ROW,
          align: c.align ?? 'right',
          lineBreak: false,
          ellipsis: true,
        });
        x += c.width;
      });
      doc.y = y + ROW;
    };
    if (opts.header !== false)
      drawRow(
        cols.map((c) => c.title),
        'bold',
        true,
      );
    rows.forEach((r, i) => drawRow(r, opts.boldLast && i === rows.length - 1 ? 'bold' : 'regular', false));
    doc.x = MARGIN;
    doc.moveDown(1);
  }

  /** A heading kept on one page with the first `rows` rows of its table. */
  function heading(text: string, rows = 2) {
    if (doc.y + (rows + 2) * ROW > bottom()) {
      doc.addPage();
      doc.y = MARGIN;
    }
    doc.font('bold').fontSize(11).text(text, MARGIN, doc.y);
    doc.moveDown(0.3);
  }

  function note(text: string) {
    doc.font('regular').fontSize(10).text(text, MARGIN, doc.y);
    doc.moveDown(1);
  }

  const body = model.body;
  const p: Page = { w, f, table, heading, note };
  if (body.kind === 'ENERGY_COST') energyCost(body, p);
  else if (body.kind === 'PEAKS') peaks(body, p);
  else if (body.kind === 'AVAILABILITY') availability(body, p);
  else if (body.kind === 'POWER_QUALITY') powerQuality(body, p);
  else if (body.kind === 'FOLDER_ENERGY') folderEnergy(body, p);
  else if (body.kind === 'FOLDER_PEAKS') folderPeaks(body, p);
  else if (body.kind === 'FOLDER_POWER_QUALITY') folderPowerQuality(body, p);
  else folderAvailability(body, p);

  // Page numbers and the device on every page.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const keep = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('regular')
      .fontSize(8)
      .fillColor('#555555')
      .text(`${title} · ${w.page} ${i + 1} / ${range.count}`, MARGIN, doc.page.height - MARGIN, {
        width,
        align: 'center',
        lineBreak: false,
      })
      .fillColor('black');
    doc.page.margins.bottom = keep;
  }
  doc.end();
  return done;
}

/** Draws a table, continued on the next page with its header repeated. */
export type Table = (
  columns: Column[],
  rows: string[][],
  opts?: { boldLast?: boolean; header?: boolean },
) => void;

/** What a report's sections write with: its words and formats, tables, headings and notes. */
export interface Page {
  w: ReportWords;
  f: Formats;
  table: Table;
  /** A heading kept on one page with the first `rows` rows of its table. */
  heading: (text: string, rows?: number) => void;
  note: (text: string) => void;
}

function energyCost(m: EnergyCostModel, p: Page) {
  const { w, f, table, heading, note } = p;
  if (m.days.length === 0) return note(w.noData);
  if (!m.currency || !m.total) note(w.noTariff);
  const currency = m.currency;
  const bandCols = currency && m.bandNames.length <= 3 ? m.bandNames : [];
  const columns: Column[] = [
    { title: w.day, width: 2.2, align: 'left' },
    { title: w.importKwh, width: 1.6 },
    { title: w.exportKwh, width: 1.6 },
    ...bandCols.map((b) => ({ title: b, width: 1.4 })),
    ...(currency ? [{ title: w.total, width: 1.6 }] : []),
  ];
  const rows = m.days.map((d) => [
    f.date(d.dayMs),
    f.wh(d.importWh),
    f.wh(d.exportWh),
    ...bandCols.map((b) => (currency && d.cost ? f.money(d.cost.bands[b] ?? 0, currency) : '')),
    ...(currency && d.cost ? [f.money(d.cost.totalCents, currency)] : []),
  ]);
  rows.push([
    w.total,
    f.wh(m.totalImportWh),
    f.wh(m.totalExportWh),
    ...bandCols.map((b) => (currency && m.total ? f.money(m.total.bands[b] ?? 0, currency) : '')),
    ...(currency && m.total ? [f.money(m.total.totalCents, currency)] : []),
  ]);
  table(columns, rows, { boldLast: true });
  if (!currency || !m.total) return;
  const t = m.total;
  heading(w.cost, m.bandNames.length + 7);
  const lines: [string, number][] = [
    ...m.bandNames.map((b): [string, number] => [`${w.energyCost} · ${b}`, t.bands[b] ?? 0]),
    [w.energyCost, t.energyCents],
    [w.fixedFee, t.fixedCents],
    [w.capacityCharge, t.capacityCents],
    [w.vat, t.vatCents],
    [w.exportCredit, -t.exportCreditCents],
    [w.total, t.totalCents],
  ];
  table(
    [
      { title: w.cost, width: 3, align: 'left' },
      { title: currency, width: 2 },
    ],
    lines.map(([k, v]) => [k, f.money(v, currency)]),
    { boldLast: true },
  );
}

function peaks(m: PeaksModel, p: Page) {
  const { w, f, table, heading, note } = p;
  const limit = (kw: number) => (kw > 0 ? f.kw(kw) : w.notSet);
  table(
    [
      { title: '', width: 3, align: 'left' },
      { title: '', width: 2 },
    ],
    [
      [w.mrk, limit(m.mrkKw)],
      [w.rk, limit(m.rkKw)],
      [
        w.periodPeak,
        m.peakKw === null || m.peakAtMs === null ? '–' : `${f.kw(m.peakKw)} kW · ${f.dateTime(m.peakAtMs)}`,
      ],
      [w.quartersAboveMrk, m.mrkKw > 0 ? String(m.quartersAboveMrk) : w.notSet],
      [w.quartersAboveRk, m.rkKw > 0 ? String(m.quartersAboveRk) : w.notSet],
    ],
    { header: false },
  );
  heading(w.month);
  if (m.months.length === 0) note(w.noData);
  else
    table(
      [
        { title: w.month, width: 2, align: 'left' },
        { title: w.peakKw, width: 1.4 },
        { title: w.peakAt, width: 2.2 },
        { title: w.avg12Kw, width: 1.8 },
      ],
      m.months.map((p) => [
        f.month(p.monthMs),
        p.peakKw === null ? '–' : f.kw(p.peakKw),
        p.atMs === null ? '–' : f.dateTime(p.atMs),
        p.avg12Kw === null ? '–' : f.kw(p.avg12Kw),
      ]),
    );
  if (m.topQuarters.length > 0) {
    heading(w.quartersAbove);
    table(
      [
        { title: w.quarterStart, width: 3, align: 'left' },
        { title: w.demandKw, width: 2 },
      ],
      m.topQuarters.map((q) => [f.dateTime(q.atMs), f.kw(q.kw)]),
    );
  }
}

function availability(m: AvailabilityModel, p: Page) {
  const { w, f, table, note } = p;
  if (m.days.length === 0) return note(w.noData);
  const rows = m.days.map((d) => [
    f.date(d.dayMs),
    f.hours(d.onlineHours),
    f.hours(d.offlineHours),
    f.share(d.share),
  ]);
  rows.push([w.total, f.hours(m.onlineHours), f.hours(m.offlineHours), f.share(m.share)]);
  table(
    [
      { title: w.day, width: 2.2, align: 'left' },
      { title: w.online, width: 1.5 },
      { title: w.offline, width: 1.5 },
      { title: w.share, width: 1.5 },
    ],
    rows,
    { boldLast: true },
  );
  note(`${w.outages}: ${m.outages}`);
}
