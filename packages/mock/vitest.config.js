import { defineConfig } from 'vitest/config';

// A limit ends a hang: a test starts up to five Prism servers, 4 s at load 11 on the 2-core
// machine (the suite beside a CPU hog runs at about that load), so 30 times that.
export default defineConfig({ test: { testTimeout: 120_000, hookTimeout: 120_000 } });
