import { strToU8, zipSync } from 'fflate';

/** A cell: text, a number, or nothing. */
export type XlsxCell = string | number | null;

/** One worksheet: its name, rows of cells, and how many leading rows stay in view when scrolling. */
export interface XlsxSheet {
  name: string;
  rows: readonly (readonly XlsxCell[])[];
  /** Rows frozen at the top (the header). */
  frozenRows?: number;
  /** Width of the leading columns, in characters. */
  columnWidths?: readonly number[];
  /** Rows written in bold (the header). */
  boldRows?: number;
}

/** XML text of a string: the five escapes, and characters XML 1.0 cannot hold left out. */
export function xmlText(s: string): string {
  return (
    s
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

/** Spreadsheet column letters of a zero-based index: 0 is A, 25 Z, 26 AA. */
export function columnName(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

function sheetXml(sheet: XlsxSheet): string {
  const parts: string[] = [`${XML}<worksheet xmlns="${MAIN}" xmlns:r="${REL}">`];
  if (sheet.frozenRows) {
    const top = `A${sheet.frozenRows + 1}`;
    parts.push(
      `<sheetViews><sheetView workbookViewId="0"><pane ySplit="${sheet.frozenRows}" topLeftCell="${top}" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>`,
    );
  }
  if (sheet.columnWidths?.length) {
    parts.push('<cols>');
    sheet.columnWidths.forEach((w, i) =>
      parts.push(`<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`),
    );
    parts.push('</cols>');
  }
  parts.push('<sheetData>');
  sheet.rows.forEach((row, r) => {
    const style = r < (sheet.boldRows ?? 0) ? ' s="1"' : '';
    parts.push(`<row r="${r + 1}">`);
    row.forEach((cell, c) => {
      if (cell === null) return;
      const ref = `${columnName(c)}${r + 1}`;
      if (typeof cell === 'number') {
        // Numbers are numeric cells; a value that is not finite has no cell at all.
        if (Number.isFinite(cell)) parts.push(`<c r="${ref}"${style}><v>${cell}</v></c>`);
      } else {
        parts.push(
          `<c r="${ref}"${style} t="inlineStr"><is><t xml:space="preserve">${xmlText(cell)}</t></is></c>`,
        );
      }
    });
    parts.push('</row>');
  });
  parts.push('</sheetData></worksheet>');
  return parts.join('');
}

/** Sheet names: at most 31 characters, none of : \ / ? * [ ]. */
const sheetName = (s: string) => xmlText(s.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31));

/**
 * An Office Open XML workbook (.xlsx) of the sheets: numbers as numeric cells, text as inline
 * strings, the first rows bold and frozen where asked. Deflated, as spreadsheet programs write it.
 */
export function xlsxWorkbook(sheets: readonly XlsxSheet[]): Uint8Array {
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        sheets
          .map(
            (_, i) =>
              `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
          )
          .join('') +
        '</Types>',
    ),
    '_rels/.rels': strToU8(
      `${XML}<Relationships xmlns="${PKG_REL}">` +
        `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/>` +
        '</Relationships>',
    ),
    'xl/workbook.xml': strToU8(
      `${XML}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>` +
        sheets
          .map((s, i) => `<sheet name="${sheetName(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
          .join('') +
        '</sheets></workbook>',
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `${XML}<Relationships xmlns="${PKG_REL}">` +
        sheets
          .map(
            (_, i) =>
              `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
          )
          .join('') +
        `<Relationship Id="rId${sheets.length + 1}" Type="${REL}/styles" Target="styles.xml"/>` +
        '</Relationships>',
    ),
    // Two cell formats: the default, and bold for header rows.
    'xl/styles.xml': strToU8(
      `${XML}<styleSheet xmlns="${MAIN}">` +
        '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
        '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
        '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
        '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
        '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
        '</styleSheet>',
    ),
  };
  sheets.forEach((s, i) => {
    files[`xl/worksheets/sheet${i + 1}.xml`] = strToU8(sheetXml(s));
  });
  return zipSync(files, { level: 6 });
}
