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
    // A poll waits on a request and a render; on a busy machine that takes longer than the
    // default second, and a poll ends as soon as its condition holds.
    expect: { poll: { timeout: 10_000, interval: 100 } },
  },
});
