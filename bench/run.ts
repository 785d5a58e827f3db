// Runs every benchmark (files named *.bench.ts here) one after another, each in its own process;
// `npm run bench -- <name>` runs those whose file name starts with <name>.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const only = process.argv[2];
// Long runs only when asked for by name: `npm run bench -- soak` (10 minutes).
const OPT_IN = new Set(['soak.bench.ts']);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') && (only ? f.startsWith(only) : !OPT_IN.has(f)))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`\n=== ${f}`);
  // The soak measures memory of the ingesting process as `npm start` runs it (two malloc arenas).
  const env = f === 'soak.bench.ts' ? { MALLOC_ARENA_MAX: '2', ...process.env } : process.env;
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, f)], {
    stdio: 'inherit',
    cwd: path.resolve(dir, '..'),
    env,
  });
  if (r.status !== 0) failed += 1;
}
console.log(`\n${files.length - failed} benchmarks finished, ${failed} failed; figures in bench/results/`);
process.exit(failed === 0 ? 0 : 1);
