// Another Node line beside the machine's: installs the npm registry's `node@<line>` package into a
// temporary folder, puts its binary first on PATH, then runs `npm run build` (turbo cache bypassed,
// so it really builds on that line) and the tests of the given packages. Nothing native is
// installed (the simulator's store is node:sqlite), so the checkout works on every line unchanged.
//   npm run node -- <22 | 24 | 26 | exact version | lts> [--package @svc/client]... [--keep]
//   node scripts/node.mjs 26 --install-only --into DIR   (prints the bin folder; only node: modules,
//                                                          so .ci/run can call it before `npm ci`)
// Exit 0: all passed; 1: a step failed; 2: bad arguments (a line outside `engines`, a --package
// that is not a workspace) or no Node binary.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
// By path, not by name: .ci/run runs this before `npm ci`, when no workspace package is linked yet.
import { commandLine, knownNames, usageExit } from '../packages/args/src/index.js';
import { ENGINES, installNode, nodeLine, root } from './lib/node-install.mjs';

const USAGE =
  'Usage: npm run node -- <Node major (22, 24, 26), version (24.21.0) or lts> [--package <workspace name>]... [--keep]\n' +
  '       node scripts/node.mjs <major, version or lts> --install-only --into <dir>';
const DEFAULT_PACKAGES = ['@svc/client', '@svc/simulator'];

const { values, positionals } = commandLine('node', USAGE, {
  allowPositionals: true,
  options: {
    package: { type: 'string', multiple: true },
    keep: { type: 'boolean', default: false },
    'install-only': { type: 'boolean', default: false },
    into: { type: 'string' },
  },
});
if (positionals.length !== 1)
  usageExit('node', USAGE, `give one Node line, e.g. \`npm run node -- 24\`; got ${positionals.length}`);
let line;
try {
  line = nodeLine(positionals[0]);
} catch (e) {
  usageExit('node', USAGE, e.message);
}
if (values['install-only'] !== (values.into !== undefined))
  usageExit('node', USAGE, '--install-only and --into go together');
if (values['install-only'] && values.package)
  usageExit('node', USAGE, '--install-only runs nothing: leave out --package');

if (values['install-only']) {
  try {
    const { bin } = installNode(line, resolve(values.into));
    console.log(bin);
  } catch (e) {
    console.error(`node: ${e.message}`);
    process.exit(e.exitCode ?? 1);
  }
} else {
  // not at the top: @changesets/parse and semver are there only after `npm ci`, which --install-only precedes
  const { workspacePackages } = await import('./lib/release.mjs');
  const { default: semver } = await import('semver');
  const known = new Map(workspacePackages(root).map((p) => [p.name, join(root, p.dir)]));
  const packages = values.package ?? DEFAULT_PACKAGES;
  try {
    knownNames(packages, [...known.keys()], 'npm workspace of this repository');
  } catch (e) {
    usageExit('node', USAGE, `--package: ${e.message}`);
  }
  process.exitCode = runOn(line, packages, known, semver);
}

/**
 * The lockfile's packages whose `engines.node` excludes `version` (npm prints EBADENGINE for each).
 * @param {string} version  e.g. `v22.23.3`
 * @param {typeof import('semver')} semver
 * @returns {string[]}  `name@version (engines)` of each
 */
function lockfileExcludes(version, semver) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  return Object.entries(lock.packages ?? {})
    .filter(([, p]) => typeof p.engines?.node === 'string' && !semver.satisfies(version, p.engines.node))
    .map(
      ([path, p]) => `${path.replace(/^.*node_modules\//, '') || 'the root'}@${p.version ?? ''} (${p.engines.node})`,
    );
}

/** Installs the line, then the build and each package's vitest on it; returns the exit code. */
function runOn(line, packages, known, semver) {
  const run = (command, args, env, cwd = root) => {
    const r = spawnSync(command, args, { cwd, env, stdio: 'inherit' });
    if (r.error) throw r.error;
    return r.status ?? 1;
  };
  const started = Date.now();
  const seconds = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
  const tmp = mkdtempSync(join(tmpdir(), `svc-node${line.split('.')[0]}-`));
  let failed = 0;
  try {
    console.log(`node: npm install node@${line} into a temporary folder`);
    const { bin, version } = installNode(line, tmp);
    if (!semver.satisfies(version, ENGINES))
      throw Object.assign(new Error(`${version} is not a supported line (engines: ${ENGINES})`), { exitCode: 2 });
    const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}` };
    console.log(`node: ${version} first on PATH (${seconds()})`);
    const excluded = lockfileExcludes(version, semver);
    if (excluded.length) {
      console.error(`node: FAIL the lockfile holds packages whose engines exclude ${version}: ${excluded.join(', ')}`);
      failed += 1;
    }
    // The README's build (lint, bundle, generate, build); --force: turbo's cache keys do not include
    // the Node version, so a cache hit would replay another line's run.
    console.log(`node: npm run build -- --force on ${version} (${seconds()})`);
    if (run('npm', ['run', 'build', '--', '--force', '--output-logs=errors-only'], env) !== 0) {
      console.error(`node: FAIL turbo run build on ${version}`);
      failed += 1;
    }
    for (const name of packages) {
      console.log(`node: ${name}: vitest run on ${version} (${seconds()})`);
      if (run(join(root, 'node_modules', '.bin', 'vitest'), ['run'], env, known.get(name)) !== 0) {
        console.error(`node: FAIL ${name} on ${version}`);
        failed += 1;
      }
    }
    console.log(
      `node: ${failed ? `${failed} step(s) failed` : 'build and tests passed'} on ${version} in ${seconds()}`,
    );
    return failed ? 1 : 0;
  } catch (e) {
    console.error(`node: ${e.message}`);
    return e.exitCode ?? 1;
  } finally {
    if (!values.keep) rmSync(tmp, { recursive: true, force: true });
  }
}
