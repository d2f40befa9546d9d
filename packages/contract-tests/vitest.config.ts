import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 1_200_000,
    hookTimeout: 1_200_000,
    // A worker keeps the modules it loaded for its next file; the files share no state.
    isolate: false,
  },
});
