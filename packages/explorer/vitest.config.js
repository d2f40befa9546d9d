import { defineConfig } from 'vitest/config';
import { READY_MS } from './test/support/ready.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.js'],
    // One build of the page for all the test files.
    globalSetup: ['test/support/global-setup.js'],
    environment: 'node',
    // The browser test files mostly wait on Chromium and the servers: one per core, not vitest's
    // cores - 1. Three at a time beside npm test's other suites took 625 CPU-s for npm test
    // against 572 for two, on 2 cores.
    maxWorkers: '100%',
    // The browser tests drive Swagger UI in Chromium: waits end on readiness, within READY_MS.
    expect: { poll: { timeout: READY_MS } },
    // A browser test makes several page loads and requests, each bounded by READY_MS.
    testTimeout: 300_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
