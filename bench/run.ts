// Runs every benchmark (files named *.bench.ts here) one after another, each in its own process.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const only = process.argv[2];
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.bench.ts') && (!only || f.startsWith(only))).sort();
let failed = 0;
for (const f of files) {
  console.log(`\n=== ${f}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, f)], { stdio: 'inherit', cwd: path.resolve(dir, '..') });
  if (r.status !== 0) failed += 1;
}
console.log(`\n${files.length - failed} benchmarks finished, ${failed} failed; figures in bench/results/`);
process.exit(failed === 0 ? 0 : 1);
