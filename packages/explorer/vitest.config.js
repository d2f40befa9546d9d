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
    // A worker keeps the modules it loaded (playwright-core, the explorer's build and servers) for
    // its next file: the suite alone took 221 busy CPU-s against 242 with a fresh module graph per
    // file (import time 5.6 s against 12.8 s). The files share nothing else: each opens its own
    // browser context and servers, and none writes process.env.
    isolate: false,
    // The browser tests drive Swagger UI in Chromium: waits end on readiness, within READY_MS.
    expect: { poll: { timeout: READY_MS } },
    // A browser test makes several page loads and requests, each bounded by READY_MS.
    testTimeout: 300_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
