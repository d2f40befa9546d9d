// Part of `npm run bench`: the author loop of `npm run dev`, on a copy of the repository. Saves
// spec/objects/openapi.yaml the way editors do (a new file renamed over it) and measures, per save,
// what the author sees: the page's reload event, then the reloaded page as the browser fetches it
// (the page, its script and the spec) with the edited spec served, and the regenerated client types.
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

/** Goals in ms from the save; the reload event has none of its own: the served page is what counts. */
const GOALS = { reload: undefined, served: 2000, types: 3000 };
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
 * What a reloaded page fetches, as the browser does: the page, then its script and the spec side by
 * side (the page preloads the spec); each on a connection of its own, compressed as a browser asks.
 * @param {string} front the explorer's URL
 * @returns {Promise<{ at: number, title: string }>} when the last answer ended, and the served
 *   spec's `info.title`
 * @throws {Error} naming the path when an answer is not 200
 */
async function loadPage(front) {
  const get = async (path) => {
    const res = await fetch(new URL(path, front), { headers: { connection: 'close', 'accept-encoding': 'br, gzip' } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`GET /${path} answered ${res.status}: ${body.slice(0, 200)}`);
    return body;
  };
  await get('');
  const [, spec] = await Promise.all([get('explorer.js'), get('specs/objects.json')]);
  return { at: performance.now(), title: JSON.parse(spec).info.title };
}

/**
 * Runs `npm run dev` in a copy (of the working tree, or of `ref`) and saves `saves` times.
 * @returns {Promise<{ reload: number[], served: number[], types: number[], steps: string }>}
 *   milliseconds from each save; `steps`: the last save's step lines of `npm run dev` (each with its time)
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
    // and its linters (they go on after the servers start): the first save starts from quiet
    await until(() => output, /^dev: (rebuilt|the first build failed)/m, child, 600_000);
    const res = await fetch(new URL(EVENTS_PATH, front));
    reader = /** @type {ReadableStream<Uint8Array>} */ (res.body).getReader();
    /** Per reload event: when it arrived, and the page it reloaded (fetched at once, as the browser does). */
    const events = [];
    const decoder = new TextDecoder();
    (async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        const text = decoder.decode(r.value);
        if (/event: reload/.test(text)) {
          const page = loadPage(front);
          page.catch(() => {}); // read below
          events.push({ at: performance.now(), page });
        }
      }
    })().catch(() => {});
    const file = join(copy, 'spec', 'objects', 'openapi.yaml');
    const original = readFileSync(file, 'utf8');
    const reload = [];
    const served = [];
    const types = [];
    let steps = '';
    for (let i = 1; i <= values.saves; i++) {
      const seenEvents = events.length;
      const seenLines = lines.length;
      writeFileSync(`${file}.tmp-save`, original.replace(/^( {2}title: .+)$/m, `$1 (edit ${i})`));
      const saved = performance.now();
      renameSync(`${file}.tmp-save`, file);
      await until(() => String(events.length > seenEvents), /true/, child, 300_000);
      reload.push(events[seenEvents].at - saved);
      const page = await events[seenEvents].page;
      if (!page.title.endsWith(`(edit ${i})`))
        throw new Error(`${label}: the page reloaded after save ${i} was served the spec titled "${page.title}"`);
      served.push(page.at - saved);
      // then the whole rebuild's end, so that the next save starts from quiet
      const rest = () =>
        lines
          .slice(seenLines)
          .map((l) => l.line)
          .join('\n');
      await until(rest, /^dev: rebuilt objects/m, child, 300_000);
      const typed = lines.slice(seenLines).find((l) => /ok {3}generate client types/.test(l.line));
      types.push(typed ? typed.at - saved : Number.NaN);
      if (!/generate client types/.test(rest())) throw new Error(`${label}: no types step:\n${rest()}`);
      steps = rest()
        .split('\n')
        .filter((l) => /^ {2}(ok|warn|FAIL) /.test(l))
        .join('\n');
    }
    return { reload, served, types, steps };
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
/** @type {[string, { reload: number[], served: number[], types: number[], steps: string }][]} */
const runs = [];
if (values.before) runs.push([`before (${values.before})`, await measure('before', values.before)]);
runs.push(['now', await measure('now')]);

console.log(`bench-dev: npm run dev, ${values.saves} save(s) of spec/objects/openapi.yaml, median ms from the save`);
console.log(`  ${'figure'.padEnd(30)}${runs.map(([l]) => l.padStart(22)).join('')}${'goal'.padStart(10)}  met`);
for (const [key, what] of /** @type {const} */ ([
  ['reload', 'save -> reload event'],
  ['served', 'save -> edited page served'],
  ['types', 'save -> types regenerated'],
])) {
  const now = median(/** @type {(typeof runs)[number]} */ (runs.at(-1))[1][key]);
  const goal = GOALS[key];
  const cells = runs.map(([, r]) => `${Math.round(median(r[key]))}`.padStart(22)).join('');
  const met = goal === undefined ? '' : now < goal ? 'yes' : 'no';
  console.log(`  ${what.padEnd(30)}${cells}${(goal === undefined ? '-' : `< ${goal}`).padStart(10)}  ${met}`);
}
if (runs.length > 1) {
  for (const key of ['served', 'types'])
    console.log(
      `  ${`${key}: before / now`.padEnd(30)}${(median(runs[0][1][key]) / median(runs[1][1][key])).toFixed(1).padStart(22)} x`,
    );
}
// each save, to show the spread behind a median on a shared machine
for (const [label, r] of runs)
  console.log(
    `\n  ${label}, each save (reload / served / types ms): ${r.reload.map((_, i) => [r.reload[i], r.served[i], r.types[i]].map(Math.round).join(' / ')).join(',  ')}`,
  );
// where the time goes: each step's own time in the last save (steps run side by side)
for (const [label, r] of runs) console.log(`\n  ${label}, the last save's steps:\n${r.steps}`);
