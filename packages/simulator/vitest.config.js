import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.js'],
    // real servers, TLS and a 100 MB upload on a busy 2-core machine
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
