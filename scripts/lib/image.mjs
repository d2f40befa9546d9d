// The local svc's container image (packages/simulator/Containerfile): its build context, its build,
// and the small Node base the tests and the bench build it on where no image registry is reachable.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { apis, root } from '@svc/oas/apis';

/** The Containerfile of the image. */
export const CONTAINERFILE = join(root, 'packages', 'simulator', 'Containerfile');

/** The simulator's package.json (its version is the image's). */
export const simulatorPackage = () =>
  JSON.parse(readFileSync(join(root, 'packages', 'simulator', 'package.json'), 'utf8'));

/**
 * `npm pack` of a package folder into `dest`.
 * @param {string} dir
 * @param {string} dest
 * @returns {string} the tarball's path
 * @throws {Error} when npm fails
 */
function pack(dir, dest) {
  const out = execFileSync('npm', ['pack', '--json', '--loglevel=error', '--pack-destination', dest], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // prepack scripts print before the JSON
  return join(dest, JSON.parse(out.slice(out.indexOf('[')))[0].filename);
}

/**
 * Stages the build context in `context`: `Containerfile`, `app/` (the packed simulator and its
 * workspace dependencies installed with `npm install --omit=dev`, as a user of the published
 * package gets them) and the empty `data/` that becomes the volume.
 * @param {string} context an empty folder of ours
 * @throws {Error} when the bundles are missing (`npm run build` first) or npm fails
 */
export function stageContext(context) {
  const missing = apis().filter((a) => {
    try {
      readFileSync(a.bundleJson);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length) throw new Error(`dist/${missing[0].name}.json is missing: run \`npm run build\` first`);
  const tarballs = join(context, 'tarballs');
  mkdirSync(tarballs, { recursive: true });
  // The simulator is packed from a copy: its prepack writes bundles/ into the folder it packs, and
  // a checkout with bundles/ serves those instead of dist/ (packages/simulator/src/bundles.js).
  // The copy sits in node_modules, where its pack scripts find @svc/args and @svc/oas.
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const copy = mkdtempSync(join(cache, 'svc-image-'));
  const simulatorDir = join(root, 'packages', 'simulator');
  try {
    cpSync(simulatorDir, copy, {
      recursive: true,
      filter: (src) => !relative(simulatorDir, src).startsWith('node_modules'),
    });
    const packed = [pack(join(root, 'packages', 'oas'), tarballs), pack(join(root, 'packages', 'args'), tarballs)];
    packed.push(pack(copy, tarballs));
    const app = join(context, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), '{ "private": true }\n');
    execFileSync(
      'npm',
      ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...packed],
      { cwd: app, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  rmSync(tarballs, { recursive: true, force: true });
  mkdirSync(join(context, 'data'));
  copyFileSync(CONTAINERFILE, join(context, 'Containerfile'));
}

/**
 * An engine to build and run images with: podman (or docker), with the global options and
 * environment it needs.
 * @typedef {object} Engine
 * @property {string} command  `podman` or `docker`
 * @property {string[]} [args]  global options first on every call (podman: `--root`, `--runroot`)
 * @property {NodeJS.ProcessEnv} [env]  e.g. CONTAINERS_CONF
 */

/**
 * Runs the engine and returns its stdout.
 * @param {Engine} engine
 * @param {string[]} args
 * @param {{ stdio?: 'pipe' | 'inherit' }} [options]
 * @returns {string}
 * @throws {Error} with the engine's stderr when it fails
 */
export function engineRun(engine, args, { stdio = 'pipe' } = {}) {
  const r = spawnSync(engine.command, [...(engine.args ?? []), ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...engine.env },
    stdio: ['ignore', 'pipe', stdio === 'inherit' ? 'inherit' : 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  if (r.status !== 0)
    throw new Error(`${engine.command} ${args[0]} failed (exit ${r.status}): ${(r.stderr ?? '').trim().slice(-2000)}`);
  return r.stdout;
}

/**
 * Builds the image: stages the context in a temporary folder and runs `<engine> build` on it.
 * @param {{ engine: Engine, tag: string, base?: string, revision?: string }} options  `base`: the
 *   NODE_BASE build argument (the Containerfile's official Node image when absent)
 * @returns {{ tag: string, bytes: number }} the image and its size
 * @throws {Error} when staging or the build fails
 */
export function buildImage({ engine, tag, base, revision }) {
  const context = mkdtempSync(join(tmpdir(), 'svc-image-context-'));
  try {
    stageContext(context);
    const buildArgs = [`VERSION=${simulatorPackage().version}`, ...(revision ? [`REVISION=${revision}`] : [])];
    if (base) buildArgs.push(`NODE_BASE=${base}`);
    engineRun(
      engine,
      [
        'build',
        // Docker's image format: the OCI one has no HEALTHCHECK
        ...(engine.command === 'podman' ? ['--format', 'docker'] : []),
        '--quiet',
        '-t',
        tag,
        ...buildArgs.flatMap((a) => ['--build-arg', a]),
        '-f',
        join(context, 'Containerfile'),
        context,
      ],
      { stdio: 'inherit' },
    );
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
  return { tag, bytes: Number(engineRun(engine, ['image', 'inspect', '--format', '{{.Size}}', tag]).trim()) };
}

/**
 * Builds a small Node base image from `node` (the registry's `node` package binary, as `.ci/run`
 * and scripts/supported-node.mjs install it), stripped where `strip` is installed, and the shared
 * libraries it links (ldd): the stand-in for the official base where no image registry answers.
 * It has `node` on PATH, /tmp and the `node` user (uid 1000) as the official images do; no shell.
 * @param {{ engine: Engine, tag: string, node?: string }} options  `node`: the binary (this one by default)
 * @returns {string} the tag
 * @throws {Error} when ldd or the build fails
 */
export function buildNodeBase({ engine, tag, node = process.execPath }) {
  const context = mkdtempSync(join(tmpdir(), 'svc-node-base-'));
  try {
    const rootfs = join(context, 'rootfs');
    for (const dir of ['usr/local/bin', 'tmp', 'etc']) mkdirSync(join(rootfs, dir), { recursive: true });
    chmodSync(join(rootfs, 'tmp'), 0o1777);
    const target = join(rootfs, 'usr', 'local', 'bin', 'node');
    copyFileSync(node, target);
    // stripped where binutils is installed: some 30 MB less, the same program
    spawnSync('strip', [target], { stdio: 'ignore' });
    const libraries = execFileSync('ldd', [node], { encoding: 'utf8' }).match(/\/\S+/g) ?? [];
    for (const library of libraries) {
      const into = join(rootfs, library);
      mkdirSync(join(into, '..'), { recursive: true });
      copyFileSync(library, into); // follows the link: the file itself under the linked name
    }
    writeFileSync(
      join(rootfs, 'etc', 'passwd'),
      'root:x:0:0:root:/root:/sbin/nologin\nnode:x:1000:1000::/home/node:/sbin/nologin\n',
    );
    writeFileSync(join(rootfs, 'etc', 'group'), 'root:x:0:\nnode:x:1000:\n');
    writeFileSync(
      join(context, 'Containerfile'),
      'FROM scratch\nCOPY rootfs/ /\nENV PATH=/usr/local/bin:/usr/bin:/bin\n',
    );
    engineRun(engine, ['build', '--quiet', '-t', tag, context], { stdio: 'inherit' });
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
  return tag;
}

/**
 * Podman as this machine allows it, or why it cannot run here. Debian's podman in a sandbox needs
 * the runc runtime, cgroupfs and no default ulimits (crun and the ulimits are refused), set in a
 * containers.conf of ours; its images go to a storage of ours under `dir`, so nothing is shared
 * with other users of the machine and removing `dir` (after `removeStorage`) leaves nothing behind.
 * @param {string} dir an empty folder of ours
 * @returns {{ engine: Engine } | { reason: string }}
 */
export function sandboxPodman(dir) {
  const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
  if (!onPath('podman')) return { reason: 'podman is not installed (apt-get install -y podman runc)' };
  const conf = join(dir, 'containers.conf');
  const runtime = onPath('runc') ? 'runtime = "runc"\n' : '';
  writeFileSync(conf, `[containers]\ndefault_ulimits = []\n[engine]\n${runtime}cgroup_manager = "cgroupfs"\n`);
  const engine = {
    command: 'podman',
    args: ['--root', join(dir, 'storage'), '--runroot', join(dir, 'run')],
    env: { CONTAINERS_CONF: conf },
  };
  try {
    engineRun(engine, ['info', '--format', '{{.Host.OCIRuntime.Name}}']);
  } catch (e) {
    return { reason: `podman does not run here: ${e.message.split('\n')[0]}` };
  }
  return { engine };
}

/**
 * Removes everything a `sandboxPodman` engine stored (containers, volumes, images, their mounts),
 * so that its folder can go. Not `system reset`: that also drops the machine's networks.
 * @param {Engine} engine
 */
export function removeStorage(engine) {
  for (const args of [
    ['rm', '--all', '--force', '--time', '0'],
    ['volume', 'rm', '--all', '--force'],
    ['rmi', '--all', '--force'],
  ]) {
    try {
      engineRun(engine, args);
    } catch {
      // the folder is removed next anyway
    }
  }
}
