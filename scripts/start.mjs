// Builds the web app when it has not been built yet, then starts the portal with every role.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
if (!existsSync(`${root}apps/web/dist/index.html`)) {
  console.log('Building the web app (first start only)...');
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
// Two malloc arenas: with glibc's default of one per thread and core, memory freed after each
// minute's commit stays with the arenas and the process's RSS swings by about 100 MB between
// samples (bench/soak.bench.ts); with two it stays within about 50 MB. Set it to override.
const env = { MALLOC_ARENA_MAX: '2', ...process.env };
const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: root,
  stdio: 'inherit',
  env,
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
