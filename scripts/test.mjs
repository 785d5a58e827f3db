// The whole test run: lint, formatting, type check, unit and integration tests, then browser tests against
// the built app. Ends with one line "N passed, N failed, N skipped" counting every test and check.
// Under CI a skipped test fails the run: every backend a suite needs is provided there.
// The browser files can run in BROWSER_SHARDS processes at once (default 1), each with a portal of
// its own (e2e/server.setup.ts), split by e2e/durations.json so the shards end together.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';

const root = new URL('..', import.meta.url).pathname;
const out = `${root}.test-results`;
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

let passed = 0;
let failed = 0;
let skipped = 0;
const summary = [];

function run(name, cmd, args, extraEnv = {}) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...extraEnv } });
  const ok = r.status === 0;
  summary.push(`${ok ? 'ok  ' : 'FAIL'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return ok;
}

function check(name, cmd, args) {
  if (run(name, cmd, args)) passed += 1;
  else failed += 1;
}

/** Adds a Vitest JSON report's counts; `ok` is whether its process succeeded. */
function count(name, ok, file) {
  if (existsSync(file)) {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    const notRun = r.numPendingTests + r.numTodoTests;
    skipped += notRun;
    if (notRun > 0) {
      const names = r.testResults.flatMap((f) =>
        f.assertionResults
          .filter((a) => a.status !== 'passed' && a.status !== 'failed')
          .map((a) => `  ${a.status}: ${a.fullName}`),
      );
      console.log(`\n${notRun} test(s) of ${name} did not run:\n${names.slice(0, 40).join('\n')}`);
      if (process.env.CI) {
        console.log('Under CI every test must run.');
        failed += 1;
      }
    }
    // A suite that failed to load has no tests to count; it still fails the run.
    if (!ok && r.numFailedTests === 0) failed += 1;
  } else if (!ok) {
    failed += 1;
  }
}

const reporters = (file) => ['--reporter=default', '--reporter=json', `--outputFile.json=${file}`];

function vitest(name, args, file) {
  count(name, run(name, 'npx', ['vitest', 'run', ...args, ...reporters(file)]), file);
}

/**
 * The browser files in `shards` processes at once, each line of output prefixed with its shard;
 * a shard's output is also kept in .test-results/browser-N.log.
 */
async function browserShards(shards) {
  const started = Date.now();
  console.log(`\n=== browser: ${shards === 1 ? 'one process' : `${shards} shards at once`}`);
  const results = await Promise.all(
    Array.from({ length: shards }, (_, i) => {
      const file = `${out}/e2e-${i + 1}.json`;
      const log = createWriteStream(`${out}/browser-${i + 1}.log`);
      const child = spawn(
        'npx',
        [
          'vitest',
          'run',
          '--config',
          'e2e/vitest.config.ts',
          `--shard=${i + 1}/${shards}`,
          ...reporters(file),
        ],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } },
      );
      const prefix = `[browser ${i + 1}/${shards}] `;
      for (const stream of [child.stdout, child.stderr]) {
        createInterface({ input: stream }).on('line', (line) => {
          log.write(`${line}\n`);
          console.log(prefix + line);
        });
      }
      return new Promise((resolve) =>
        child.on('close', (code) => {
          log.end();
          resolve({ name: `browser ${i + 1}/${shards}`, ok: code === 0, file });
        }),
      );
    }),
  );
  for (const r of results) count(r.name, r.ok, r.file);
  // Every browser file runs in exactly one shard.
  const ran = results.flatMap((r) =>
    existsSync(r.file)
      ? JSON.parse(readFileSync(r.file, 'utf8')).testResults.map((t) => basename(t.name))
      : [],
  );
  const files = readdirSync(`${root}e2e`).filter((f) => f.endsWith('.e2e.test.ts'));
  const once = files.filter((f) => ran.filter((g) => g === f).length === 1);
  if (once.length !== files.length || ran.length !== files.length) {
    const off = files.filter((f) => !once.includes(f));
    console.log(`\nBrowser files not run exactly once across the shards: ${off.join(', ')}`);
    failed += 1;
  }
  const ok = results.every((r) => r.ok);
  summary.push(
    `${ok ? 'ok  ' : 'FAIL'} browser, ${shards === 1 ? 'one process' : `${shards} shards`} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}

check('lint', 'npx', ['eslint', '.', '--max-warnings', '0']);
check('format', 'npx', ['prettier', '--check', '.']);
check('types', 'npx', ['tsc', '-p', 'tsconfig.json']);
check('types (web)', 'npx', ['tsc', '-p', 'apps/web/tsconfig.json']);
vitest('unit and integration', [], `${out}/unit.json`);
check('web build', 'npm', ['run', 'build', '-w', 'apps/web']);
await browserShards(Math.max(1, Number(process.env.BROWSER_SHARDS ?? 1)));

console.log(`\n${summary.join('\n')}\n`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 ? 0 : 1);
