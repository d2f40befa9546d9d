// Why a second build of a fresh clone was not a cache hit: turbo hashes every task's input files
// when the run starts, before any task runs. A task that lists a dependency's outputs (dist/*.json)
// as inputs hashes "missing" on the first build of a fresh clone and the files on the second, so
// the second misses. The dependency's hash is already part of the task's hash through dependsOn,
// so such inputs add nothing but the miss. This finds them in turbo.json.
import { posix } from 'node:path';

const ROOT = '$TURBO_ROOT$/';
const PACKAGE = 'packages/PKG';
const OTHER = 'packages/DEP';

/** The folder part of a glob before its first wildcard: `dist/*.json` -> `dist`. */
function base(glob) {
  const parts = glob.split('/');
  const fixed = [];
  for (const part of parts) {
    if (/[*?{}[\]!]/.test(part)) break;
    fixed.push(part);
  }
  // a plain file name is its own base
  return fixed.join('/');
}

/** A task's glob as a repository path: root tasks are at the root, package tasks in `dir`. */
function resolve(glob, dir) {
  if (glob.startsWith(ROOT)) return posix.normalize(glob.slice(ROOT.length));
  return posix.normalize(dir ? `${dir}/${glob}` : glob);
}

/** `a` lies inside `b` or `b` inside `a` (as path prefixes). */
function overlap(a, b) {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`) || a === '' || b === '';
}

/**
 * Whether an input glob can match a file of an output glob. An input whose wildcards stay in one
 * folder (`$TURBO_ROOT$/tsconfig.*.json`) matches files of that folder only, not of its subfolders.
 * @param {string} input  the resolved input glob
 * @param {string} output the resolved output glob
 */
function matchesOutput(input, output) {
  const from = base(input);
  const out = base(output);
  const deep = (/** @type {string} */ rest) => rest.includes('/') || rest.includes('**');
  const rest = input.slice(from ? from.length + 1 : 0);
  if (rest === '' || deep(rest)) return overlap(from, out);
  // the input matches files directly in `from`: does the output write any there?
  const outRest = output.slice(out ? out.length + 1 : 0);
  if (outRest === '') return posix.dirname(out).replace(/^\.$/, '') === from;
  return deep(outRest) ? overlap(from, out) && (from + '/').startsWith(out ? `${out}/` : '') : from === out;
}

/**
 * The inputs of turbo.json tasks that are outputs of a task they depend on (directly or not).
 * Package tasks are taken for one package (`packages/PKG`), `^task` dependencies for another
 * (`packages/DEP`); `$TURBO_DEFAULT$` and negated globs are skipped (git-ignored outputs are not
 * part of `$TURBO_DEFAULT$`).
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
        for (const input of inputs) {
          if (matchesOutput(resolve(input, dir), resolve(output, dep.dir)))
            clashes.push({ task: key, input, output, of: dep.key });
        }
      }
    }
  }
  return clashes;
}
