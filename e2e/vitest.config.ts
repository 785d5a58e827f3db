import { defineConfig } from 'vitest/config';
import BalancedSequencer from './sequencer';

// Browser tests: one real server for each process (one per shard when sharded), Debian's
// Chromium driven by playwright-core.
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['./server.setup.ts'],
    setupFiles: ['./csp.setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // `--shard=i/n` (BROWSER_SHARDS of the test run) splits the files by their measured durations.
    sequence: { sequencer: BalancedSequencer },
    // A poll waits on a request and a render; on a busy machine that takes longer than the
    // default second, and a poll ends as soon as its condition holds.
    expect: { poll: { timeout: 10_000, interval: 100 } },
  },
});
