import { defineConfig } from 'vitest/config';

// Browser tests: one real server for the run, Debian's Chromium driven by playwright-core.
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['./server.setup.ts'],
    setupFiles: ['./csp.setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
