// CI on the current Node LTS beside the machine's Node 20: installs the npm registry's `node@24`
// package into a temporary folder, puts its binary first on PATH, rebuilds the native modules
// (better-sqlite3, ...) against its headers, then runs `npm run build` (turbo cache bypassed, so it
// really builds on Node 24) and the tests of the given packages. The native modules' Node 20
// builds are put back afterwards, so the checkout still works on the machine's Node.
//   npm run node24 -- [--node 24] [--package @svc/client]... [--keep]
// Exit 0: all passed; 1: a step failed; 2: bad arguments (a --package that is not a workspace) or
// no Node binary.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandLine, knownNames, UsageError, usageExit } from './lib/args.mjs';
import { nativeModules, nodeHeadersDir, restoreBuilds, saveBuilds } from './lib/native.mjs';
import { workspacePackages } from './lib/release.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const USAGE = 'Usage: npm run node24 -- [--node <major or version>] [--package <workspace name>]... [--keep]';
const DEFAULT_PACKAGES = ['@svc/client', '@svc/simulator'];
// 24.18.1, not the newest 24: Node 24.19 and later abort at exit in the destructors of native
// addons built on the raw node::ObjectWrap against their headers, which better-sqlite3 12 (the
// simulator's store) is (nodejs/node#65446, open). better-sqlite3 13 avoids it but needs Node 22,
// and Node 20 is still a supported line here.
const NODE = '24.18.1';

/** `check` for --node: a major (`24`) or an exact version (`24.18.1`) of the registry's node package. */
function nodeVersion(value, name) {
  if (!/^\d{2}(\.\d+\.\d+)?$/.test(value))
    throw new UsageError(`--${name} must be a Node major (24) or version (24.18.1); got "${value}"`);
  return value;
}

const { values } = commandLine('node24', USAGE, {
  options: {
    node: { type: 'string', default: NODE, check: nodeVersion },
    package: { type: 'string', multiple: true },
    keep: { type: 'boolean', default: false },
  },
});

const known = new Map(workspacePackages(root).map((p) => [p.name, join(root, p.dir)]));
const packages = values.package ?? DEFAULT_PACKAGES;
try {
  knownNames(packages, [...known.keys()], 'npm workspace of this repository');
} catch (e) {
  usageExit('node24', USAGE, `--package: ${e.message}`);
}

/** Runs a command with output shown; returns its exit status. */
function run(command, args, env = process.env, cwd = root) {
  const r = spawnSync(command, args, { cwd, env, stdio: 'inherit' });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const tmp = mkdtempSync(join(tmpdir(), 'svc-node24-'));
const nodeModules = join(root, 'node_modules');
const natives = nativeModules(nodeModules);
const saved = join(tmp, 'saved-builds');
let savedNames = [];
let failed = 0;
let exitCode;
try {
  console.log(`node24: npm install node@${values.node} into ${tmp}`);
  if (run('npm', ['install', '--prefix', tmp, '--no-audit', '--no-fund', '--no-save', `node@${values.node}`]) !== 0) {
    throw Object.assign(new Error(`could not install node@${values.node} from the registry`), { exitCode: 2 });
  }
  const bin = join(tmp, 'node_modules', 'node', 'bin');
  // node@N's install step fetches node-<platform>-<arch>@N, which ships the headers (include/node).
  const nodedir = nodeHeadersDir(tmp);
  // npm_config_nodedir: node-gyp builds against these headers, not the machine's Node's.
  const env = {
    ...process.env,
    PATH: `${bin}${delimiter}${process.env.PATH}`,
    ...(nodedir && { npm_config_nodedir: nodedir }),
  };
  const version = spawnSync(join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout?.trim();
  if (!version) {
    throw Object.assign(new Error(`${bin}/node does not run`), { exitCode: 2 });
  }
  console.log(`node24: ${version} first on PATH (${seconds()})`);

  if (natives.length) {
    if (!nodedir) {
      throw Object.assign(
        new Error(
          `the native modules (${natives.join(', ')}) need Node ${version}'s headers, not found beside the binary`,
        ),
        { exitCode: 2 },
      );
    }
    savedNames = saveBuilds(nodeModules, natives, saved);
    console.log(`node24: npm rebuild ${natives.join(' ')} --nodedir=${nodedir}`);
    if (run('npm', ['rebuild', ...natives, `--nodedir=${nodedir}`], env) !== 0)
      throw new Error(`npm rebuild ${natives.join(' ')} failed on ${version}`);
  }

  // The README's build (lint, bundle, generate, build); --force: turbo's cache keys do not include
  // the Node version, so a cache hit would replay Node 20's run.
  console.log(`node24: npm run build -- --force on ${version} (${seconds()})`);
  if (run('npm', ['run', 'build', '--', '--force', '--output-logs=errors-only'], env) !== 0) {
    console.error(`node24: FAIL turbo run build on ${version}`);
    failed += 1;
  }
  for (const name of packages) {
    const dir = known.get(name);
    console.log(`node24: ${name}: vitest run on ${version} (${seconds()})`);
    if (run(join(root, 'node_modules', '.bin', 'vitest'), ['run'], env, dir) !== 0) {
      console.error(`node24: FAIL ${name} on ${version}`);
      failed += 1;
    }
  }
  console.log(
    `node24: ${failed ? `${failed} step(s) failed` : 'build and tests passed'} on ${version} in ${seconds()}`,
  );
} catch (e) {
  console.error(`node24: ${e.message}`);
  exitCode = e.exitCode ?? 1;
} finally {
  // The machine's Node needs its own builds of the native modules back.
  restoreBuilds(nodeModules, savedNames, saved);
  if (!values.keep) rmSync(tmp, { recursive: true, force: true });
}
process.exitCode = exitCode ?? (failed ? 1 : 0);
