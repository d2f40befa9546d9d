// Part of `npm run bench`: the cold build (lint, bundle, generate and typecheck of every API,
// with an empty turbo cache) against the warm no-change rebuild (same cache, nothing changed),
// measured side by side in one run.
//   node scripts/bench-build.mjs [--warm-runs 3]
// The cache is a fresh temporary directory (turbo --cache-dir), so the project's own cache is
// neither used for the cold run nor changed. Each run's "cached" count is printed so a warm run
// that was not a full cache hit is visible.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLine, integer } from '@svc/args';
import { apis, root } from '@svc/oas/apis';

const require = createRequire(import.meta.url);
const TASKS = ['lint:redocly', 'lint:spectral', 'typecheck'];

const { values } = commandLine('bench-build', 'Usage: node scripts/bench-build.mjs [--warm-runs 3]', {
  options: { 'warm-runs': { type: 'string', default: '3', check: integer(1) } },
});
const warmRuns = values['warm-runs'];

function turboBin() {
  try {
    return require.resolve('turbo/bin/turbo');
  } catch {
    return join(root, 'node_modules', '.bin', 'turbo');
  }
}

/** One turbo run; returns seconds and turbo's own task counts. */
function run(cacheDir) {
  const started = process.hrtime.bigint();
  const r = spawnSync(
    turboBin(),
    ['run', ...TASKS, `--cache-dir=${cacheDir}`, '--output-logs=errors-only', '--no-daemon'],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const out = `${r.stdout}${r.stderr}`;
  if (r.status !== 0) {
    console.error(out);
    throw new Error(`turbo run ${TASKS.join(' ')} failed (exit ${r.status})`);
  }
  const m = /Cached:\s+(\d+) cached, (\d+) total/.exec(out);
  return { seconds, cached: m ? Number(m[1]) : NaN, total: m ? Number(m[2]) : NaN };
}

const cacheDir = mkdtempSync(join(tmpdir(), 'svc-bench-turbo-cache-'));
try {
  console.log(
    `bench-build: turbo run ${TASKS.join(' ')} (${apis().length} APIs), an empty cache in a temporary folder`,
  );
  const cold = run(cacheDir);
  const warm = Array.from({ length: warmRuns }, () => run(cacheDir));
  const median = [...warm].sort((a, b) => a.seconds - b.seconds)[Math.floor(warm.length / 2)];
  const row = (label, r, extra = '') =>
    console.log(
      `  ${label.padEnd(22)} ${r.seconds.toFixed(2).padStart(7)} s   ${r.cached}/${r.total} tasks cached${extra}`,
    );
  row('cold build', cold);
  row('warm no-change', median, `   (median of ${warmRuns})`);
  console.log(`  ${'cold / warm'.padEnd(22)} ${(cold.seconds / median.seconds).toFixed(1).padStart(7)} x`);
  if (warm.some((r) => r.cached !== r.total))
    console.log('  NOTE: a warm run was not a full cache hit: some task inputs change on every run');
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
}
