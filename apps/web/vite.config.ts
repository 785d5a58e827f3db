import * as runningVite from 'vite';
import { defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const backend = process.env.PORTAL_DEV_BACKEND ?? 'http://localhost:8080';

/**
 * Chunks: React gets its own long-cached vendor chunk (it also receives the CommonJS interop
 * helpers, which every chunk needs, so no lazily loaded library is dragged into the first load).
 * ECharts is named so the visualization area's vendor code is recognisable in the bundle report.
 * PDF, XLSX and OpenID Connect code stay in the chunks their dynamic imports create.
 */
function manualChunks(id: string): string | undefined {
  if (/[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id)) return 'react';
  if (/[\\/]node_modules[\\/](echarts|zrender)[\\/]/.test(id)) return 'echarts';
  return undefined;
}

/**
 * The React plugin is hoisted next to the test runner's Vite 8 and picks its mode from that copy.
 * Under this app's Vite 7 its Rolldown-only hooks break the dev server, so they are dropped when
 * the running Vite is not Rolldown-based (JSX is then compiled by esbuild, as Vite 7 does anyway).
 */
const ROLLDOWN_ONLY = new Set([
  'vite:react:refresh-wrapper',
  'vite:react:config-post',
  'vite:react-refresh-fbm',
]);
function reactPlugins(): PluginOption[] {
  const plugins = react() as unknown as { name: string }[];
  const rolldown = 'rolldownVersion' in runningVite;
  return rolldown ? plugins : plugins.filter((p) => !ROLLDOWN_ONLY.has(p.name));
}

/** Files the server may send compressed; images other than SVG are compressed already. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;

/**
 * Writes a brotli (quality 11) and a gzip (level 9) copy beside every compressible file of the
 * build, once, so the server sends them without compressing per request. Files under 1 KB are left
 * as they are: their headers outweigh what compression saves.
 */
function precompress(): PluginOption {
  let outDir = '';
  return {
    name: 'meterportal:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
          const full = path.join(dir, e.name);
          return e.isDirectory() ? walk(full) : [full];
        });
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file) || file.includes(`${path.sep}.vite${path.sep}`)) continue;
        const raw = fs.readFileSync(file);
        if (raw.length < 1024) continue;
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(raw, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          }),
        );
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(raw, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [...reactPlugins(), precompress()],
  resolve: {
    alias: {
      '@meterportal/protocol': fileURLToPath(
        new URL('../../packages/protocol/src/index.ts', import.meta.url),
      ),
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/config.json': { target: backend, changeOrigin: true },
      '/ws': { target: backend.replace(/^http/, 'ws'), ws: true, changeOrigin: true },
    },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: { manualChunks },
    },
    manifest: true,
  },
});
