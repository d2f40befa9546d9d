import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.js'],
    // One build of the page and one Chromium for all the test files.
    globalSetup: ['test/support/global-setup.js'],
    environment: 'node',
    // The browser tests drive Swagger UI in Chromium: bounded waits on readiness, long enough for a
    // machine shared by many test runs (a page load took over 20 s at a load average of 18).
    testTimeout: 1_200_000,
    hookTimeout: 1_200_000,
    teardownTimeout: 30_000,
  },
});
