// Gzip size of the web app's JavaScript: what the sign-in page (/login) loads, and what each lazily
// loaded area adds. Reads apps/web/dist (built first only when it is missing) and its Vite manifest.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { r2, report } from './stats';

/** Target of issue 5: the sign-in page's JavaScript under 250 KB gzip. */
const LOGIN_BUDGET_KB = 250;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
const manifestFile = path.join(dist, '.vite/manifest.json');

if (!fs.existsSync(manifestFile)) {
  console.log('apps/web/dist is missing: building it (npm run build -w apps/web)');
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0 || !fs.existsSync(manifestFile)) throw new Error('web build failed');
}

const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
const gzipCache = new Map<string, number>();

/** Gzip size (level 9, as a static server would pre-compress) of one emitted file, bytes. */
function gzipBytes(file: string): number {
  let n = gzipCache.get(file);
  if (n === undefined) {
    n = zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
    gzipCache.set(file, n);
  }
  return n;
}

/** A chunk and everything it imports statically (what the browser fetches before running it). */
function staticClosure(key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`manifest has no ${key}`);
  into.add(key);
  for (const i of chunk.imports ?? []) staticClosure(i, into);
  return into;
}

/** Size of the brotli copy the build wrote beside a file (what the server sends), bytes. */
function brotliBytes(file: string): number {
  const br = path.join(dist, `${file}.br`);
  return fs.existsSync(br) ? fs.statSync(br).size : fs.statSync(path.join(dist, file)).size;
}

const jsOf = (keys: Iterable<string>) => [...keys].filter((k) => manifest[k]!.file.endsWith('.js'));
const kb = (bytes: number) => r2(bytes / 1024);
const sum = (keys: Iterable<string>) => jsOf(keys).reduce((a, k) => a + gzipBytes(manifest[k]!.file), 0);

const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
if (!entryKey) throw new Error('manifest has no entry');
// The sign-in page ships in the entry; should it become a chunk of its own, that chunk is added.
const loginKey = Object.keys(manifest).find((k) => k.endsWith('features/auth/LoginPage.tsx'));

const entry = staticClosure(entryKey);
const login = loginKey ? staticClosure(loginKey, new Set(entry)) : entry;
const loginFiles = jsOf(login).map((k) => ({
  file: manifest[k]!.file,
  gzipKB: kb(gzipBytes(manifest[k]!.file)),
}));
const loginKB = kb(sum(login));
const loginBrotliKB = kb(jsOf(login).reduce((a, k) => a + brotliBytes(manifest[k]!.file), 0));

// Areas: the lazily loaded chunks of the app's own sources (pages, areas, languages, libraries
// imported on demand). "adds" is what opening it fetches beyond the sign-in page's files.
const areas = Object.entries(manifest)
  .filter(([, c]) => c.isDynamicEntry)
  .map(([key, c]) => {
    const closure = staticClosure(key);
    const extra = [...closure].filter((k) => !login.has(k));
    return {
      chunk: key.replace(/^\.\.\/\.\.\/node_modules\//, '').replace(/^src\//, ''),
      file: c.file,
      ownKB: kb(gzipBytes(c.file)),
      addsKB: kb(sum(extra)),
    };
  })
  .sort((a, b) => b.addsKB - a.addsKB);

const allJsKB = kb(
  Object.values(manifest)
    .filter((c) => c.file.endsWith('.js'))
    .reduce((a, c) => a + gzipBytes(c.file), 0),
);

console.log(
  `sign-in page (/login): ${loginKB} KB gzip, ${loginBrotliKB} KB as sent (brotli) in ${loginFiles.length} files (budget ${LOGIN_BUDGET_KB} KB gzip)`,
);
for (const f of loginFiles) console.log(`  ${String(f.gzipKB).padStart(8)} KB  ${f.file}`);
console.log('lazily loaded chunks (own size, and what opening them adds over /login):');
for (const a of areas)
  console.log(`  ${String(a.ownKB).padStart(8)} KB  +${String(a.addsKB).padStart(8)} KB  ${a.chunk}`);

report('bundle', {
  gzipLevel: 9,
  login: {
    gzipKB: loginKB,
    brotliKB: loginBrotliKB,
    budgetKB: LOGIN_BUDGET_KB,
    withinBudget: loginKB < LOGIN_BUDGET_KB,
    files: loginFiles,
  },
  areas,
  allJsGzipKB: allJsKB,
});
if (loginKB >= LOGIN_BUDGET_KB) process.exitCode = 1;
