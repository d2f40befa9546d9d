// What someone without this repository gets: the tarballs of @svc/simulator, @svc/oas and @svc/args
// (its workspace dependencies) installed into an empty folder outside the repository, the bin started on
// a free port with --print-env and --ready-file, an image created from a 127.0.0.1 URL and its
// task awaited, then SIGTERM.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const repo = join(pkgDir, '..', '..');
const PASSWORD = 'pack-test-password';
const auth = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;

/** `npm pack --json` of a workspace into `dest`; returns the tarball path and its file list. */
async function pack(dir, dest) {
  const { stdout } = await run(npm, ['pack', '--json', '--pack-destination', dest], { cwd: dir });
  // prepack scripts print before the JSON
  const [info] = JSON.parse(stdout.slice(stdout.indexOf('[')));
  return { tarball: join(dest, info.filename), files: info.files.map((f) => f.path) };
}

/**
 * A copy of this package to pack: prepack writes `bundles/` into the folder it packs and postpack
 * removes it, and a checkout with `bundles/` serves those instead of `dist/` (src/bundles.js), so
 * packing the checkout itself broke the other suites' simulators for that moment. The copy sits in
 * the repository's node_modules, where its scripts find @svc/args and @svc/oas.
 */
function packageCopy() {
  const parent = join(repo, 'node_modules', '.cache');
  mkdirSync(parent, { recursive: true });
  const copy = mkdtempSync(join(parent, 'svc-sim-pack-'));
  cpSync(pkgDir, copy, { recursive: true, filter: (src) => !relative(pkgDir, src).startsWith('node_modules') });
  return copy;
}

describe('npm pack of @svc/simulator, installed outside the repository', () => {
  let work;
  let copy;
  let simFiles;
  let child;
  let source;
  beforeAll(async () => {
    expect(existsSync(join(repo, 'dist', 'central.json')), 'dist/ is missing: run `npm run build` first').toBe(true);
    work = mkdtempSync(join(tmpdir(), 'svc-sim-pack-'));
    expect(relative(repo, work).startsWith('..'), 'the install folder is outside the repository').toBe(true);
    copy = packageCopy();
    const sim = await pack(copy, work);
    const oas = await pack(join(repo, 'packages', 'oas'), work);
    const args = await pack(join(repo, 'packages', 'args'), work);
    simFiles = sim.files;
    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), '{ "private": true }\n');
    // npm waits 5 minutes on a stalled registry request by default (seen in CI): the cache `npm ci`
    // filled answers first, and a stalled fetch is retried instead of outliving this hook
    const offline = ['--prefer-offline', '--fetch-timeout=30000', '--fetch-retries=4'];
    await run(npm, ['install', '--no-audit', '--no-fund', ...offline, oas.tarball, args.tarball, sim.tarball], {
      cwd: app,
      timeout: 1_000_000, // ended before the hook's guard, so no npm outlives the test
      killSignal: 'SIGKILL',
    });
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    source?.close();
    if (work) rmSync(work, { recursive: true, force: true });
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it('carries its bundles, license and sources, and no tests or repository files', () => {
    expect(simFiles).toEqual(
      expect.arrayContaining([
        'bundles/central.json',
        'bundles/element.json',
        'bundles/objects.json',
        'bundles/control.json',
        'LICENSE',
        'README.md',
        'package.json',
        'src/cli.js',
      ]),
    );
    expect(
      simFiles.filter(
        (f) => !/^(src\/.+\.js|bundles\/\w+\.json|LICENSE|README\.md|CHANGELOG\.md|package\.json)$/.test(f),
      ),
    ).toEqual([]);
    expect(existsSync(join(copy, 'bundles')), 'postpack removes the copied bundles').toBe(false);
    expect(existsSync(join(copy, 'LICENSE')), 'postpack removes the copied license').toBe(false);
  });

  it('starts from its bin, serves a create from a local URL to SUCCEEDED, and stops on SIGTERM', async () => {
    const app = join(work, 'app');
    const bytes = Buffer.alloc(64 * 1024, 7);
    source = createServer((_req, res) => res.end(bytes));
    await new Promise((resolve) => source.listen(0, '127.0.0.1', resolve));
    const sourceUri = `http://127.0.0.1:${source.address().port}/disk.img`;

    const readyFile = join(work, 'ready.env');
    const bin = join(app, 'node_modules', '.bin', 'svc-simulator');
    child = spawn(bin, ['--port', '0', '--task-seconds', '0', '--print-env', '--ready-file', readyFile], {
      cwd: app,
      env: { ...process.env, SVC_SIM_PASSWORD: PASSWORD },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    // readiness: the variables on stdout, printed once it listens
    const env = {};
    const lines = createInterface({ input: child.stdout });
    for await (const line of lines) {
      const [key, ...value] = line.split('=');
      env[key] = value.join('=');
      if (env.SVC_SIM_URL && env.SVC_SIM_USER && env.SVC_SIM_CA) break;
      if (child.exitCode !== null) break;
    }
    expect(env.SVC_SIM_URL, stderr).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(env.SVC_SIM_USER).toBe('admin');
    expect(env.SVC_SIM_PASSWORD, 'a chosen password is never echoed').toBeUndefined();
    expect(stderr).not.toContain(PASSWORD);
    // state in the working directory, not in the repository
    expect(env.SVC_SIM_CA).toBe(join(app, '.simulator', 'tls', 'cert.pem'));
    const ready = readFileSync(readyFile, 'utf8');
    expect(ready).toContain(`SVC_SIM_URL=${env.SVC_SIM_URL}\n`);
    expect(statSync(readyFile).mode & 0o777).toBe(0o600);

    const dispatcher = new Agent({ connect: { ca: readFileSync(env.SVC_SIM_CA, 'utf8') } });
    const call = async (method, path, body) => {
      const res = await fetch(`${env.SVC_SIM_URL}${path}`, {
        method,
        dispatcher,
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: body && JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    };
    const created = await call('POST', '/api/svc/v3/images', {
      api_version: '3.1.0',
      metadata: { kind: 'image' },
      spec: { name: 'packed', resources: { image_type: 'DISK_IMAGE', source_uri: sourceUri } },
    });
    expect(created.status).toBe(202);
    const taskUuid = created.body.status.execution_context.task_uuid;
    // the task's own long poll answers when the task ends (bounded: 10 polls of up to 30 s)
    let task;
    for (let i = 0; i < 10; i++) {
      const polled = await call('POST', '/api/svc/v3/tasks/poll', {
        task_uuid_list: [taskUuid],
        poll_timeout_seconds: 30,
      });
      expect(polled.status).toBe(200);
      task = (await call('GET', `/api/svc/v3/tasks/${taskUuid}`)).body;
      if (['SUCCEEDED', 'FAILED', 'ABORTED'].includes(task.status)) break;
    }
    expect(task.status, JSON.stringify(task.error_detail ?? '')).toBe('SUCCEEDED');
    const image = await call('GET', `/api/svc/v3/images/${created.body.metadata.uuid}`);
    expect(image.body.status.resources.size_bytes).toBe(bytes.length);
    await dispatcher.close();

    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(existsSync(readyFile), 'the ready file goes at stop').toBe(false);
  });
});
