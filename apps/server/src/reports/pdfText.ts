import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The text of a PDF file as poppler's pdftotext reads it (layout kept), for tests and the bench. */
export function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'report-'));
  try {
    const file = path.join(dir, 'report.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
