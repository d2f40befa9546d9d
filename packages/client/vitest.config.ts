import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Real servers, a TLS handshake and an npm install (consumer test) on a busy 2-core machine.
    testTimeout: 1_200_000,
    hookTimeout: 1_200_000,
    // A worker keeps the modules it loaded (openapi-fetch, undici) for its next file; the files
    // share no state (no module mocks, no process.env writes).
    isolate: false,
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
