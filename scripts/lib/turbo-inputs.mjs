// Why a second build of a fresh clone was not a cache hit: turbo hashes every task's input files
// when the run starts, before any task runs. A task that lists a dependency's outputs (dist/*.json)
// as inputs hashes "missing" on the first build of a fresh clone and the files on the second, so
// the second misses. The dependency's hash is already part of the task's hash through dependsOn,
// so such inputs add nothing but the miss. This finds them in turbo.json.
import { posix } from 'node:path';
import picomatch from 'picomatch';

const ROOT = '$TURBO_ROOT$/';
const PACKAGE = 'packages/PKG';
const OTHER = 'packages/DEP';

const WILD = /[*?[\]{}]/;
const segments = (/** @type {string} */ glob) => glob.split('/').filter((s) => s !== '' && s !== '.');

/** Whether some file or folder name can match both glob segments (two wildcards: assumed so). */
function segmentsMeet(a, b) {
  if (!WILD.test(a)) return WILD.test(b) ? picomatch.isMatch(a, b, { dot: true }) : a === b;
  return WILD.test(b) || picomatch.isMatch(b, a, { dot: true });
}

/**
 * Whether some path matches both globs, given as segments (`**` is any number of folders).
 * @param {string[]} a
 * @param {string[]} b
 * @returns {boolean}
 */
function meet(a, b) {
  if (a[0] === '**') return meet(a.slice(1), b) || (b.length > 0 && meet(a, b.slice(1)));
  if (b[0] === '**') return meet(a, b.slice(1)) || (a.length > 0 && meet(a.slice(1), b));
  if (!a.length || !b.length) return !a.length && !b.length;
  return segmentsMeet(a[0], b[0]) && meet(a.slice(1), b.slice(1));
}

/**
 * Whether every path that matches `b` matches `a` (a negated input that excludes an output).
 * @param {string[]} a
 * @param {string[]} b
 * @returns {boolean}
 */
function covers(a, b) {
  if (a.length === 1 && a[0] === '**') return true;
  if (!a.length || !b.length || b[0] === '**') return !a.length && !b.length;
  const named = WILD.test(b[0]) ? a[0] === '*' || a[0] === b[0] : picomatch.isMatch(b[0], a[0], { dot: true });
  return named && covers(a.slice(1), b.slice(1));
}

/** A task's glob as a repository path: root tasks are at the root, package tasks in `dir`. */
function resolve(glob, dir) {
  if (glob.startsWith(ROOT)) return posix.normalize(glob.slice(ROOT.length));
  return posix.normalize(dir ? `${dir}/${glob}` : glob);
}

/**
 * The inputs of turbo.json tasks that are outputs of a task they depend on (directly or not).
 * Package tasks are taken for one package (`packages/PKG`), `^task` and `pkg#task` dependencies
 * for another (`packages/DEP`, which `packages/*` matches); `$TURBO_DEFAULT$` is skipped
 * (git-ignored outputs are not part of it), and so is an output that a negated input excludes
 * (turbo hashes git-ignored files that an explicit glob names).
 * @param {{ tasks: Record<string, { dependsOn?: string[], inputs?: string[], outputs?: string[] }> }} turbo
 *   the parsed turbo.json
 * @returns {{ task: string, input: string, output: string, of: string }[]} one entry per clash
 */
export function outputsUsedAsInputs(turbo) {
  const tasks = turbo.tasks ?? {};
  /** The task definition and folder of a dependsOn entry seen from a task in `dir`. */
  const target = (dep, dir) => {
    if (dep.startsWith('//#')) return { key: dep, dir: '' };
    if (dep.startsWith('^')) return { key: dep.slice(1), dir: OTHER };
    if (dep.includes('#')) return { key: dep.split('#')[1], dir: OTHER };
    return { key: dep, dir };
  };
  const clashes = [];
  for (const [key, def] of Object.entries(tasks)) {
    const dir = key.startsWith('//#') ? '' : PACKAGE;
    const inputs = (def.inputs ?? []).filter((g) => g !== '$TURBO_DEFAULT$' && !g.startsWith('!'));
    const excluded = (def.inputs ?? []).filter((g) => g.startsWith('!')).map((g) => segments(resolve(g.slice(1), dir)));
    const seen = new Set();
    const queue = (def.dependsOn ?? []).map((d) => target(d, dir));
    while (queue.length) {
      const dep = /** @type {(typeof queue)[number]} */ (queue.shift());
      const id = `${dep.dir}:${dep.key}`;
      if (seen.has(id) || !tasks[dep.key]) continue;
      seen.add(id);
      const depDef = tasks[dep.key];
      queue.push(...(depDef.dependsOn ?? []).map((d) => target(d, dep.dir)));
      for (const output of (depDef.outputs ?? []).filter((g) => !g.startsWith('!'))) {
        const written = segments(resolve(output, dep.dir));
        if (excluded.some((negation) => covers(negation, written))) continue;
        for (const input of inputs) {
          if (meet(segments(resolve(input, dir)), written)) clashes.push({ task: key, input, output, of: dep.key });
        }
      }
    }
  }
  return clashes;
}
