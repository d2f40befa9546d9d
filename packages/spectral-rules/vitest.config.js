import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The first test of each file bundles and loads a ruleset (spectral:oas, OWASP, the house
    // functions); under `npm test` that runs beside every other package's tests and can take
    // more than vitest's default 5 s on a small machine, and over a minute under a load average
    // of 40 (npm test beside a CPU hog): the limits only end a hang.
    testTimeout: 1_200_000,
    hookTimeout: 1_200_000,
  },
});
