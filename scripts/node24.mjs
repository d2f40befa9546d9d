// CI on the current Node LTS beside the machine's Node 20: installs the npm registry's `node@24`
// package into a temporary folder, puts its binary first on PATH, rebuilds the native modules
// (better-sqlite3, ...) against its headers, then runs `npm run build` (turbo cache bypassed, so it
// really builds on Node 24) and the tests of the given packages. The native modules' Node 20
// builds are put back afterwards, so the checkout still works on the machine's Node.
//   npm run node24 -- [--node 24] [--package @svc/client]... [--keep]
// Packages that are not workspaces of this checkout are skipped with a note (the simulator, before
// it lands). Exit 0: all passed; 1: a step failed; 2: bad arguments or no Node binary.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandLine, integer } from './lib/args.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const USAGE = 'Usage: npm run node24 -- [--node <major>] [--package <workspace name>]... [--keep]';
const DEFAULT_PACKAGES = ['@svc/client', '@svc/simulator'];

const { values } = commandLine('node24', USAGE, {
  options: {
    node: { type: 'string', default: '24', check: integer(18) },
    package: { type: 'string', multiple: true },
    keep: { type: 'boolean', default: false },
  },
});

/** Runs a command with output shown; returns its exit status. */
function run(command, args, env = process.env, cwd = root) {
  const r = spawnSync(command, args, { cwd, env, stdio: 'inherit' });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

/** Workspace name -> directory, from the root package.json's workspace globs (`packages/*`). */
function workspaces() {
  const map = new Map();
  for (const dir of readdirSync(join(root, 'packages'))) {
    const file = join(root, 'packages', dir, 'package.json');
    if (existsSync(file)) map.set(JSON.parse(readFileSync(file, 'utf8')).name, join(root, 'packages', dir));
  }
  return map;
}

/** Installed packages with a node-gyp build (`binding.gyp`): the native modules to rebuild. */
function nativeModules() {
  const out = [];
  const nm = join(root, 'node_modules');
  for (const entry of readdirSync(nm)) {
    const names = entry.startsWith('@') ? readdirSync(join(nm, entry)).map((n) => `${entry}/${n}`) : [entry];
    for (const name of names) if (existsSync(join(nm, name, 'binding.gyp'))) out.push(name);
  }
  return out;
}

const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const tmp = mkdtempSync(join(tmpdir(), 'svc-node24-'));
const natives = nativeModules();
const saved = join(tmp, 'saved-builds');
let failed = 0;
let exitCode;
try {
  console.log(`node24: npm install node@${values.node} into ${tmp}`);
  if (run('npm', ['install', '--prefix', tmp, '--no-audit', '--no-fund', '--no-save', `node@${values.node}`]) !== 0) {
    throw Object.assign(new Error(`could not install node@${values.node} from the registry`), { exitCode: 2 });
  }
  const bin = join(tmp, 'node_modules', 'node', 'bin');
  // node@N's install step fetches node-<platform>-<arch>@N, which ships the headers (include/node).
  const platformDir = join(tmp, 'node_modules', 'node', 'node_modules');
  const platformPkg = existsSync(platformDir) && readdirSync(platformDir).find((d) => /^node-(linux|darwin|win)/.test(d));
  const nodedir = platformPkg ? join(platformDir, platformPkg) : undefined;
  // npm_config_nodedir: node-gyp builds against these headers, not the machine's Node's.
  const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}`, ...(nodedir && { npm_config_nodedir: nodedir }) };
  const version = spawnSync(join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout?.trim();
  if (!version) {
    throw Object.assign(new Error(`${bin}/node does not run`), { exitCode: 2 });
  }
  console.log(`node24: ${version} first on PATH (${seconds()})`);

  if (natives.length) {
    if (!nodedir || !existsSync(join(nodedir, 'include', 'node'))) {
      throw Object.assign(new Error(`the native modules (${natives.join(', ')}) need Node ${version}'s headers, not found beside the binary`), { exitCode: 2 });
    }
    for (const name of natives) {
      const build = join(root, 'node_modules', name, 'build');
      if (existsSync(build)) cpSync(build, join(saved, name), { recursive: true });
    }
    console.log(`node24: npm rebuild ${natives.join(' ')} --nodedir=${nodedir}`);
    if (run('npm', ['rebuild', ...natives, `--nodedir=${nodedir}`], env) !== 0) throw new Error(`npm rebuild ${natives.join(' ')} failed on ${version}`);
  }

  // The README's build (lint, bundle, generate, build); --force: turbo's cache keys do not include
  // the Node version, so a cache hit would replay Node 20's run.
  console.log(`node24: npm run build -- --force on ${version} (${seconds()})`);
  if (run('npm', ['run', 'build', '--', '--force', '--output-logs=errors-only'], env) !== 0) {
    console.error(`node24: FAIL turbo run build on ${version}`);
    failed += 1;
  }
  const known = workspaces();
  for (const name of values.package ?? DEFAULT_PACKAGES) {
    const dir = known.get(name);
    if (!dir) {
      console.log(`node24: ${name} is not a workspace of this checkout; not tested`);
      continue;
    }
    console.log(`node24: ${name}: vitest run on ${version} (${seconds()})`);
    if (run(join(root, 'node_modules', '.bin', 'vitest'), ['run'], env, dir) !== 0) {
      console.error(`node24: FAIL ${name} on ${version}`);
      failed += 1;
    }
  }
  console.log(`node24: ${failed ? `${failed} step(s) failed` : 'build and tests passed'} on ${version} in ${seconds()}`);
} catch (e) {
  console.error(`node24: ${e.message}`);
  exitCode = e.exitCode ?? 1;
} finally {
  // The machine's Node needs its own builds of the native modules back.
  for (const name of natives) {
    if (!existsSync(join(saved, name))) continue;
    rmSync(join(root, 'node_modules', name, 'build'), { recursive: true, force: true });
    cpSync(join(saved, name), join(root, 'node_modules', name, 'build'), { recursive: true });
  }
  if (!values.keep) rmSync(tmp, { recursive: true, force: true });
}
process.exitCode = exitCode ?? (failed ? 1 : 0);
