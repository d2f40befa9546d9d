import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Real servers and a TLS handshake: a test took at most 20 s in `npm test` beside a CPU hog at
    // load 20 on the 2-core machine, so about 6 times that; the consumer test (an npm install and
    // tsc) sets its own.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A worker keeps the modules it loaded (openapi-fetch, undici) for its next file; the files
    // share no state (no module mocks, no process.env writes).
    isolate: false,
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
