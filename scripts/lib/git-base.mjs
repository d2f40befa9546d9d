// Finds the commit a change is compared with (the merge base), for `npm run breaking`.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { commandLine } from '@svc/args';

/**
 * Runs git in `cwd` and returns its trimmed stdout, or undefined when git exits non-zero.
 * @param {string} cwd
 * @param {string[]} args
 */
function git(cwd, args) {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch {
    return undefined;
  }
}

/**
 * The commit to compare the working tree with.
 *
 * The base ref is `ref` if given, else `origin/main` if it exists, else `main`. The result is
 * `git merge-base HEAD <ref>`. When that is HEAD itself: HEAD if `spec/` or `redocly.yaml` have
 * uncommitted changes (an author on main), else the parent `HEAD~1` (CI on main).
 *
 * @param {{ cwd: string, ref?: string }} options `cwd`: a directory inside the repository
 * @returns {{ skip: false, commit: string, ref: string, why: string } | { skip: true, why: string }}
 *   `commit` is a full SHA; `why` says in words what is compared (printed by the caller). `skip`
 *   only when HEAD is the repository's first commit, so there is nothing older to compare with.
 * @throws {Error} when `cwd` is not a git repository, the ref does not exist, or the history is
 *   too shallow to find the base (the message says to fetch it or to name a base)
 */
export function resolveBase({ cwd, ref }) {
  if (git(cwd, ['rev-parse', '--git-dir']) === undefined) {
    throw new Error(
      `breaking: ${cwd} is not a git repository; the check compares with the merge base and needs the history`,
    );
  }
  const head = git(cwd, ['rev-parse', 'HEAD']);
  if (!head) throw new Error('breaking: the repository has no commit yet; commit first');
  const shallow = git(cwd, ['rev-parse', '--is-shallow-repository']) === 'true';
  const hint = shallow
    ? ' This clone is shallow: fetch the history (git fetch --unshallow, or actions/checkout with fetch-depth: 0) or pass --base <ref>.'
    : ' Pass --base <ref> (or set BREAKING_BASE) to name the branch to compare with.';

  const name = ref ?? (git(cwd, ['rev-parse', '--verify', '--quiet', 'origin/main^{commit}']) ? 'origin/main' : 'main');
  const target = git(cwd, ['rev-parse', '--verify', '--quiet', `${name}^{commit}`]);
  if (!target) throw new Error(`breaking: base ref "${name}" does not exist.${hint}`);
  const mergeBase = git(cwd, ['merge-base', 'HEAD', target]);
  if (!mergeBase) throw new Error(`breaking: HEAD and "${name}" have no common commit in this clone.${hint}`);
  if (mergeBase !== head) {
    return {
      skip: false,
      commit: mergeBase,
      ref: name,
      why: `merge base of HEAD and ${name}: ${mergeBase.slice(0, 12)}`,
    };
  }
  const dirty = git(cwd, ['status', '--porcelain', '--', 'spec', 'redocly.yaml']);
  if (dirty) {
    return {
      skip: false,
      commit: head,
      ref: 'HEAD',
      why: `HEAD ${head.slice(0, 12)} (the merge base with ${name}; spec/ has uncommitted changes)`,
    };
  }
  const parent = git(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD~1^{commit}']);
  if (parent) {
    return {
      skip: false,
      commit: parent,
      ref: 'HEAD~1',
      why: `HEAD is the merge base with ${name} (a build of ${name} itself), so its parent HEAD~1: ${parent.slice(0, 12)}`,
    };
  }
  if (shallow)
    throw new Error(`breaking: HEAD is the merge base with ${name} and its parent is not in this clone.${hint}`);
  return {
    skip: true,
    why: `HEAD ${head.slice(0, 12)} is the first commit of the repository: there is no older description to compare with`,
  };
}

/**
 * What `npm run breaking` and `npm run release:check` share: their options (`--base`, `--repo`,
 * `--if-history`; `BREAKING_BASE` in the environment as a default base) and the base they compare
 * with. A bad argument ends the process (`commandLine`: the usage, exit 2). Prints, under the
 * command's name, `NOT CHECKED` when the history is missing and `--if-history` was given, or
 * `SKIPPED` on the first commit.
 *
 * @param {string} command the name printed first (`breaking`)
 * @param {string} usage   the usage line
 * @param {string} defaultRepo the repository when `--repo` is not given
 * @param {string[]} [argv] default `process.argv.slice(2)`
 * @returns {{ exit: number } | { repo: string, base: { commit: string, ref: string, why: string } }}
 *   `exit` when the command ends here: 2 for a missing history without `--if-history`, 0 for
 *   NOT CHECKED and SKIPPED
 */
export function baseFromCommandLine(command, usage, defaultRepo, argv) {
  const args = commandLine(
    command,
    usage,
    { options: { base: { type: 'string' }, repo: { type: 'string' }, 'if-history': { type: 'boolean' } } },
    argv,
  ).values;
  const repo = resolve(args.repo ?? defaultRepo);
  let base;
  try {
    base = resolveBase({ cwd: repo, ref: args.base ?? (process.env.BREAKING_BASE || undefined) });
  } catch (e) {
    const why = e.message.replace(/^breaking: /, '');
    if (!args['if-history']) {
      console.error(`${command}: ${why}`);
      return { exit: 2 };
    }
    console.log(`${command}: NOT CHECKED (--if-history): ${why}`);
    return { exit: 0 };
  }
  if (base.skip) {
    console.log(`${command}: SKIPPED, ${base.why}`);
    return { exit: 0 };
  }
  return { repo, base };
}
