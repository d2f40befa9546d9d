// The scripts' tests spawn git, Node and servers and wait on them. One file per core runs side
// by side (vitest's default is cores - 1) since they mostly wait on child processes; each waits on
// readiness (output, an exit). The limits end a hang, sized to what the thing waited for needs: a
// test took at most 85 s in `npm test` beside a CPU hog at load 20 on the 2-core machine, so about
// 4 times that; the slower ones (typecheck, the dev loop) set their own. A command is limited by
// support/run.mjs, naming it, within the test's limit.

import { defineConfig } from 'vitest/config';
import { BaseSequencer } from 'vitest/node';

// The files that take longest (a whole dev loop, Prism proxies, git repositories), longest first.
// Without vitest's cache of durations (a fresh clone, CI) it runs the largest files first, which
// left dev-loop, the longest, to start last: the suite then took its time on top of the others'.
const LONGEST = [
  'dev-loop',
  'contract-simulator',
  'contract',
  'breaking-cli',
  'release',
  'typecheck',
  'args',
  'lint-spectral',
];

/** vitest's order, with the LONGEST files moved to the front. */
class LongestFirst extends BaseSequencer {
  /** @param {import('vitest/node').TestSpecification[]} files */
  async sort(files) {
    const rank = (/** @type {import('vitest/node').TestSpecification} */ f) => {
      const i = LONGEST.findIndex((name) => f.moduleId.endsWith(`/${name}.test.mjs`));
      return i < 0 ? LONGEST.length : i;
    };
    const sorted = await super.sort(files);
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

// isolate: false: a worker keeps the modules it loaded (vitest, @svc/*, Redocly) for its next file; the
// files share no state (no mocks, no process.env writes).
export default defineConfig({
  test: {
    testTimeout: 300_000,
    hookTimeout: 300_000,
    maxWorkers: '100%',
    isolate: false,
    sequence: { sequencer: LongestFirst },
  },
});
