// The task's own table (transitions.js TASK) drives every task write (issue 58): an acknowledged
// abort is a transition that a stop cannot undo, a task interrupted by a stop reads QUEUED again
// (its percentage_complete kept), and an upload in progress refuses an update as it refuses a delete.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDomain } from '../src/domain/index.js';
import { createFaultRules } from '../src/faults.js';
import { upgrade } from '../src/migrate.js';
import { AUTH, startTestSimulator, waitTask } from './support/sim.js';
import { startHeldSource } from './support/source.js';

const V3 = '/api/svc/v3';
const root = mkdtempSync(join(tmpdir(), 'svc-sim-task-machine-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const imageFrom = (name, source_uri) => ({
  api_version: '3.1.0',
  metadata: { kind: 'image' },
  spec: { name, resources: { image_type: 'DISK_IMAGE', ...(source_uri ? { source_uri } : {}) } },
});

describe('an abort is a transition', () => {
  it('ends ABORTED after a stop, even when the fetch it stopped would have succeeded', async () => {
    const dataDir = join(root, 'abort');
    const source = await startHeldSource({ total: 64 * 1024, first: 1024 });
    let t = await startTestSimulator({ dataDir, keepDir: true });
    try {
      const created = await t.call('POST', `${V3}/images`, { body: imageFrom('to-abort', source.url) });
      const task = created.body.status.execution_context.task_uuid;
      await source.started;
      expect((await t.call('POST', `${V3}/tasks/${task}/abort`)).status).toBe(200);
      // a stop at once, the fetch still held: its end was not written
      await t.close();
      source.release();
      t = await startTestSimulator({ dataDir, keepDir: true });
      const ended = await waitTask(t.call, task);
      expect(ended).toMatchObject({ status: 'ABORTED', requested_status: 'ABORTED' });
      const image = await t.call('GET', `${V3}/images/${created.body.metadata.uuid}`);
      expect(image.body.status.state).toBe('ERROR');
      expect(t.violations).toEqual([]);
    } finally {
      await t.close();
      await source.close();
    }
  });

  it('ends ABORTED when the work ends after the abort was answered', async () => {
    const source = await startHeldSource({ total: 64 * 1024, first: 1024 });
    const t = await startTestSimulator();
    try {
      const created = await t.call('POST', `${V3}/images`, { body: imageFrom('late-end', source.url) });
      const task = created.body.status.execution_context.task_uuid;
      await source.started;
      expect((await t.call('POST', `${V3}/tasks/${task}/abort`)).status).toBe(200);
      source.release();
      expect((await waitTask(t.call, task)).status).toBe('ABORTED');
    } finally {
      await t.close();
      await source.close();
    }
  });
});

describe('a stop', () => {
  it('leaves its running tasks QUEUED for the next start, their percentage_complete kept', async () => {
    const dataDir = join(root, 'restart');
    const t = await startTestSimulator({ dataDir, keepDir: true, taskSeconds: 3600 });
    const created = await t.call('POST', `${V3}/images`, { body: imageFrom('long') });
    const uuid = created.body.status.execution_context.task_uuid;
    let before;
    for (let i = 0; i < 400; i++) {
      before = (await t.call('GET', `${V3}/tasks/${uuid}`)).body;
      if (before.status === 'RUNNING') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(before.status).toBe('RUNNING');
    await t.close();
    // the next start's domain, before its tasks run
    const domain = createDomain({
      dataDir,
      taskMs: 3_600_000,
      faults: createFaultRules(),
      seed: 1,
      sourceLimitBytes: 1024,
      sourceTimeoutMs: 1000,
      upgrade,
    });
    try {
      const task = domain.tasks.get(uuid);
      expect(task.status).toBe('QUEUED');
      expect(task.message).toBe('resumed after a restart of the simulator');
      expect(task.percentage).toBeGreaterThanOrEqual(before.percentage_complete);
    } finally {
      domain.stopTasks();
      domain.close();
    }
  });
});

describe('an upload in progress', () => {
  /** Sends an upload's head and `first` bytes of `size`; resolves a function that sends the rest and reads the answer. */
  async function beginUpload(t, path, size, first, headers) {
    const { port } = new URL(t.sim.url);
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    let text = '';
    const answered = new Promise((resolve) => {
      socket.on('data', (chunk) => {
        text += chunk;
        if (/\r\n\r\n/.test(text) && /Content-Length: (\d+)/i.test(text)) {
          const length = Number(/Content-Length: (\d+)/i.exec(text)?.[1]);
          if (text.length - text.indexOf('\r\n\r\n') - 4 >= length) resolve(text);
        }
      });
    });
    await new Promise((resolve) => socket.on('connect', resolve));
    const head = Object.entries({ Host: 'x', Authorization: AUTH, 'Content-Length': size, ...headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    await new Promise((resolve) => socket.write(`PUT ${path} HTTP/1.1\r\n${head}\r\n`, resolve));
    await new Promise((resolve) => socket.write(Buffer.alloc(first, 1), resolve));
    return async () => {
      socket.write(Buffer.alloc(size - first, 1));
      const answer = String(await answered);
      socket.destroy();
      return {
        status: Number(answer.slice(9, 12)),
        body: JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4) || 'null'),
      };
    };
  }

  /** Waits until the image's upload (`upload`: v3, `stage`: v0.8) writes: its first bytes are in its partial file. */
  async function writing(t, uuid, writer) {
    const part = join(t.dataDir, 'images', `${uuid}.${writer}.part`);
    for (let i = 0; i < 800 && !(existsSync(part) && statSync(part).size > 0); i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
  }

  it('refuses a v2.0 update while a v0.8 upload writes, and keeps the upload', async () => {
    const t = await startTestSimulator({ http: true });
    try {
      const created = await t.call('POST', '/api/svc/v0.8/images', {
        body: { name: 'staged', imageType: 'DISK_IMAGE' },
      });
      const createTask = await waitTask(t.call, created.body.taskUuid);
      const uuid = createTask.entity_reference_list[0].uuid;
      const containers = await t.call('GET', '/api/svc/v2.0/storage_containers');
      const container = containers.body.entities[0].storage_container_uuid;
      const size = 256 * 1024;
      const finish = await beginUpload(t, `/api/svc/v0.8/images/${uuid}/upload`, size, 1024, {
        'Content-Type': 'application/octet-stream',
        'X-Svc-Destination-Container': container,
      });
      await writing(t, uuid, 'stage');
      const update = await t.call('PUT', `/api/svc/v2.0/images/${uuid}`, { body: { name: 'renamed' } });
      expect(update.status).toBe(400);
      expect(update.body.message).toContain('receiving its data');
      const uploaded = await finish();
      expect(uploaded.status).toBe(200);
      expect((await waitTask(t.call, uploaded.body.taskUuid)).status).toBe('SUCCEEDED');
      const image = await t.call('GET', `/api/svc/v2.0/images/${uuid}`);
      expect(image.body).toMatchObject({ image_state: 'ACTIVE', vm_disk_size: size });
    } finally {
      await t.close();
    }
  });

  it('refuses a v3 update while a v3 upload writes, with 409 naming the upload', async () => {
    const t = await startTestSimulator({ http: true });
    try {
      const created = await t.call('POST', `${V3}/images`, { body: imageFrom('v3-upload') });
      await waitTask(t.call, created.body.status.execution_context.task_uuid);
      const uuid = created.body.metadata.uuid;
      const finish = await beginUpload(t, `${V3}/images/${uuid}/file`, 128 * 1024, 1024, {
        'Content-Type': 'application/octet-stream',
      });
      await writing(t, uuid, 'upload');
      const got = await t.call('GET', `${V3}/images/${uuid}`);
      const update = await t.call('PUT', `${V3}/images/${uuid}`, {
        body: { ...imageFrom('renamed'), metadata: { kind: 'image', spec_version: got.body.metadata.spec_version } },
      });
      expect(update.status).toBe(409);
      expect(update.body.message_list[0].message).toContain('receiving its data');
      expect((await finish()).status).toBe(200);
      const image = await t.call('GET', `${V3}/images/${uuid}`);
      expect(image.body.status.resources.size_bytes).toBe(128 * 1024);
    } finally {
      await t.close();
    }
  });
});
