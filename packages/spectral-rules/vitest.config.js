import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The first test of each file bundles and loads a ruleset (spectral:oas, OWASP, the house
    // functions); under `npm test` that runs beside every other package's tests and can take
    // more than vitest's default 5 s on a small machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
