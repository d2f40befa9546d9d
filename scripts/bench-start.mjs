// Part of `npm run bench`: how long a newcomer waits, measured side by side in one run.
//   - `npm start` to its printed URLs from a fresh clone (a local `git clone` of HEAD, nothing
//     installed: `npm start` installs what it needs, with the machine's npm cache as it is) beside
//     the warm start (this checkout, installed and built);
//   - the Node check's answer on an old Node with SVC_NODE_FETCH=0 (when the machine has one);
//   - the local svc's image: its size and a container's start-up to the first answer (podman, on
//     the Node base assembled from this Node binary; NOT RUN where podman cannot run).
//   node scripts/bench-start.mjs [--runs 3]
// Each row gives its goal and whether it is met. Figures on a shared machine vary with its load,
// printed first.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { loadavg, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { commandLine, integer } from '@svc/args';
import { freePort } from '@svc/mock';
import { root } from '@svc/oas/apis';
import { buildImage, buildNodeBase, engineRun, removeStorage, sandboxPodman } from './lib/image.mjs';
import { ENGINES, unsupportedMachineNode } from './lib/node-install.mjs';

const GOALS = { fresh: 60, optOut: 2, imageMB: 150, containerStart: 2 };
const { values } = commandLine('bench-start', 'Usage: node scripts/bench-start.mjs [--runs 3]', {
  options: { runs: { type: 'string', default: '3', check: integer(1) } },
});

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const row = (label, value, unit, goal) =>
  console.log(
    `  ${label.padEnd(44)} ${value.toFixed(unit === 'MB' ? 0 : 1).padStart(7)} ${unit.padEnd(3)} goal < ${goal} ${unit}: ${value < goal ? 'met' : 'NOT met'}`,
  );

/**
 * The CPU seconds the processes of group `pgid` have used, their reaped children's included
 * (Linux /proc; NaN elsewhere): what the machine's load does not stretch.
 * @param {number} pgid
 */
function groupCpuSeconds(pgid) {
  let ticks = 0;
  try {
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      let stat;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // ended meanwhile
      }
      // the fields after the command's closing parenthesis: state is field 3, pgrp 5, utime..cstime 14-17
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) ticks += fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0);
    }
  } catch {
    return NaN;
  }
  return ticks / 100; // USER_HZ
}

/**
 * `npm start -- --port 0 ...` in `dir`: seconds to its printed URLs (the line "Ctrl-C stops them")
 * and the CPU seconds its processes used until then. The whole process group is stopped after.
 * @returns {Promise<{ seconds: number, cpu: number }>}
 */
async function startToUrls(dir, env = process.env) {
  const started = performance.now();
  const child = spawn('npm', ['start', '--', '--port', '0', '--mock-port', '0', '--sim-port', '0'], {
    cwd: dir,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  try {
    await new Promise((resolve, reject) => {
      const onData = (c) => {
        out += c;
        if (/Ctrl-C stops them/.test(out)) resolve(undefined);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('exit', (code) => reject(new Error(`npm start ended (${code}) before its URLs:\n${out.slice(-3000)}`)));
    });
    return { seconds: (performance.now() - started) / 1000, cpu: groupCpuSeconds(/** @type {number} */ (child.pid)) };
  } finally {
    try {
      process.kill(-(/** @type {number} */ (child.pid)), 'SIGTERM');
    } catch {
      // ended
    }
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
  }
}

console.log(
  `bench-start: on a shared machine, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);

// --- fresh clone beside the warm start
const clone = mkdtempSync(join(tmpdir(), 'svc-bench-clone-'));
try {
  const cloned = spawnSync('git', ['clone', '--quiet', root, clone], { stdio: 'inherit' });
  if (cloned.status !== 0) throw new Error('git clone of this checkout failed');
  const fresh = await startToUrls(clone, { ...process.env, SVC_PASSWORD: 'bench' });
  const warm = [];
  for (let i = 0; i < values.runs; i++) warm.push(await startToUrls(root, { ...process.env, SVC_PASSWORD: 'bench' }));
  row('npm start, fresh clone to its URLs', fresh.seconds, 's', GOALS.fresh);
  console.log(`  ${'  of which CPU (every process of the start)'.padEnd(44)} ${fresh.cpu.toFixed(1).padStart(7)} s`);
  const warmMedian = median(warm.map((w) => w.seconds));
  console.log(
    `  ${'npm start, warm, to its URLs'.padEnd(44)} ${warmMedian.toFixed(1).padStart(7)} s   (median of ${values.runs})`,
  );
  console.log(
    `  ${'  of which CPU'.padEnd(44)} ${median(warm.map((w) => w.cpu))
      .toFixed(1)
      .padStart(7)} s`,
  );
} finally {
  rmSync(clone, { recursive: true, force: true });
}

// --- the Node check's one line on an old Node
const oldNode = unsupportedMachineNode()?.node;
if (oldNode) {
  const times = [];
  const cpu = [];
  for (let i = 0; i < values.runs; i++) {
    const started = performance.now();
    // bash's `times`: the CPU seconds of what it ran (npm and the check), which the load does not stretch
    const r = spawnSync('bash', ['-c', 'npm start >/dev/null 2>&1; times'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${dirname(oldNode)}${delimiter}${process.env.PATH}`, SVC_NODE_FETCH: '0' },
    });
    times.push((performance.now() - started) / 1000);
    const [, um, us, sm, ss] = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(r.stdout) ?? [];
    cpu.push(Number(um) * 60 + Number(us) + Number(sm) * 60 + Number(ss));
  }
  row('npm start on an old Node, SVC_NODE_FETCH=0', median(times), 's', GOALS.optOut);
  console.log(`  ${'  of which CPU (npm and the check)'.padEnd(44)} ${median(cpu).toFixed(1).padStart(7)} s`);
} else console.log(`  Node check on an old Node: NOT RUN (no Node outside ${ENGINES} here)`);

// --- the image
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-image-'));
const podman = sandboxPodman(dir);
if ('reason' in podman) console.log(`  image: NOT RUN (${podman.reason})`);
else {
  const { engine } = podman;
  try {
    const base = buildNodeBase({ engine, tag: 'localhost/svc-node-base:bench' });
    const { tag, bytes } = buildImage({ engine, tag: 'localhost/svc-simulator:bench', base });
    row('image size (on the assembled Node base)', bytes / 1e6, 'MB', GOALS.imageMB);
    // The anchor: the same engine starting a container of the bare Node base that answers at once.
    const floor = [];
    for (let i = 0; i < values.runs; i++) {
      const started = performance.now();
      engineRun(engine, ['run', '--rm', '--network=host', base, 'node', '-e', '0']);
      floor.push((performance.now() - started) / 1000);
    }
    const times = [];
    for (let i = 0; i < values.runs; i++) {
      const port = await freePort();
      const started = performance.now();
      const id = engineRun(engine, [
        'run',
        '--detach',
        '--network=host',
        ...['--env', 'SVC_SIM_HOST=127.0.0.1', '--env', `SVC_SIM_PORT=${port}`, '--env', 'SVC_SIM_PASSWORD=bench'],
        tag,
      ]).trim();
      // the first answer: polled, as a CI job's readiness check does (bounded: 60 s)
      while (!(await answers(port))) {
        if (performance.now() - started > 60_000) throw new Error('the container did not answer within 60 s');
        await new Promise((r) => setTimeout(r, 20));
      }
      times.push((performance.now() - started) / 1000);
      engineRun(engine, ['rm', '--force', '--time', '10', id]);
    }
    row(`container start-up to the first answer (median of ${values.runs})`, median(times), 's', GOALS.containerStart);
    console.log(
      `  ${'  the engine alone: run and end `node -e 0`'.padEnd(44)} ${median(floor).toFixed(1).padStart(7)} s   (the floor on this machine)`,
    );
  } finally {
    removeStorage(engine);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether the local svc on `port` answers an HTTPS request (any status). */
function answers(port) {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/svc/v3/clusters/list', rejectUnauthorized: false });
    req.on('response', (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}
