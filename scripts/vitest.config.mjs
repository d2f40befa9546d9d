// The scripts' tests spawn git, Node and servers and wait on them: on a loaded 2-core machine
// (load average 30 seen) a test that takes 1 s alone takes a minute. Three files run side by side
// (vitest's default on 2 cores is one) since they mostly wait on child processes; each waits on
// readiness (output, an exit), and the limits below only end a hang.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { testTimeout: 1_200_000, hookTimeout: 1_200_000, maxWorkers: 3 } });
