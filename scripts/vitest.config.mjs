// The scripts' tests spawn git, Node and servers: on a loaded 2-core CI machine a test that takes
// 1 s alone can take 6 s, past vitest's 5 s default.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { testTimeout: 30_000 } });
