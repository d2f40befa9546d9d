// Part of `npm run bench`: the README's test command, `npm test`, on this machine as it is and then
// beside a CPU hog (one busy thread per core for the whole run), measured side by side in one run.
// Goals: under 3 minutes on a quiet machine, and green under load.
//   node scripts/bench-test.mjs [--runs quiet,hog]
// Each run is a full `npm test` (the same turbo tasks, nothing cached); its output goes to a
// temporary file that is printed only when the run fails.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { commandLine, knownNames } from '@svc/args';
import { root } from '@svc/oas/apis';

const GOAL_SECONDS = 180;
const KINDS = ['quiet', 'hog'];

const { values } = commandLine('bench-test', 'Usage: node scripts/bench-test.mjs [--runs quiet,hog]', {
  options: {
    runs: { type: 'string', default: KINDS.join(','), check: (v) => knownNames(v.split(','), KINDS, 'allowed run') },
  },
});

/**
 * Busy threads, one per core, until `stop()`: the load another build or test run puts on a shared
 * machine.
 * @returns {{ stop: () => Promise<void> }}
 */
function cpuHog() {
  const workers = Array.from({ length: availableParallelism() }, () => new Worker('for (;;) {}', { eval: true }));
  return { stop: () => Promise.all(workers.map((w) => w.terminate())).then(() => {}) };
}

/**
 * One `npm test` at the repository root.
 * @param {string} logFile where its output goes
 * @returns {Promise<{ seconds: number, code: number | null, load: number }>} wall seconds, exit
 *   code, and the 1-minute load average at its end
 */
function npmTest(logFile) {
  const started = process.hrtime.bigint();
  // the child writes the file itself: all of it is there when the child has exited
  const out = openSync(logFile, 'w');
  const child = spawn('npm', ['test'], { cwd: root, stdio: ['ignore', out, out] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      closeSync(out);
      resolve({ seconds: Number(process.hrtime.bigint() - started) / 1e9, code, load: loadavg()[0] });
    });
  });
}

const work = mkdtempSync(join(tmpdir(), 'svc-bench-test-'));
const results = [];
try {
  for (const kind of values.runs) {
    const log = join(work, `${kind}.log`);
    const hog = kind === 'hog' ? cpuHog() : undefined;
    let result;
    try {
      result = await npmTest(log);
    } finally {
      await hog?.stop();
    }
    results.push({ kind, ...result });
    if (result.code !== 0) {
      // the end of the log names the failed task and test
      console.error(readFileSync(log, 'utf8').split('\n').slice(-80).join('\n'));
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.log(
  `bench-test: npm test on ${availableParallelism()} cores, quiet and beside a CPU hog (one busy thread per core)`,
);
console.log(
  `  ${'run'.padEnd(8)}${'seconds'.padStart(9)}${'load'.padStart(7)}  ${'result'.padEnd(8)}${'goal'.padEnd(18)}met`,
);
for (const r of results) {
  const green = r.code === 0;
  const goal = r.kind === 'quiet' ? `< ${GOAL_SECONDS} s, green` : 'green';
  const met = green && (r.kind !== 'quiet' || r.seconds < GOAL_SECONDS);
  console.log(
    `  ${r.kind.padEnd(8)}${r.seconds.toFixed(0).padStart(9)}${r.load.toFixed(1).padStart(7)}  ${(green ? 'green' : `exit ${r.code}`).padEnd(8)}${goal.padEnd(18)}${met ? 'yes' : 'no'}`,
  );
}
if (results.some((r) => r.code !== 0)) process.exitCode = 1;
