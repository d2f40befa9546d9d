// Part of `npm run bench`: the author loop of `npm run dev`, on a copy of the repository. Saves
// spec/objects/openapi.yaml the way editors do (a new file renamed over it) and measures, per save,
// the time to the explorer page's reload event and to the regenerated client types.
//   node scripts/bench-dev.mjs [--saves 3] [--before <git ref>]
// With --before, the same is measured for `npm run dev` as it was at that commit, side by side in
// one run (each copy runs alone, one after the other).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLine, integer } from '@svc/args';
import { EVENTS_PATH } from '@svc/explorer';
import { copyRepository } from './lib/repo-copy.mjs';

const GOALS = { reload: 2000, types: 3000 };
const { values } = commandLine('bench-dev', 'Usage: node scripts/bench-dev.mjs [--saves 3] [--before <git ref>]', {
  options: { saves: { type: 'string', default: '3', check: integer(1) }, before: { type: 'string' } },
});

/** Resolves when `read()` matches `pattern`, or rejects when the child ends or `ms` pass. */
async function until(read, pattern, child, ms) {
  const started = Date.now();
  while (!pattern.test(read())) {
    if (child.exitCode !== null) throw new Error(`dev exited (${child.exitCode}) before ${pattern}:\n${read()}`);
    if (Date.now() - started > ms) throw new Error(`no ${pattern} within ${ms / 1000} s:\n${read().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Runs `npm run dev` in a copy (of the working tree, or of `ref`) and saves `saves` times.
 * @returns {Promise<{ reload: number[], types: number[], steps: string }>} milliseconds from each
 *   save; `steps`: the last save's step lines of `npm run dev` (each with its time)
 */
async function measure(label, ref) {
  const copy = mkdtempSync(join(tmpdir(), 'svc-bench-dev-'));
  let child;
  let reader;
  try {
    copyRepository(copy, { ref });
    let output = '';
    child = spawn(process.execPath, [join(copy, 'scripts', 'dev.mjs'), '--port', '0'], {
      cwd: copy,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    /** Each line of output with the time it arrived. */
    const lines = [];
    const onData = (chunk) => {
      output += chunk;
      for (const line of String(chunk).split('\n')) lines.push({ at: performance.now(), line });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    // the first build of every API: slow on a busy machine, not what is measured
    await until(() => output, /live reload at (http:\S+)/, child, 600_000);
    const front = /** @type {RegExpExecArray} */ (/live reload at (http:\S+)/.exec(output))[1];
    const res = await fetch(new URL(EVENTS_PATH, front));
    reader = /** @type {ReadableStream<Uint8Array>} */ (res.body).getReader();
    const events = [];
    const decoder = new TextDecoder();
    (async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        const text = decoder.decode(r.value);
        if (/event: reload/.test(text)) events.push(performance.now());
      }
    })().catch(() => {});
    const file = join(copy, 'spec', 'objects', 'openapi.yaml');
    const original = readFileSync(file, 'utf8');
    const reload = [];
    const types = [];
    let steps = '';
    for (let i = 1; i <= values.saves; i++) {
      const seenEvents = events.length;
      const seenLines = lines.length;
      writeFileSync(`${file}.tmp-save`, original.replace(/^( {2}title: .+)$/m, `$1 (edit ${i})`));
      const saved = performance.now();
      renameSync(`${file}.tmp-save`, file);
      await until(() => String(events.length > seenEvents), /true/, child, 300_000);
      reload.push(events[seenEvents] - saved);
      // then the whole rebuild's end, so that the next save starts from quiet
      const rest = () =>
        lines
          .slice(seenLines)
          .map((l) => l.line)
          .join('\n');
      await until(rest, /dev: rebuilt/, child, 300_000);
      const typed = lines.slice(seenLines).find((l) => /ok {3}generate client types/.test(l.line));
      types.push(typed ? typed.at - saved : Number.NaN);
      if (!/generate client types/.test(rest())) throw new Error(`${label}: no types step:\n${rest()}`);
      steps = rest()
        .split('\n')
        .filter((l) => /^ {2}(ok|warn|FAIL) /.test(l))
        .join('\n');
    }
    return { reload, types, steps };
  } finally {
    await reader?.cancel().catch(() => {});
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(copy, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** @type {[string, { reload: number[], types: number[], steps: string }][]} */
const runs = [];
if (values.before) runs.push([`before (${values.before})`, await measure('before', values.before)]);
runs.push(['now', await measure('now')]);

console.log(`bench-dev: npm run dev, ${values.saves} save(s) of spec/objects/openapi.yaml, median ms from the save`);
console.log(`  ${'figure'.padEnd(26)}${runs.map(([l]) => l.padStart(20)).join('')}${'goal'.padStart(10)}  met`);
for (const [key, what] of /** @type {const} */ ([
  ['reload', 'save -> explorer reloaded'],
  ['types', 'save -> types regenerated'],
])) {
  const now = median(/** @type {(typeof runs)[number]} */ (runs.at(-1))[1][key]);
  const cells = runs.map(([, r]) => `${Math.round(median(r[key]))}`.padStart(20)).join('');
  console.log(`  ${what.padEnd(26)}${cells}${`< ${GOALS[key]}`.padStart(10)}  ${now < GOALS[key] ? 'yes' : 'no'}`);
}
if (runs.length > 1) {
  for (const key of ['reload', 'types'])
    console.log(
      `  ${`${key}: before / now`.padEnd(26)}${(median(runs[0][1][key]) / median(runs[1][1][key])).toFixed(1).padStart(20)} x`,
    );
}
// where the time goes: each step's own time in the last save (steps run side by side)
for (const [label, r] of runs) console.log(`\n  ${label}, the last save's steps:\n${r.steps}`);
