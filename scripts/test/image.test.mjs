// The local svc's container image as a CI job runs it: built (`npm run image`'s steps, on a Node
// base assembled from this Node binary: no image registry answers here), started, an image created
// through the v3 API from a `source_uri` this host serves, its task followed to SUCCEEDED, the
// container stopped (a clean exit), a new one started on the same volume, and the image and the
// kept password found there. Where podman cannot run, the test says NOT RUN and why.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@svc/mock';
import { afterAll, describe, expect, it } from 'vitest';
import { buildImage, buildNodeBase, engineRun, removeStorage, sandboxPodman, simulatorPackage } from '../lib/image.mjs';

const dir = mkdtempSync(join(tmpdir(), 'svc-image-test-'));
const podman = sandboxPodman(dir);
const engine = 'engine' in podman ? podman.engine : undefined;
if (!engine) console.log(`image test: NOT RUN: ${'reason' in podman ? podman.reason : ''}`);
const IMAGE = 'localhost/svc-simulator:test';
const VOLUME = 'svc-image-test-data';
let source;

afterAll(() => {
  source?.close();
  if (engine) removeStorage(engine);
  rmSync(dir, { recursive: true, force: true });
});

/**
 * One HTTPS call to the container, trusting its self-signed certificate as `curl -k` does.
 * @returns {Promise<{ status: number, body: any }>}
 */
function call(port, password, method, path, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        rejectUnauthorized: false,
        auth: `admin:${password}`,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/**
 * A GET's status and bytes, trusting the container's certificate, with credentials or without.
 * @returns {Promise<{ status: number, bytes: Buffer }>}
 */
function fetchBytes(port, password, path) {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, rejectUnauthorized: false, ...(password ? { auth: `admin:${password}` } : {}) },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Starts a container of the image on the volume (host network: the sandbox has no other) and
 * resolves with its id and log once it prints its URL.
 * @param {number} port
 * @param {{ volume?: string, mounts?: string[], args?: string[] }} [o]  another volume, files mounted
 *   (`host:container:ro`), options for the CLI
 * @returns {Promise<{ id: string, log: string }>}
 */
async function startContainer(port, { volume = VOLUME, mounts = [], args = [] } = {}) {
  const id = engineRun(/** @type {any} */ (engine), [
    'run',
    '--detach',
    '--network=host',
    '--volume',
    `${volume}:/data`,
    ...mounts.flatMap((m) => ['--volume', m]),
    '--env',
    'SVC_SIM_HOST=127.0.0.1', // the host's network: listen on loopback only, as every test server does
    '--env',
    `SVC_SIM_PORT=${port}`,
    '--env',
    'SVC_SIM_TASK_SECONDS=0',
    IMAGE,
    ...args,
  ]).trim();
  const e = /** @type {any} */ (engine);
  const follow = spawn(e.command, [...e.args, 'logs', '--follow', id], {
    env: { ...process.env, ...e.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  await new Promise((resolve, reject) => {
    const onData = (c) => {
      log += c;
      if (/Ctrl-C stops it/.test(log)) resolve(undefined);
    };
    follow.stdout.on('data', onData);
    follow.stderr.on('data', onData);
    follow.on('close', () => reject(new Error(`the container ended before it listened:\n${log}`)));
  });
  follow.kill();
  return { id, log };
}

describe('the local svc image', () => {
  it.skipIf(!engine)(
    'builds, serves a create to SUCCEEDED, stops cleanly and keeps its data on the volume',
    async () => {
      const e = /** @type {import('../lib/image.mjs').Engine} */ (engine);
      const base = buildNodeBase({ engine: e, tag: 'localhost/svc-node-base:test' });
      const { bytes } = buildImage({ engine: e, tag: IMAGE, base });
      expect(bytes).toBeGreaterThan(0);

      const [config] = JSON.parse(engineRun(e, ['image', 'inspect', IMAGE]));
      const labels = config.Config?.Labels ?? config.Labels;
      expect(labels).toMatchObject({
        'org.opencontainers.image.source': expect.stringMatching(/^https:\/\//),
        'org.opencontainers.image.version': simulatorPackage().version,
        'org.opencontainers.image.licenses': 'Apache-2.0',
      });
      expect(config.Config.User).toBe('1000:1000');
      expect(Object.keys(config.Config.ExposedPorts)).toEqual(['9440/tcp']);
      expect(Object.keys(config.Config.Volumes)).toEqual(['/data']);
      // podman keeps it beside Config, docker inside
      expect((config.Config.Healthcheck ?? config.Healthcheck)?.Test?.[0]).toBe('CMD');

      const bytesServed = Buffer.alloc(64 * 1024, 7);
      source = createServer((_req, res) => res.end(bytesServed));
      await new Promise((resolve) => source.listen(0, '127.0.0.1', resolve));
      const sourceUri = `http://127.0.0.1:${source.address().port}/disk.img`;

      const port = await freePort();
      const first = await startContainer(port);
      // no password given: one generated, printed, and kept on the volume
      const password = /password (\S+) \(generated, kept in data\/password/.exec(first.log)?.[1];
      expect(password, first.log).toBeTruthy();
      expect(first.log).not.toMatch(/\/tmp\/|\/root\//);
      expect(engineRun(e, ['healthcheck', 'run', first.id]).trim()).toMatch(/^(healthy)?$/);

      const created = await call(port, password, 'POST', '/api/svc/v3/images', {
        api_version: '3.1.0',
        metadata: { kind: 'image' },
        spec: { name: 'in-a-container', resources: { image_type: 'DISK_IMAGE', source_uri: sourceUri } },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(202);
      const uuid = created.body.metadata.uuid;
      const taskUuid = created.body.status.execution_context.task_uuid;
      let task;
      // the task's own long poll answers when it ends (bounded: 10 polls of up to 30 s)
      for (let i = 0; i < 10; i++) {
        await call(port, password, 'POST', '/api/svc/v3/tasks/poll', {
          task_uuid_list: [taskUuid],
          poll_timeout_seconds: 30,
        });
        task = (await call(port, password, 'GET', `/api/svc/v3/tasks/${taskUuid}`)).body;
        if (['SUCCEEDED', 'FAILED', 'ABORTED'].includes(task.status)) break;
      }
      expect(task.status, JSON.stringify(task.error_detail ?? '')).toBe('SUCCEEDED');

      // `podman stop`: SIGTERM, and the simulator exits 0 by itself (137 would be the SIGKILL after 30 s)
      engineRun(e, ['stop', '--time', '30', first.id]);
      expect(engineRun(e, ['inspect', '--format', '{{.State.ExitCode}}', first.id]).trim()).toBe('0');
      engineRun(e, ['rm', first.id]);

      const second = await startContainer(port);
      expect(second.log).toMatch(/password \S+ \(kept in data\/password/);
      const found = await call(port, password, 'GET', `/api/svc/v3/images/${uuid}`);
      expect(found.status).toBe(200);
      expect(found.body.status.state).toBe('COMPLETE');
      expect(found.body.status.resources.size_bytes).toBe(bytesServed.length);
      // the control API in the container: health without credentials, a snapshot with them
      expect((await fetchBytes(port, undefined, '/_svc/health')).status).toBe(200);
      const archive = await fetchBytes(port, password, '/_svc/snapshot');
      expect(archive.status).toBe(200);
      writeFileSync(join(dir, 'catalogue.tar'), archive.bytes);
      engineRun(e, ['stop', '--time', '30', second.id]);
      engineRun(e, ['rm', second.id]);

      // a CI job's start from a prepared catalogue: a new volume, the archive mounted, --snapshot
      const third = await startContainer(port, {
        volume: `${VOLUME}-seeded`,
        mounts: [`${join(dir, 'catalogue.tar')}:/seed/catalogue.tar:ro`],
        args: ['--snapshot', '/seed/catalogue.tar'],
      });
      const seededPassword = /password (\S+) \(generated/.exec(third.log)?.[1];
      const seeded = await call(port, seededPassword, 'GET', `/api/svc/v3/images/${uuid}`);
      expect(seeded.status, third.log).toBe(200);
      expect(seeded.body.spec.name).toBe('in-a-container');
      engineRun(e, ['stop', '--time', '30', third.id]);
    },
  );
});
