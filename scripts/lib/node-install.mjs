// Node binaries from the npm registry's `node` package, and which Node lines this project runs
// on. Only node: modules: the Node check (scripts/supported-node.mjs) and `.ci/run` use it before
// any package is installed, on whatever Node the machine has.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = fileURLToPath(new URL('../..', import.meta.url));

/** The supported Node range: `engines.node` of the root package.json (e.g. `^22.19.0 || >=24`). */
export const ENGINES = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;

/**
 * The current LTS line (a major): what `.ci/run` runs on and what the Node check fetches when the
 * machine's Node is older. Raise it when the next even line enters LTS (October of its year).
 */
export const LTS_LINE = '26';

/**
 * `check` for a Node line: a major (`24`: its newest release), an exact version (`24.21.0`), or
 * `lts` (`LTS_LINE`).
 * @param {string} value as typed
 * @returns {string} the major or version to install
 * @throws {Error} naming the rule, when it is none of these
 */
export function nodeLine(value) {
  if (value === 'lts') return LTS_LINE;
  if (!/^\d{2}(\.\d+\.\d+)?$/.test(value))
    throw new Error(`"${value}" is not a Node line: give a major (24), a version (24.21.0) or lts`);
  return value;
}

/**
 * Installs `node@<line>` from the npm registry into `<prefix>`; the package's install step fetches
 * `node-<platform>-<arch>@<version>`, a registry package too (no other download).
 * @param {string} line  a major (`26`) or exact version
 * @param {string} prefix  a folder of ours
 * @returns {{ bin: string, version: string }}  the folder holding `node`, and `v26.10.0`
 * @throws {Error & { exitCode: 2 }} when npm cannot install it or the binary does not run
 */
export function installNode(line, prefix) {
  // npm 11 runs a dependency's install script only when allowScripts approves it: node@N's
  // preinstall is the step that fetches the binary, and the only script approved here.
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, 'package.json'), `${JSON.stringify({ private: true, allowScripts: { node: true } })}\n`);
  const npm = spawnSync(
    'npm',
    ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `node@${line}`],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (npm.error || npm.status !== 0)
    throw Object.assign(new Error(`could not install node@${line} from the registry`), { exitCode: 2 });
  const bin = nodeBin(prefix);
  const version = versionOf(join(bin, 'node'));
  if (!version) throw Object.assign(new Error(`node@${line} was installed but does not run`), { exitCode: 2 });
  return { bin, version };
}

/**
 * The folder holding the `node` that `installNode(line, prefix)` installs.
 * @param {string} prefix
 */
export const nodeBin = (prefix) => join(prefix, 'node_modules', 'node', 'bin');

/**
 * The version a Node binary reports, or undefined when it is not there or does not run.
 * @param {string} node  path of the binary
 * @returns {string | undefined}  e.g. `v26.10.0`
 */
export function versionOf(node) {
  const r = spawnSync(node, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/**
 * npm's own semver (the library npm judges `engines` with), found beside the npm that runs this
 * script (`npm_execpath`), else beside `node` or on PATH: nothing of this project is installed yet
 * when the Node check runs.
 * @returns {typeof import('semver') | undefined} undefined when no npm is found
 */
export function npmSemver() {
  const npmCli = [
    process.env.npm_execpath,
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'package.json'),
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => dir && join(dir, 'npm')),
  ];
  for (const file of npmCli) {
    if (!file || !existsSync(file)) continue;
    try {
      // realpath: /usr/bin/npm is a link into npm's own folder, where its semver is
      return createRequire(realpathSync(file))('semver');
    } catch {
      // not this one: try the next
    }
  }
  return undefined;
}

/**
 * The machine's own Node (`/usr/bin/node`, `/usr/local/bin/node`) when it is outside `engines`: the
 * Node the check exists for (Debian's Node 20), for the tests and the bench of that path.
 * @returns {{ node: string, version: string } | undefined} undefined when there is none
 */
export function unsupportedMachineNode() {
  const semver = npmSemver();
  for (const node of ['/usr/bin/node', '/usr/local/bin/node']) {
    const version = existsSync(node) ? versionOf(node) : undefined;
    if (version && semver && !semver.satisfies(version, ENGINES)) return { node, version };
  }
  return undefined;
}
