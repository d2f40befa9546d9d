// The data dir under faults (issue 42): one simulator per data dir (a second refuses to start; a
// lock left by a killed one is taken over), and a full disk as an answer, never a crash. The disk
// is a real one, filled: a 6 MiB tmpfs mounted for the test where the machine allows it (root),
// else the fault seam of the same call sites (domain/durable.js `fullDisk`).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fullDisk } from '../src/domain/durable.js';
import { DatabaseSync } from '../src/domain/store.js';
import { DataDirLocked, startSimulator } from '../src/index.js';
import { client } from './support/crash.js';
import { PASSWORD } from './support/sim.js';
import { startHeldSource } from './support/source.js';

const CLI = fileURLToPath(new URL('../src/cli.js', import.meta.url));
const V3 = '/api/svc/v3';
const root = mkdtempSync(join(tmpdir(), 'svc-sim-storage-'));
let mounted;

afterAll(() => {
  fullDisk(false);
  if (mounted) spawnSync('umount', ['-l', mounted]);
  rmSync(root, { recursive: true, force: true });
});

/** The CLI on a data dir; resolves once it listens, or with its exit code and output. */
function cli(dataDir) {
  const child = spawn(process.execPath, [CLI, '--http', '--port', '0', '--task-seconds', '0', '--data', dataDir], {
    env: { ...process.env, SVC_SIM_PASSWORD: PASSWORD },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: root,
  });
  let out = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (/local svc\s+\S+/.test(out)) resolve({ child, exited, out: () => out });
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    exited.then(({ code }) => resolve({ code, out: () => out }));
  });
}

describe('one simulator per data dir', () => {
  it('refuses a second on the same dir with one line naming it and the holder, and takes over after a kill', async () => {
    const dataDir = join(root, 'locked');
    const first = await cli(dataDir);
    expect(first.child).toBeDefined();
    const second = await cli(dataDir);
    expect(second.code).toBe(2);
    const lines = second.out().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `simulator: the data dir locked is in use by another simulator (PID ${first.child.pid}); stop it, or give another --data`,
    );
    // in one process too: a second instance is refused
    await expect(startSimulator({ port: 0, dataDir, password: PASSWORD, http: true })).rejects.toBeInstanceOf(
      DataDirLocked,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const third = await cli(dataDir);
    expect(third.child, third.out()).toBeDefined();
    third.child.kill('SIGTERM');
    expect((await third.exited).code).toBe(0);
  });
});

/** A small file system of the test's own, or undefined where it cannot mount one. */
function smallDisk() {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
  const dir = join(root, 'tmpfs');
  mkdirSync(dir);
  const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', dir]);
  if (mount.status !== 0) return undefined;
  mounted = dir;
  return dir;
}

/** Fills a file system with one file until it refuses a byte; returns that file's path. */
function fill(dir) {
  const filler = join(dir, 'filler');
  const fd = openSync(filler, 'w');
  const chunk = Buffer.alloc(64 * 1024, 0xee);
  try {
    for (let size = chunk.length; size >= 1; size = Math.floor(size / 2)) {
      try {
        for (;;) writeSync(fd, chunk, 0, size);
      } catch (error) {
        if (/** @type {any} */ (error).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
  return filler;
}

describe('a full disk', () => {
  it('answers 507 on the request that hits it, fails the task that hits it, serves reads, keeps what was acknowledged', async () => {
    const disk = smallDisk();
    const dataDir = join(disk ?? root, 'data');
    // a fetch that holds its bytes until the disk is full
    const source = await startHeldSource({ total: 800_000, first: 1000 });
    const sim = await startSimulator({ port: 0, dataDir, password: PASSWORD, taskSeconds: 0, http: true });
    const c = client(sim.url);
    const image = (name, resources = { image_type: 'DISK_IMAGE' }) => ({
      body: { api_version: '3.1.0', metadata: { kind: 'image' }, spec: { name, resources } },
    });
    const octets = (bytes) => ({ body: bytes, headers: { 'content-type': 'application/octet-stream' } });
    try {
      // acknowledged before the disk fills: an image with its bytes
      const kept = (await c.call('POST', `${V3}/images`, image('kept'))).body;
      await c.task(kept.status.execution_context.task_uuid);
      const bytes = Buffer.alloc(200_000, 9);
      expect((await c.call('PUT', `${V3}/images/${kept.metadata.uuid}/file`, octets(bytes))).status).toBe(200);
      const empty = (await c.call('POST', `${V3}/images`, image('empty'))).body;
      await c.task(empty.status.execution_context.task_uuid);
      const v08 = await c.call('POST', '/api/svc/v0.8/images', { body: { name: 'v08', imageType: 'DISK_IMAGE' } });
      const v08image = (await c.task(v08.body.taskUuid)).entity_reference_list[0].uuid;
      const container = (await c.call('GET', '/api/svc/v2.0/storage_containers')).body.entities[0]
        .storage_container_uuid;
      const fetching = (
        await c.call('POST', `${V3}/images`, image('fetching', { image_type: 'DISK_IMAGE', source_uri: source.url }))
      ).body;
      await source.started;

      const filler = disk ? fill(disk) : undefined;
      if (!disk) fullDisk(true);
      source.release();

      // a write answers 507 with the API's error body; nothing answers 500
      const upload = await c.call('PUT', `${V3}/images/${empty.metadata.uuid}/file`, octets(Buffer.alloc(500_000, 1)));
      expect(upload.status).toBe(507);
      expect(upload.body.message_list[0]).toMatchObject({ reason: 'INSUFFICIENT_STORAGE' });
      const staged = await c.call('PUT', `/api/svc/v0.8/images/${v08image}/upload`, {
        ...octets(Buffer.alloc(500_000, 1)),
        headers: { 'content-type': 'application/octet-stream', 'x-svc-destination-container': container },
      });
      expect(staged.status).toBe(507);
      expect(staged.body).toEqual({ message: expect.stringMatching(/full/) });
      // SQLite's own full disk (its log cannot grow): 507 too, not the ROLLBACK's error
      const created = await c.call('POST', `${V3}/images`, image('while-full'));
      expect(created.status, JSON.stringify(created.body)).toBe(507);
      expect(created.body.message_list[0].reason).toBe('INSUFFICIENT_STORAGE');
      // reads are served, and what was acknowledged is intact
      expect((await c.call('POST', `${V3}/images/list`, { body: { kind: 'image' } })).status).toBe(200);
      const file = await c.call('GET', `${V3}/images/${kept.metadata.uuid}/file`);
      expect(Buffer.compare(file.body, bytes)).toBe(0);

      // space again: the task that hit the full disk ends FAILED with the reason, its image ERROR
      if (filler) rmSync(filler);
      else fullDisk(false);
      const task = await c.task(fetching.status.execution_context.task_uuid);
      expect(task.status).toBe('FAILED');
      expect(task.error_detail).toMatch(/could not be stored: ENOSPC|full/);
      expect((await c.call('GET', `${V3}/images/${fetching.metadata.uuid}`)).body.status.state).toBe('ERROR');
      const retried = await c.call('PUT', `${V3}/images/${empty.metadata.uuid}/file`, octets(Buffer.alloc(1000, 1)));
      expect(retried.status).toBe(200);
      expect((await c.call('POST', `${V3}/images`, image('after'))).status).toBe(202);
      expect(readdirSync(join(dataDir, 'images')).filter((n) => n.endsWith('.part'))).toEqual([]);
    } finally {
      fullDisk(false);
      await c.close();
      await sim.close();
      await source.close();
    }
    const db = new DatabaseSync(join(dataDir, 'state.sqlite'), { readOnly: true });
    expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    db.close();
  });
});
