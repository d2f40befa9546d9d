// The scripts' tests spawn git, Node and servers and wait on them: on a loaded 2-core machine
// (load average 30 seen) a test that takes 1 s alone takes a minute. Three files run side by side
// (vitest's default on 2 cores is one) since they mostly wait on child processes; each waits on
// readiness (output, an exit), and the limits below only end a hang.
import { defineConfig } from 'vitest/config';

// isolate: false: a worker keeps the modules it loaded (vitest, @svc/*, Redocly) for its next file; the
// files share no state (no mocks, no process.env writes).
export default defineConfig({ test: { testTimeout: 300_000, hookTimeout: 600_000, maxWorkers: 3, isolate: false } });
