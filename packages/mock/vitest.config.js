import { defineConfig } from 'vitest/config';

// A limit ends a hang: a test starts up to five Prism servers, 77 s at the most in `npm test`
// beside a CPU hog at load 20 on the 2-core machine, so about 4 times that.
export default defineConfig({ test: { testTimeout: 300_000, hookTimeout: 300_000 } });
