// Part of `npm run bench`: the README's test command, `npm test`, as a fresh clone runs it (an
// empty turbo cache each run), on this machine as it is and then beside a CPU hog (one busy thread
// per core for the whole run), measured side by side in one run.
// Goals: under 5 minutes on a quiet 2-core machine, and green in 5 of 5 runs beside the hog.
//   node scripts/bench-test.mjs [--quiet-runs 1] [--hog-runs 5]
// Each run's output goes to a temporary file whose end is printed only when the run fails (it names
// the failed task and test). The load average is printed beside each run: on a shared machine a
// "quiet" run is only as quiet as the others let it be.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { commandLine, integer } from '@svc/args';
import { root } from '@svc/oas/apis';

const GOAL_SECONDS = 300;
const GOAL_HOG_GREEN = 5;

const { values } = commandLine('bench-test', 'Usage: node scripts/bench-test.mjs [--quiet-runs 1] [--hog-runs 5]', {
  options: {
    'quiet-runs': { type: 'string', default: '1', check: integer(0) },
    'hog-runs': { type: 'string', default: String(GOAL_HOG_GREEN), check: integer(0) },
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

/** CPU time the whole machine has spent busy so far (every core, every process), in seconds. */
function busySeconds() {
  return cpus().reduce((s, { times: t }) => s + t.user + t.nice + t.sys + t.irq, 0) / 1000;
}

/**
 * One `npm test` at the repository root, with an empty turbo cache of its own.
 * @param {string} work a temporary folder for the log and the cache
 * @param {string} name the run's name (file names)
 * @returns {Promise<{ seconds: number, busy: number, code: number | null, load: number, log: string }>}
 *   wall seconds, the machine's busy CPU-s meanwhile (busySeconds), exit code, the 1-minute load
 *   average at its end, the path of its output
 */
function npmTest(work, name) {
  const log = join(work, `${name}.log`);
  const started = process.hrtime.bigint();
  const busyBefore = busySeconds();
  // the child writes the file itself: all of it is there when the child has exited
  const out = openSync(log, 'w');
  const child = spawn('npm', ['test', '--', `--cache-dir=${join(work, `${name}-cache`)}`], {
    cwd: root,
    stdio: ['ignore', out, out],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      closeSync(out);
      resolve({
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
        busy: busySeconds() - busyBefore,
        code,
        load: loadavg()[0],
        log,
      });
    });
  });
}

const work = mkdtempSync(join(tmpdir(), 'svc-bench-test-'));
/** @type {{ name: string, kind: 'quiet' | 'hog', seconds: number, busy: number, code: number | null, load: number, loadBefore: number }[]} */
const results = [];
try {
  const plan = [
    ...Array.from({ length: values['quiet-runs'] }, (_, i) => ({ kind: 'quiet', name: `quiet ${i + 1}` })),
    ...Array.from({ length: values['hog-runs'] }, (_, i) => ({ kind: 'hog', name: `hog ${i + 1}` })),
  ];
  for (const { kind, name } of /** @type {{ kind: 'quiet' | 'hog', name: string }[]} */ (plan)) {
    const loadBefore = loadavg()[0];
    const hog = kind === 'hog' ? cpuHog() : undefined;
    let result;
    try {
      result = await npmTest(work, name.replace(' ', '-'));
    } finally {
      await hog?.stop();
    }
    results.push({ name, kind, loadBefore, ...result });
    console.log(
      `bench-test: ${name}: ${result.code === 0 ? 'green' : `exit ${result.code}`} in ${result.seconds.toFixed(0)} s`,
    );
    // the end of the log names the failed task and test
    if (result.code !== 0) console.error(readFileSync(result.log, 'utf8').split('\n').slice(-80).join('\n'));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.log(
  `\nbench-test: npm test on ${availableParallelism()} cores, an empty turbo cache each run; quiet, and beside a CPU hog (one busy thread per core)`,
);
// The suite keeps every core busy, so its wall time is about its CPU time over the cores: the
// CPU-s say whether a change of the wall time is the suite's or the machine's (the hog's are in
// the hog runs' figure).
console.log(
  `  ${'run'.padEnd(8)}${'seconds'.padStart(9)}${'busy CPU-s'.padStart(12)}${'load before/after'.padStart(19)}  result`,
);
for (const r of results)
  console.log(
    `  ${r.name.padEnd(8)}${r.seconds.toFixed(0).padStart(9)}${r.busy.toFixed(0).padStart(12)}${`${r.loadBefore.toFixed(1)} / ${r.load.toFixed(1)}`.padStart(19)}  ${r.code === 0 ? 'green' : `exit ${r.code}`}`,
  );
const quiet = results.filter((r) => r.kind === 'quiet');
const hogs = results.filter((r) => r.kind === 'hog');
console.log(`\n  ${'figure'.padEnd(34)}${'now'.padStart(12)}${'goal'.padStart(12)}  met`);
if (quiet.length) {
  const slowest = Math.max(...quiet.map((r) => r.seconds));
  const green = quiet.every((r) => r.code === 0);
  console.log(
    `  ${'quiet: seconds (slowest), green'.padEnd(34)}${`${slowest.toFixed(0)}${green ? '' : ', red'}`.padStart(12)}${`< ${GOAL_SECONDS}`.padStart(12)}  ${green && slowest < GOAL_SECONDS ? 'yes' : 'no'}`,
  );
}
if (hogs.length) {
  const green = hogs.filter((r) => r.code === 0).length;
  console.log(
    `  ${'beside the hog: green runs'.padEnd(34)}${`${green} of ${hogs.length}`.padStart(12)}${`${GOAL_HOG_GREEN} of ${GOAL_HOG_GREEN}`.padStart(12)}  ${green === hogs.length && hogs.length >= GOAL_HOG_GREEN ? 'yes' : 'no'}`,
  );
}
if (results.some((r) => r.code !== 0)) process.exitCode = 1;
