// The control API (`/_svc`, issue 59) on a running local svc: health without credentials, reset
// (all or some kinds; the topology stays), snapshot and restore (and refusals that leave the state
// as it was), the request journal with the description's verdict, fault rules at run time, tasks
// ended on demand and the task time changed at run time. Every answer is checked against the spec.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../src/index.js';
import { objectStoreSpec, PASSWORD, seededTopology, startTestSimulator, waitTask } from './support/sim.js';

const V3 = '/api/svc/v3';
/** @type {Awaited<ReturnType<typeof startTestSimulator>>} */
let t;
beforeAll(async () => {
  t = await startTestSimulator({ keepDir: false });
});
afterAll(() => t?.close());
afterEach(() => {
  expect(t.violations).toEqual([]);
});

const image = (name, resources = { image_type: 'DISK_IMAGE' }) => ({
  body: { api_version: '3.1.0', metadata: { kind: 'image' }, spec: { name, resources } },
});

/** An image with bytes, its create task ended; its UUID. */
async function imageWithBytes(name, bytes = Buffer.alloc(2048, 5)) {
  const created = await t.call('POST', `${V3}/images`, image(name));
  await waitTask(t.call, created.body.status.execution_context.task_uuid);
  const uuid = created.body.metadata.uuid;
  const put = await t.call('PUT', `${V3}/images/${uuid}/file`, {
    body: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(put.status).toBe(200);
  return uuid;
}

const names = async () =>
  (await t.call('POST', `${V3}/images/list`, { body: { kind: 'image', length: 500 } })).body.entities.map(
    (e) => e.spec.name,
  );

describe('health', () => {
  it('answers without credentials, with the counts of what the state holds', async () => {
    const health = await t.call('GET', '/_svc/health', { auth: null });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', entities: { image: expect.any(Number) } });
    expect(health.body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('takes the credentials for everything else', async () => {
    for (const [method, path] of [
      ['POST', '/_svc/reset'],
      ['GET', '/_svc/snapshot'],
      ['GET', '/_svc/requests'],
      ['GET', '/_svc/faults'],
      ['PUT', '/_svc/settings'],
    ])
      expect(
        (await t.call(method, path, { auth: null, ...(method === 'GET' ? {} : { body: {} }) })).status,
        `${method} ${path}`,
      ).toBe(401);
  });
});

describe('reset', () => {
  it('removes images with their bytes, tasks and object stores; the topology stays', async () => {
    const uuid = await imageWithBytes('to-reset');
    const topology = await seededTopology(t.call);
    const store = await t.call('POST', '/oss/api/svc/v3/objectstores', {
      body: {
        api_version: '3.0',
        metadata: { kind: 'objectstore' },
        spec: objectStoreSpec('to-reset', topology.cluster, topology.subnets),
      },
    });
    expect(store.status).toBe(202);
    const reset = await t.call('POST', '/_svc/reset', { body: {} });
    expect(reset.status).toBe(200);
    expect(reset.body.removed).toMatchObject({ image: expect.any(Number), object_store: 1 });
    expect(reset.body.removed.image).toBeGreaterThanOrEqual(1);
    expect(await names()).toEqual([]);
    expect((await t.call('GET', `${V3}/images/${uuid}`)).status).toBe(404);
    expect(existsSync(join(t.dataDir, 'images', uuid))).toBe(false);
    const health = await t.call('GET', '/_svc/health');
    expect(health.body.entities).toEqual({ image: 0, task: 0, object_store: 0 });
    // the topology as it was
    expect(await seededTopology(t.call)).toEqual(topology);
    // and the state takes new work
    expect((await t.call('POST', `${V3}/images`, image('after'))).status).toBe(202);
  });

  it('resets only the kinds asked: ended tasks alone leave images as they are', async () => {
    await t.call('POST', '/_svc/reset', { body: {} });
    await imageWithBytes('kept');
    const reset = await t.call('POST', '/_svc/reset', { body: { kinds: ['task'] } });
    expect(reset.body.removed).toEqual({ task: 1 });
    expect(await names()).toEqual(['kept']);
  });
});

describe('snapshot', () => {
  it('restores the state it took: images with their bytes; a second restore of it works again', async () => {
    await t.call('POST', '/_svc/reset', { body: {} });
    const bytes = Buffer.alloc(4096, 9);
    const uuid = await imageWithBytes('in-the-snapshot', bytes);
    const archive = await t.call('GET', '/_svc/snapshot');
    expect(archive.status).toBe(200);
    expect(archive.headers.get('content-type')).toBe('application/x-tar');
    // changes after it: gone once it is restored
    await t.call('DELETE', `${V3}/images/${uuid}`);
    await imageWithBytes('after-the-snapshot');
    const restored = await t.call('PUT', '/_svc/snapshot', {
      body: new Uint8Array(archive.body),
      headers: { 'content-type': 'application/x-tar' },
    });
    expect(restored.status).toBe(200);
    expect(restored.body.entities.image).toBe(1);
    expect(await names()).toEqual(['in-the-snapshot']);
    const file = await t.call('GET', `${V3}/images/${uuid}/file`);
    expect(Buffer.compare(file.body, bytes)).toBe(0);
    expect(readdirSync(join(t.dataDir, 'images'))).toEqual([uuid]);
  });

  it('refuses a damaged archive with 400 naming the rule, the state untouched', async () => {
    const before = await names();
    const archive = await t.call('GET', '/_svc/snapshot');
    const damaged = Buffer.from(archive.body);
    damaged[700] ^= 0xff; // inside the manifest's bytes or the database's: a hash then differs
    for (const body of [damaged, Buffer.from('not an archive at all, but long enough to be read as one'.repeat(20))]) {
      const refused = await t.call('PUT', '/_svc/snapshot', {
        body: new Uint8Array(body),
        headers: { 'content-type': 'application/x-tar' },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message_list[0].reason).toBe('SNAPSHOT_INVALID');
    }
    expect(await names()).toEqual(before);
  });

  it('is where a start begins with --snapshot (the startSimulator option)', async () => {
    const archive = await t.call('GET', '/_svc/snapshot');
    const file = join(t.dataDir, '..', `snapshot-${process.pid}.tar`);
    writeFileSync(file, archive.body);
    const other = await startTestSimulator({ snapshot: file });
    try {
      expect(
        await (async () =>
          (await other.call('POST', `${V3}/images/list`, { body: { kind: 'image' } })).body.entities.map(
            (e) => e.spec.name,
          ))(),
      ).toEqual(await names());
    } finally {
      await other.close();
    }
    await expect(
      startSimulator({
        port: 0,
        dataDir: join(t.dataDir, '..', `bad-${process.pid}`),
        password: PASSWORD,
        snapshot: CLI_SELF,
      }),
    ).rejects.toThrow(/snapshot/i);
  });
});

/** A file that is not a snapshot: this test's own source. */
const CLI_SELF = new URL(import.meta.url).pathname;

describe('the request journal', () => {
  it('lists the requests newest first with their operation, status and the description verdict', async () => {
    await t.call('DELETE', '/_svc/requests');
    const refused = await t.call('POST', `${V3}/images`, image('bad', { image_type: 'FLOPPY' }));
    expect(refused.status).toBe(422);
    await t.call('POST', `${V3}/images/list`, { body: { kind: 'image' } });
    await t.call('GET', '/api/svc/v3/nothing/here');
    const journal = await t.call('GET', '/_svc/requests');
    expect(journal.body.total).toBe(3);
    const [missing, list, create] = journal.body.entries;
    expect(list).toMatchObject({
      method: 'POST',
      path: `${V3}/images/list`,
      operation_id: 'images_list',
      status: 200,
      valid: true,
      violations: [],
    });
    expect(create).toMatchObject({ operation_id: 'images_create', status: 422, valid: false });
    expect(create.violations[0]).toMatchObject({ in: 'body', path: '/spec/resources/image_type', lenient: false });
    expect(missing).toMatchObject({ operation_id: null, status: 404, valid: false });
    // the control API's own requests are not in it, nor any header's or body's value
    expect(JSON.stringify(journal.body)).not.toContain('FLOPPY');
    const only = await t.call('GET', '/_svc/requests?valid=false&operation_id=images_create');
    expect(only.body.entries.map((e) => e.status)).toEqual([422]);
  });

  it("notes what a request leans on of production's leniency, the request still valid", async () => {
    await t.call('DELETE', '/_svc/requests');
    await t.call('POST', `${V3}/images/list`, { body: { kind: 'image', sort_order: null, filter: '' } });
    const [entry] = (await t.call('GET', '/_svc/requests')).body.entries;
    expect(entry).toMatchObject({ operation_id: 'images_list', status: 200, valid: true });
    expect(entry.violations.map((v) => [v.path, v.lenient])).toEqual([
      ['/sort_order', true],
      ['/filter', true],
    ]);
  });

  it('is emptied by DELETE', async () => {
    expect((await t.call('DELETE', '/_svc/requests')).status).toBe(204);
    expect((await t.call('GET', '/_svc/requests')).body).toEqual({ total: 0, entries: [] });
  });
});

describe('fault rules', () => {
  it('answer 503 with Retry-After for the operation named, count times, then end', async () => {
    const set = await t.call('PUT', '/_svc/faults', {
      body: { rules: [{ operation_id: 'images_list', status: 503, probability: 1, count: 2 }] },
    });
    expect(set.status).toBe(200);
    const list = () => t.call('POST', `${V3}/images/list`, { body: { kind: 'image' } });
    for (let i = 0; i < 2; i++) {
      const faulted = await list();
      expect(faulted.status).toBe(503);
      expect(faulted.headers.get('retry-after')).toBe('1');
    }
    expect((await list()).status).toBe(200);
    expect((await t.call('GET', '/_svc/faults')).body.rules).toEqual([]);
  });

  it('fail the task of a create; DELETE clears them', async () => {
    await t.call('PUT', '/_svc/faults', {
      body: { rules: [{ operation_id: 'images_create', fail_task: true, probability: 1 }] },
    });
    const created = await t.call('POST', `${V3}/images`, image('doomed'));
    expect(created.status).toBe(202);
    expect((await waitTask(t.call, created.body.status.execution_context.task_uuid)).status).toBe('FAILED');
    expect((await t.call('DELETE', '/_svc/faults')).status).toBe(204);
    const fine = await t.call('POST', `${V3}/images`, image('fine'));
    expect((await waitTask(t.call, fine.body.status.execution_context.task_uuid)).status).toBe('SUCCEEDED');
  });

  it('refuses a rule it cannot put in force, naming the field (422)', async () => {
    const refused = await t.call('PUT', '/_svc/faults', { body: { rules: [{ status: 503, probability: 2 }] } });
    expect(refused.status).toBe(422);
  });
});

describe('tasks on demand and the task time', () => {
  it('ends a long task now (SUCCEEDED, its effect; FAILED, the failure state); 409 when ended, 404 unknown', async () => {
    expect((await t.call('PUT', '/_svc/settings', { body: { task_seconds: 3600 } })).body).toEqual({
      task_seconds: 3600,
    });
    try {
      const one = await t.call('POST', `${V3}/images`, image('long-one'));
      const two = await t.call('POST', `${V3}/images`, image('long-two'));
      const [a, b] = [one, two].map((c) => c.body.status.execution_context.task_uuid);
      const ok = await t.call('POST', `/_svc/tasks/${a}/complete`, { body: { status: 'SUCCEEDED' } });
      expect(ok.body).toEqual({ task_uuid: a, status: 'SUCCEEDED' });
      expect((await t.call('GET', `${V3}/images/${one.body.metadata.uuid}`)).body.status.state).toBe('COMPLETE');
      const failed = await t.call('POST', `/_svc/tasks/${b}/complete`, {
        body: { status: 'FAILED', error_detail: 'no room' },
      });
      expect(failed.status).toBe(200);
      const task = (await t.call('GET', `${V3}/tasks/${b}`)).body;
      expect(task).toMatchObject({ status: 'FAILED', error_detail: 'no room' });
      expect((await t.call('GET', `${V3}/images/${two.body.metadata.uuid}`)).body.status.state).toBe('ERROR');
      expect((await t.call('POST', `/_svc/tasks/${a}/complete`, { body: { status: 'SUCCEEDED' } })).status).toBe(409);
      const unknown = await t.call('POST', '/_svc/tasks/0e09cf83-ac68-4f28-af70-6df9a43df4f0/complete', {
        body: { status: 'FAILED' },
      });
      expect(unknown.status).toBe(404);
    } finally {
      await t.call('PUT', '/_svc/settings', { body: { task_seconds: 0 } });
    }
  });

  it('ends a create now whose source never finishes: its fetch stops, the image is COMPLETE without the bytes', async () => {
    // one source that never answers, one that sends half its body and stalls
    /** @type {Set<import('node:http').ServerResponse>} */
    const held = new Set();
    const source = createServer((req, res) => {
      held.add(res);
      if (req.url === '/half') {
        res.writeHead(200, { 'content-length': '4096', 'content-type': 'application/octet-stream' });
        res.write(Buffer.alloc(2048, 1));
      }
    });
    await new Promise((resolve) => source.listen(0, '127.0.0.1', () => resolve(undefined)));
    const port = /** @type {import('node:net').AddressInfo} */ (source.address()).port;
    try {
      for (const path of ['/silent', '/half']) {
        const created = await t.call(
          'POST',
          `${V3}/images`,
          image(`stalled${path.replace('/', '-')}`, {
            image_type: 'DISK_IMAGE',
            source_uri: `http://127.0.0.1:${port}${path}`,
          }),
        );
        expect(created.status).toBe(202);
        const task = created.body.status.execution_context.task_uuid;
        // the fetch has reached the source (the task runs it) before it is ended
        const deadline = Date.now() + 30_000;
        while (held.size < (path === '/half' ? 2 : 1) && Date.now() < deadline)
          await t.call('GET', `${V3}/tasks/${task}`);
        const ended = await t.call('POST', `/_svc/tasks/${task}/complete`, { body: { status: 'SUCCEEDED' } });
        expect(ended.status, path).toBe(200);
        expect(ended.body).toEqual({ task_uuid: task, status: 'SUCCEEDED' });
        const found = (await t.call('GET', `${V3}/images/${created.body.metadata.uuid}`)).body;
        expect(found.status.state, path).toBe('COMPLETE');
        expect(found.status.resources.size_bytes ?? 0, path).toBe(0);
        const file = await t.call('GET', `${V3}/images/${created.body.metadata.uuid}/file`);
        expect(file.status, path).toBe(404); // no part of the half body is kept
      }
    } finally {
      for (const res of held) res.destroy();
      source.closeAllConnections();
      await new Promise((resolve) => source.close(resolve));
    }
  });
});
