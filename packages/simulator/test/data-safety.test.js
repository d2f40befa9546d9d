// Nothing lost or stuck under faults (issue 20, "Data lost or stuck"): one byte writer per image
// whichever API asks, a delete that waits for the writer, a full disk answered 507, an object store
// never half-created, and a stop in mid-upload resolved at the next start.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toHttpError } from '../src/errors.js';
import { AUTH, objectStoreSpec, PASSWORD, seededTopology, startTestSimulator, waitTask } from './support/sim.js';
import { startHeldSource } from './support/source.js';
import { openUpload, waitUntil } from './support/upload.js';

const V3 = '/api/svc/v3';
const CLI = fileURLToPath(new URL('../src/cli.js', import.meta.url));
const image = (name, resources = { image_type: 'DISK_IMAGE' }) => ({
  api_version: '3.1.0',
  metadata: { kind: 'image' },
  spec: { name, resources },
});
const octets = { authorization: AUTH, 'content-type': 'application/octet-stream' };

let t;
beforeAll(async () => {
  t = await startTestSimulator();
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  expect(t.violations).toEqual([]);
});

const partsOf = (dataDir) => readdirSync(join(dataDir, 'images')).filter((n) => n.endsWith('.part'));

/** Creates a v3 image without a source and waits for its create task. */
async function emptyImage(name) {
  const created = await t.call('POST', `${V3}/images`, { body: image(name) });
  await waitTask(t.call, created.body.status.execution_context.task_uuid);
  return created.body.metadata.uuid;
}

describe('one byte writer per image', () => {
  it('refuses an upload while the source_uri fetch writes; the fetched bytes are kept intact', async () => {
    const source = await startHeldSource({ total: 100_000, first: 1000 });
    try {
      const created = await t.call('POST', `${V3}/images`, {
        body: image('fetching', { image_type: 'DISK_IMAGE', source_uri: source.url }),
      });
      const uuid = created.body.metadata.uuid;
      await source.started;
      const upload = await t.call('PUT', `${V3}/images/${uuid}/file`, {
        body: Buffer.alloc(5000, 9),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(upload.status).toBe(409);
      expect(upload.body.message_list[0].message).toMatch(/source_uri/);
      source.release();
      const task = await waitTask(t.call, created.body.status.execution_context.task_uuid);
      expect(task.status).toBe('SUCCEEDED');
      const got = await t.call('GET', `${V3}/images/${uuid}`);
      expect(got.body.status.resources.size_bytes).toBe(100_000);
      const file = await t.call('GET', `${V3}/images/${uuid}/file`);
      expect(Buffer.compare(file.body, source.bytes)).toBe(0);
    } finally {
      await source.close();
    }
  });

  it('refuses a delete while an upload writes; the upload then completes and the delete works', async () => {
    const uuid = await emptyImage('delete-during-upload');
    const upload = openUpload(`${t.sim.url}${V3}/images/${uuid}/file`, {
      ca: t.sim.ca,
      headers: octets,
      total: 200_000,
      first: 50_000,
    });
    await waitUntil(() => partsOf(t.dataDir).some((n) => n.startsWith(uuid)), 'the upload writes');
    const deleted = await t.call('DELETE', `${V3}/images/${uuid}`);
    expect(deleted.status).toBe(409);
    expect(deleted.body.message_list[0].message).toMatch(/receiving its data/);
    const answer = await upload.finish();
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain(t.dataDir);
    expect((await t.call('GET', `${V3}/images/${uuid}`)).body.status.resources.size_bytes).toBe(200_000);
    const again = await t.call('DELETE', `${V3}/images/${uuid}`);
    expect(again.status).toBe(202);
    await waitTask(t.call, again.body.status.execution_context.task_uuid);
    expect((await t.call('GET', `${V3}/images/${uuid}`)).status).toBe(404);
  });
});

describe('a full disk', () => {
  it('answers an upload 507 naming the reason (not a reset); the image then takes a new upload', async () => {
    const uuid = await emptyImage('disk-full');
    // every write to /dev/full fails with ENOSPC
    for (const name of [`${uuid}.part`, `${uuid}.upload.part`])
      symlinkSync('/dev/full', join(t.dataDir, 'images', name));
    const full = await t.call('PUT', `${V3}/images/${uuid}/file`, {
      body: Buffer.alloc(3 * 1024 * 1024, 1),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(full.status).toBe(507);
    expect(full.body.message_list[0].message).toMatch(/full/);
    expect(full.text).not.toContain(t.dataDir);
    const retried = await t.call('PUT', `${V3}/images/${uuid}/file`, {
      body: Buffer.alloc(1000, 1),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(retried.status).toBe(200);
  });

  it('answers any other error 500 without a path of the data directory or a credential', () => {
    const fs = Object.assign(new Error("ENOENT: no such file or directory, rename '/srv/data/images/x.part'"), {
      code: 'ENOENT',
      syscall: 'rename',
    });
    expect(toHttpError(fs, ['/srv/data']).message).toBe('Internal error: ENOENT (rename)');
    const other = new Error('cannot read /srv/data/state.sqlite with s3cret at http://u:pw@h/x');
    const message = toHttpError(other, ['/srv/data', 's3cret']).message;
    expect(message).not.toMatch(/\/srv\/data|s3cret|pw@/);
  });

  it('maps a full SQLite database to 507 too, never its raw message', () => {
    const error = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const mapped = toHttpError(error, []);
    expect(mapped.status).toBe(507);
    expect(mapped.message).not.toMatch(/database or disk is full/);
  });

  it('reports a fetch that cannot be stored as a storage error, not "Could not access the URL"', async () => {
    const source = await startHeldSource({ total: 4096, first: 4096 });
    source.release();
    try {
      const uuid = '6a1e1a3c-0c4e-4f55-9e3c-0a3f0b7c5d21';
      for (const name of [`${uuid}.part`, `${uuid}.fetch.part`])
        symlinkSync('/dev/full', join(t.dataDir, 'images', name));
      const created = await t.call('POST', `${V3}/images`, {
        body: {
          ...image('fetch-disk-full', { image_type: 'DISK_IMAGE', source_uri: source.url }),
          metadata: { kind: 'image', uuid },
        },
      });
      const task = await waitTask(t.call, created.body.status.execution_context.task_uuid);
      expect(task.status).toBe('FAILED');
      expect(task.error_detail).not.toMatch(/Could not access the URL/);
      expect(task.error_detail).toMatch(/ENOSPC/);
      expect(task.error_detail).not.toContain(t.dataDir);
    } finally {
      await source.close();
    }
  });
});

describe('object stores', () => {
  it('answers a 10k-deep create body 400 and starts no task for it', async () => {
    const count = async () =>
      (
        await t.call('POST', `${V3}/tasks/list`, {
          body: { kind: 'task', filter: 'operation_type==create_objectstore', length: 500 },
        })
      ).body.metadata.total_matches;
    const before = await count();
    const { cluster, subnets } = await seededTopology(t.call);
    const spec = objectStoreSpec('deep', cluster, subnets);
    // an otherwise valid body with 10,000 levels in a property the schema leaves open
    const json = JSON.stringify({ api_version: '3.0', metadata: { kind: 'objectstore' }, spec }).replace(
      '"name":"deep"',
      `"name":"deep","x_deep":${'['.repeat(10_000)}${']'.repeat(10_000)}`,
    );
    const res = await t.call('POST', '/oss/api/svc/v3/objectstores', {
      body: json,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message_list[0].message).toMatch(/deeper than/);
    expect(await count()).toBe(before);
    const stores = await t.call('POST', '/oss/api/svc/v3/groups', {
      body: { entity_type: 'objectstore', group_member_attributes: [{ attribute: 'name' }] },
    });
    expect(stores.body.filtered_entity_count).toBe(0);
  });
});

describe('SIGKILL in mid-upload', () => {
  it('returns the v3 and v0.8 images to a state that takes an upload, fetches a cut source again, removes partial files', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-sim-kill-'));
    const source = await startHeldSource({ total: 50_000, first: 5000 });
    let cli = await startCli(dataDir);
    try {
      const call = (method, path, o) => cli.call(method, path, o);
      const v3 = (await call('POST', `${V3}/images`, { body: image('killed-v3') })).body;
      await waitTask(call, v3.status.execution_context.task_uuid);
      const v08task = (
        await call('POST', '/api/svc/v0.8/images', { body: { name: 'killed-v08', imageType: 'DISK_IMAGE' } })
      ).body.taskUuid;
      const v08 = (await waitTask(call, v08task)).entity_reference_list[0].uuid;
      const container = (await call('GET', '/api/svc/v2.0/storage_containers')).body.entities[0].storage_container_uuid;
      const uploads = [
        openUpload(`${cli.url}${V3}/images/${v3.metadata.uuid}/file`, {
          headers: octets,
          total: 100_000,
          first: 10_000,
        }),
        openUpload(`${cli.url}/api/svc/v0.8/images/${v08}/upload`, {
          headers: { ...octets, 'x-svc-destination-container': container },
          total: 100_000,
          first: 10_000,
        }),
      ];
      const fetching = (
        await call('POST', `${V3}/images`, {
          body: image('killed-fetch', { image_type: 'DISK_IMAGE', source_uri: source.url }),
        })
      ).body;
      await source.started;
      await waitUntil(() => partsOf(dataDir).length === 3, 'both uploads and the fetch write');
      await cli.kill();
      for (const u of uploads) u.abort();
      expect(partsOf(dataDir).length).toBe(3);
      source.release();

      cli = await startCli(dataDir);
      expect(partsOf(dataDir)).toEqual([]);
      const put = await call('PUT', `${V3}/images/${v3.metadata.uuid}/file`, {
        body: Buffer.alloc(1000, 3),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(put.status).toBe(200);
      const upload = await call('PUT', `/api/svc/v0.8/images/${v08}/upload`, {
        body: Buffer.alloc(1000, 3),
        headers: { 'content-type': 'application/octet-stream', 'x-svc-destination-container': container },
      });
      expect(upload.status).toBe(200);
      expect((await waitTask(call, upload.body.taskUuid)).status).toBe('SUCCEEDED');
      expect((await call('DELETE', `/api/svc/v0.8/images/${v08}`)).status).toBe(200);
      const fetched = await waitTask(call, fetching.status.execution_context.task_uuid);
      expect(fetched.status).toBe('SUCCEEDED');
      expect(fetched.progress_message).toMatch(/fetched again/);
      expect((await call('GET', `${V3}/images/${fetching.metadata.uuid}`)).body.status.resources.size_bytes).toBe(
        50_000,
      );
    } finally {
      await source.close();
      await cli.kill();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** The CLI in a child process on a free port over plain HTTP, with `call` (JSON in and out) and `kill` (SIGKILL). */
async function startCli(dataDir) {
  const child = spawn(process.execPath, [CLI, '--port', '0', '--http', '--task-seconds', '0', '--data', dataDir], {
    env: { ...process.env, SVC_SIM_PASSWORD: PASSWORD },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /local svc\s+(\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.stderr.on('data', (chunk) => (out += chunk));
    child.once('exit', (code) => reject(new Error(`the simulator exited (${code}):\n${out}`)));
  });
  return {
    url,
    async call(method, path, o = {}) {
      const headers = { authorization: AUTH, ...o.headers };
      let body = o.body;
      if (body !== undefined && !(body instanceof Uint8Array)) {
        body = JSON.stringify(body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(`${url}${path}`, { method, headers, body });
      const text = await res.text();
      return {
        status: res.status,
        body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
      };
    },
    kill: () =>
      child.exitCode !== null || child.signalCode !== null
        ? Promise.resolve()
        : new Promise((resolve) => {
            child.once('exit', resolve);
            child.kill('SIGKILL');
          }),
  };
}
