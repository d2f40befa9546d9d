import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The first test of each file bundles and loads a ruleset (spectral:oas, OWASP, the house
    // functions); under `npm test` that runs beside every other package's tests and can take
    // more than vitest's default 5 s on a small machine, and over a minute under a load average
    // of 40 (npm test beside a CPU hog): the limits only end a hang.
    testTimeout: 1_200_000,
    // Every file lints through the same Spectral and ruleset (test/support/lint.js caches the
    // bundled ruleset per process): one worker that keeps its modules loads them once, not once
    // per file (import was most of this package's time). The files share no state otherwise.
    isolate: false,
    fileParallelism: false,
    hookTimeout: 1_200_000,
  },
});
