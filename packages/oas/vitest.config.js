import { defineConfig } from 'vitest/config';

// The timeouts only guard against a hang: a test on a busy machine may take many times its usual time.
export default defineConfig({ test: { testTimeout: 1_200_000, hookTimeout: 1_200_000 } });
