// The whole test run: lint, formatting, type check, unit and integration tests, then browser tests against
// the built app. Ends with one line "N passed, N failed, N skipped" counting every test and check.
// Under CI a skipped test fails the run: every backend a suite needs is provided there.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';

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

function vitest(name, args, file) {
  const ok = run(name, 'npx', [
    'vitest',
    'run',
    ...args,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${file}`,
  ]);
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

check('lint', 'npx', ['eslint', '.', '--max-warnings', '0']);
check('format', 'npx', ['prettier', '--check', '.']);
check('types', 'npx', ['tsc', '-p', 'tsconfig.json']);
check('types (web)', 'npx', ['tsc', '-p', 'apps/web/tsconfig.json']);
vitest('unit and integration', [], `${out}/unit.json`);
check('web build', 'npm', ['run', 'build', '-w', 'apps/web']);
vitest('browser', ['--config', 'e2e/vitest.config.ts'], `${out}/e2e.json`);

console.log(`\n${summary.join('\n')}\n`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 ? 0 : 1);
