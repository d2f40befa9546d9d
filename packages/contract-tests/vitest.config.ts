import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    // A limit ends a hang: a test is a few requests to Prism (a whole file of 123 took 16 s in
    // `npm test` beside a CPU hog at load 20 on the 2-core machine); Prism's start has its own
    // limit (test/global-setup.ts).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A worker keeps the modules it loaded for its next file; the files share no state.
    isolate: false,
  },
});
