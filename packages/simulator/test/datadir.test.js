// The data dir's own files (issue 58): the certificate, key and password written whole or not at
// all, a first start on a full disk that says the disk is full (and works once there is space), and
// a store that cannot explain its image files refusing to start rather than deleting them.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, fetch } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { fullDisk } from '../src/domain/durable.js';
import { keptPassword, StoreUnexplained, startSimulator } from '../src/index.js';
import { PASSWORD, startTestSimulator, waitTask } from './support/sim.js';

const CLI = fileURLToPath(new URL('../src/cli.js', import.meta.url));
const V3 = '/api/svc/v3';
const root = mkdtempSync(join(tmpdir(), 'svc-sim-datadir-'));
/** @type {string[]} */
const mounts = [];
/** @type {import('node:child_process').ChildProcess[]} every CLI started, stopped at the end whatever failed */
const children = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  fullDisk(false);
  for (const dir of mounts) spawnSync('umount', ['-l', dir]);
  rmSync(root, { recursive: true, force: true });
});

/**
 * The CLI on a data dir (HTTPS, the password kept in the data dir); resolves once it listens, or
 * with its exit code and output.
 * @param {string} dataDir
 * @param {string[]} [args]
 */
function cli(dataDir, args = []) {
  const env = { ...process.env };
  delete env.SVC_SIM_PASSWORD;
  delete env.SVC_PASSWORD;
  const child = spawn(process.execPath, [CLI, '--port', '0', '--task-seconds', '0', '--data', dataDir, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: root,
  });
  children.push(child);
  let out = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /local svc\s+(\S+)/.exec(out)?.[1];
      if (url)
        resolve({
          url,
          out: () => out,
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    exited.then(({ code }) => resolve({ code, out: () => out }));
  });
}

/** An image list over TLS, trusting the data dir's certificate and sending its kept password. */
async function answersWithKeptSecrets(url, dataDir) {
  const ca = await import('node:fs').then((fs) => fs.readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8'));
  const password = keptPassword(dataDir).password;
  const dispatcher = new Agent({ connect: { ca } });
  try {
    const res = await fetch(`${url}${V3}/images/list`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: '{"kind":"image"}',
      dispatcher,
    });
    await res.arrayBuffer();
    return res.status;
  } finally {
    await dispatcher.close();
  }
}

/** A tmpfs of `kib` KiB of the test's own, or undefined where the machine cannot mount one. */
function tmpfs(name, kib) {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
  const dir = join(root, name);
  mkdirSync(dir);
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', dir]).status !== 0) return undefined;
  mounts.push(dir);
  return dir;
}

describe('a first start on a full disk', () => {
  const sizes = [4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 160, 192, 256, 320, 384, 448, 512, 640, 768, 1024];
  const canMount = Boolean(tmpfs('probe', 64));

  it.runIf(canMount)(
    `says the disk is full, and starts whole once there is space (${sizes.length} sizes of tmpfs)`,
    async () => {
      const outcomes = [];
      for (const kib of sizes) {
        const disk = /** @type {string} */ (tmpfs(`disk-${kib}`, kib));
        const dataDir = join(disk, 'data');
        const first = await cli(dataDir);
        if (first.url) {
          // it had room: it works as any start does
          expect(await answersWithKeptSecrets(first.url, dataDir)).toBe(200);
          await first.stop();
          outcomes.push(`${kib}: started`);
        } else {
          const lines = first.out().trim().split('\n');
          expect(lines, `${kib} KiB`).toHaveLength(1);
          expect(lines[0], `${kib} KiB`).toMatch(
            /^simulator: .*the disk is full \((ENOSPC|SQLITE_FULL|SQLITE_IOERR: \d+ bytes free)\)/,
          );
          expect(first.code).toBe(1);
          outcomes.push(`${kib}: full`);
        }
        // space again: a start listens, and its certificate and kept password serve
        expect(spawnSync('mount', ['-o', 'remount,size=8m', disk]).status).toBe(0);
        const again = await cli(dataDir);
        expect(again.url, again.out()).toBeDefined();
        expect(await answersWithKeptSecrets(again.url, dataDir)).toBe(200);
        await again.stop();
      }
      // both kinds were met: the sizes span the first start's writes
      expect(outcomes.some((o) => o.endsWith('full'))).toBe(true);
      expect(outcomes.some((o) => o.endsWith('started'))).toBe(true);
    },
  );

  it.runIf(!canMount)('says the disk is full at the same calls (the file layer fault hook)', async () => {
    const dataDir = join(root, 'hooked');
    fullDisk(true);
    try {
      expect(() => keptPassword(dataDir)).toThrow(/the disk is full \(ENOSPC\)/);
      await expect(startSimulator({ port: 0, dataDir, password: PASSWORD })).rejects.toThrow(/the disk is full/);
    } finally {
      fullDisk(false);
    }
    const sim = await startSimulator({ port: 0, dataDir, password: PASSWORD });
    await sim.close();
  });
});

describe('the certificate', () => {
  it('is made again when what tls/ holds cannot be served (an empty cert.pem an older write left)', async () => {
    const dataDir = join(root, 'empty-cert');
    const first = await cli(dataDir);
    await first.stop();
    writeFileSync(join(dataDir, 'tls', 'cert.pem'), '');
    const second = await cli(dataDir);
    expect(await answersWithKeptSecrets(second.url, dataDir)).toBe(200);
    await second.stop();
  });
});

describe('a store that cannot explain its files', () => {
  /** A data dir with one image with bytes, stopped. */
  async function withImage(name) {
    const t = await startTestSimulator({ dataDir: join(root, name), keepDir: true, http: true });
    const created = await t.call('POST', `${V3}/images`, {
      body: {
        api_version: '3.1.0',
        metadata: { kind: 'image' },
        spec: { name, resources: { image_type: 'DISK_IMAGE' } },
      },
    });
    await waitTask(t.call, created.body.status.execution_context.task_uuid);
    const uuid = created.body.metadata.uuid;
    await t.call('PUT', `${V3}/images/${uuid}/file`, {
      body: Buffer.alloc(1000, 1),
      headers: { 'content-type': 'application/octet-stream' },
    });
    await t.close();
    return { dataDir: t.dataDir, uuid };
  }

  it('refuses to start when state.sqlite is gone beside image files, keeps them, and says how to recover', async () => {
    const { dataDir, uuid } = await withImage('lost-state');
    for (const name of readdirSync(dataDir)) if (name.startsWith('state.sqlite')) rmSync(join(dataDir, name));
    const refused = await cli(dataDir);
    expect(refused.code).toBe(2);
    const lines = refused.out().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/state\.sqlite is missing or empty.*images\/.*--fresh/);
    expect(lines[0]).not.toContain(root);
    expect(existsSync(join(dataDir, 'images', uuid))).toBe(true);
    // an empty file in its place is the same
    writeFileSync(join(dataDir, 'state.sqlite'), '');
    await expect(startSimulator({ port: 0, dataDir, password: PASSWORD, http: true })).rejects.toBeInstanceOf(
      StoreUnexplained,
    );
    expect(existsSync(join(dataDir, 'images', uuid))).toBe(true);
    // a deliberate fresh start
    const fresh = await cli(dataDir, ['--fresh']);
    expect(fresh.url, fresh.out()).toBeDefined();
    await fresh.stop();
    expect(readdirSync(join(dataDir, 'images'))).toEqual([]);
  });

  it('refuses a file of no image and no delete, naming it; started again once it is moved away', async () => {
    const { dataDir, uuid } = await withImage('stray');
    const stray = '3f1e0a52-4d8b-4c36-9d52-1f0e6c2a7b11';
    writeFileSync(join(dataDir, 'images', stray), 'not ours');
    await expect(startSimulator({ port: 0, dataDir, password: PASSWORD, http: true })).rejects.toThrow(
      new RegExp(`images/${stray}`),
    );
    expect(existsSync(join(dataDir, 'images', stray))).toBe(true);
    rmSync(join(dataDir, 'images', stray));
    const t = await startTestSimulator({ dataDir, keepDir: true, http: true });
    expect((await t.call('GET', `${V3}/images/${uuid}/file`)).body.length).toBe(1000);
    await t.close();
  });
});
