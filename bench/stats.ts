import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Percentile of a sample (nearest rank). */
export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/** Rounds to 2 decimals for the report. */
export const r2 = (n: number) => Math.round(n * 100) / 100;

/** Writes a result file under bench/results and prints it. */
export function report(name: string, result: object): void {
  const dir = path.resolve(import.meta.dirname, 'results');
  fs.mkdirSync(dir, { recursive: true });
  // The machine is shared: the load averages at the end of the run say how busy it was.
  const loadAverage = os.loadavg().map((l) => Math.round(l * 100) / 100);
  const body = {
    name,
    at: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadAverage1m5m15m: loadAverage,
    ...result,
  };
  fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(body, null, 2) + '\n');
  console.log(JSON.stringify(body, null, 2));
}
