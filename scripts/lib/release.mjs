// Which changes need a changeset (.changeset/*.md, https://github.com/changesets/changesets), and
// which changesets a branch adds: for `npm run release:check` and `npm run breaking`.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import parseChangeset from '@changesets/parse';
import semver from 'semver';

/** The package whose release carries a change of `spec/`: its types are generated from the bundles. */
export const SPEC_PACKAGE = '@svc/client';

/** Files of a package that do not change what it ships, so need no changeset. */
const UNSHIPPED = /^(test|tests|bench)\/|(^|\/)CHANGELOG\.md$|\.test(-d)?\.[cm]?[jt]s$|^vitest\.config\.[cm]?[jt]s$/;

/**
 * A publishable workspace package.
 * @typedef {{ name: string, dir: string, version: string }} Package
 *   `dir`: relative to the repository root, with `/` (`packages/client`)
 */

/**
 * A changeset added since the base.
 * @typedef {{ file: string, summary: string, releases: { name: string, type: 'major' | 'minor' | 'patch' | 'none' }[] }} Changeset
 */

/**
 * The workspace packages of `packages/*`, in folder order.
 * @param {string} repo the repository root
 * @returns {(Package & { private: boolean })[]}
 */
export function workspacePackages(repo) {
  const dir = join(repo, 'packages');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .filter((name) => existsSync(join(dir, name, 'package.json')))
    .map((name) => {
      const pkg = JSON.parse(readFileSync(join(dir, name, 'package.json'), 'utf8'));
      return { name: pkg.name, dir: `packages/${name}`, version: pkg.version, private: pkg.private === true };
    });
}

/**
 * The workspace packages that are published (not `private`).
 * @param {string} repo the repository root
 * @returns {Package[]}
 */
export function publishablePackages(repo) {
  return workspacePackages(repo)
    .filter((p) => !p.private)
    .map(({ name, dir, version }) => ({ name, dir, version }));
}

const git = (repo, args) =>
  execFileSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });

/**
 * Files that differ between the commit `base` and the working tree: committed, staged, unstaged
 * and untracked (not ignored) ones, as repository-relative paths.
 * @param {string} repo
 * @param {string} base a commit
 * @returns {string[]}
 * @throws {Error} from git when `base` is not a commit of `repo`
 */
export function changedFiles(repo, base) {
  const tracked = git(repo, ['diff', '--name-only', '--no-renames', base, '--']).split('\n');
  const untracked = git(repo, ['ls-files', '--others', '--exclude-standard']).split('\n');
  return [...new Set([...tracked, ...untracked].filter(Boolean))].sort();
}

/**
 * The version a file had in commit `base`'s `package.json` of `dir`, or undefined when it had none.
 * @param {string} repo
 * @param {string} base
 * @param {string} dir
 */
export function versionAt(repo, base, dir) {
  try {
    return JSON.parse(git(repo, ['show', `${base}:${dir}/package.json`])).version;
  } catch {
    return undefined;
  }
}

/**
 * Every changeset in `.changeset/` (the pending ones: `changeset version` consumes them at a release).
 * @param {string} repo
 * @returns {Changeset[]}
 * @throws {Error} naming the file when a changeset does not parse
 */
export function pendingChangesets(repo) {
  const dir = join(repo, '.changeset');
  if (!existsSync(dir)) return [];
  return addedChangesets(
    repo,
    readdirSync(dir)
      .sort()
      .map((f) => `.changeset/${f}`),
  );
}

/**
 * The changesets among `files` (`.changeset/<id>.md`, not its README) that exist in the working
 * tree, parsed by @changesets/parse.
 * @param {string} repo
 * @param {string[]} files changed files (from `changedFiles`)
 * @returns {Changeset[]}
 * @throws {Error} naming the file when a changeset's front matter does not parse
 */
export function addedChangesets(repo, files) {
  return files
    .filter((f) => /^\.changeset\/[^/]+\.md$/.test(f) && f !== '.changeset/README.md' && existsSync(join(repo, f)))
    .map((file) => {
      try {
        const { summary, releases } = parseChangeset(readFileSync(join(repo, file), 'utf8'));
        return { file, summary, releases };
      } catch (e) {
        throw new Error(
          `${file} is not a changeset (front matter of "package": major|minor|patch lines, then a summary): ${e.message.split('\n')[0]}`,
        );
      }
    });
}

/**
 * What a change set of files lacks in changesets: every published package with a shipped file
 * changed, and `SPEC_PACKAGE` when `spec/` or `redocly.yaml` changed, must be named by an added
 * changeset; a package whose `version` changed is being released (`changeset version` consumed its
 * changesets) and needs none. Every changeset must name only published packages and say something.
 *
 * @param {object} input
 * @param {string[]} input.files         changed files, repository-relative
 * @param {Package[]} input.packages     the published packages
 * @param {Changeset[]} input.changesets the changesets added
 * @param {Set<string>} [input.released] names of packages whose version changed
 * @returns {{ unit: string, needs: string, problem: string }[]} empty when every change is covered
 */
export function missingChangesets({ files, packages, changesets, released = new Set() }) {
  const problems = [];
  const named = new Set(changesets.flatMap((c) => c.releases.filter((r) => r.type !== 'none').map((r) => r.name)));
  for (const c of changesets) {
    for (const r of c.releases) {
      if (!packages.some((p) => p.name === r.name))
        problems.push({
          unit: c.file,
          needs: r.name,
          problem: `names "${r.name}", which is not a published package of this repository (${packages.map((p) => p.name).join(', ') || 'none'})`,
        });
    }
    if (!c.summary.trim())
      problems.push({ unit: c.file, needs: '', problem: 'has no summary: say what changed for users of the package' });
  }
  for (const pkg of packages) {
    if (released.has(pkg.name)) continue;
    const shipped = files.filter((f) => f.startsWith(`${pkg.dir}/`) && !UNSHIPPED.test(f.slice(pkg.dir.length + 1)));
    if (shipped.length && !named.has(pkg.name)) {
      problems.push({
        unit: pkg.name,
        needs: pkg.name,
        problem: `changed (${shipped.slice(0, 3).join(', ')}${shipped.length > 3 ? `, +${shipped.length - 3}` : ''}) without a changeset that names it`,
      });
    }
  }
  const spec = files.filter((f) => f.startsWith('spec/') || f === 'redocly.yaml');
  if (spec.length && !named.has(SPEC_PACKAGE) && !released.has(SPEC_PACKAGE)) {
    problems.push({
      unit: 'spec/',
      needs: SPEC_PACKAGE,
      problem: `changed (${spec.slice(0, 3).join(', ')}${spec.length > 3 ? `, +${spec.length - 3}` : ''}) without a changeset that names ${SPEC_PACKAGE}, whose types are generated from it`,
    });
  }
  return problems;
}

/**
 * The semver bump an API's `info.version` needs for a change: `major` when it breaks clients,
 * `minor` when operations, fields or values were added, `patch` otherwise.
 * @param {{ breaking: number, additions: number }} change counts
 * @returns {'major' | 'minor' | 'patch'}
 */
export function expectedBump({ breaking, additions }) {
  if (breaking > 0) return 'major';
  return additions > 0 ? 'minor' : 'patch';
}

/** Whether `v` is a semver version (`MAJOR.MINOR.PATCH`, optional pre-release and build). */
export function isSemver(v) {
  return typeof v === 'string' && semver.valid(v) === v;
}

/**
 * The bump from one semver string to another.
 * @param {string} before
 * @param {string} after
 * @returns {'major' | 'minor' | 'patch' | 'none' | 'lower'} a pre-release counts as its kind
 *   (`1.0.0-rc.1` after `0.9.0` is major)
 * @throws {Error} when either is not semver (`MAJOR.MINOR.PATCH`)
 */
export function bumpOf(before, after) {
  for (const v of [before, after])
    if (!isSemver(v)) throw new Error(`info.version "${v}" is not semver (MAJOR.MINOR.PATCH, e.g. 3.1.0)`);
  if (semver.eq(before, after)) return 'none';
  if (semver.lt(after, before)) return 'lower';
  return semver
    .diff(before, after)
    .replace(/^pre(?!release)/, '')
    .replace('prerelease', 'patch');
}
