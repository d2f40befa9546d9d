import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    // A limit ends a hang: a test is a few requests to Prism (a whole file took 3 s at load 11 on
    // the 2-core machine); Prism's start has its own limit (test/global-setup.ts).
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A worker keeps the modules it loaded for its next file; the files share no state.
    isolate: false,
  },
});
