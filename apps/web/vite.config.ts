import * as runningVite from 'vite';
import { defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

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

export default defineConfig({
  plugins: reactPlugins(),
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
