import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.js'],
    // hang guards only: real servers, TLS and a 100 MB upload take many times their usual time on a busy machine
    testTimeout: 1_200_000,
    hookTimeout: 1_200_000,
  },
});
