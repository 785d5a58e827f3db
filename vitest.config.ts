import { defineConfig } from 'vitest/config';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  resolve: {
    alias: {
      '@meterportal/protocol': fileURLToPath(new URL('./packages/protocol/src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The suites mostly wait on databases, brokers, child processes and timers: one more worker
    // than cores keeps the cores busy (Vitest's default, one fewer, ran 2 cores with one worker).
    maxWorkers: os.availableParallelism() + 1,
  },
});
