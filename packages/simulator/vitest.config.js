import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.js'],
    // after each file: its descriptors back to where they were, its simulators closed idle
    setupFiles: ['test/support/leak-check.js'],
    // hang guards only: real servers, TLS and a 100 MB upload take many times their usual time on a busy machine
    testTimeout: 1_200_000,
    hookTimeout: 1_200_000,
    // A worker keeps the modules it loaded (openapi-backend, its compiled validators of the
    // bundles) for its next file: 33 to 51 CPU-s for the suite here instead of 50 to 57. The
    // files share nothing else (each starts its own simulator in its own folder; no mocks, no
    // process.env writes).
    isolate: false,
    // the kill walks run two at a time (describe.concurrent): each waits on its own child processes
    maxConcurrency: 2,
  },
});
