import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Real servers, a TLS handshake and an npm install (consumer test) on a busy 2-core machine.
    testTimeout: 1_200_000,
    hookTimeout: 1_200_000,
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
