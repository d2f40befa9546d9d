import { createHash, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestSimulator, waitTask } from './support/sim.js';
import { startSource } from './support/source.js';

const V3 = '/api/svc/v3';
const MISSING = '0e09cf83-ac68-4f28-af70-6df9a43df4f0';
const createBody = (name, resources = { image_type: 'DISK_IMAGE' }) => ({
  api_version: '3.1.0',
  metadata: { kind: 'image' },
  spec: { name, resources },
});

let t;
let source;
const bytes = randomBytes(256 * 1024 + 7);
beforeAll(async () => {
  t = await startTestSimulator();
  source = await startSource({ '/disk.qcow2': bytes });
});
afterAll(async () => {
  await t?.close();
  await source?.close();
});
afterEach(() => {
  // every answer of every test conforms to the spec
  expect(t.violations).toEqual([]);
});

describe('requests the spec refuses', () => {
  it("answers 401 with the intent gateway's JSON body (v3) and the HTML page (element) to a missing or wrong credential", async () => {
    for (const auth of [null, `Basic ${Buffer.from('admin:wrong').toString('base64')}`]) {
      const res = await t.call('POST', `${V3}/images/list`, { body: {}, auth });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      expect(res.body).toMatchObject({
        code: 401,
        state: 'ERROR',
        message_list: [{ reason: 'AUTHENTICATION_REQUIRED' }],
      });
      const element = await t.call('GET', '/api/svc/v2.0/storage_containers', { auth });
      expect(element.status).toBe(401);
      expect(element.headers.get('content-type')).toMatch(/^text\/html/);
      expect(element.text).toContain('HTTP ERROR 401');
    }
  });

  it('answers 422 with the v3 envelope naming each bad field and its rule', async () => {
    const res = await t.call('POST', `${V3}/images`, {
      body: { metadata: { kind: 'image' }, spec: { name: 'x', resources: { image_type: 'CD_IMAGE' } } },
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ api_version: '3.1', code: 422, kind: 'image', state: 'ERROR' });
    const [message] = res.body.message_list;
    expect(message.reason).toBe('INVALID_REQUEST');
    expect(message.details['spec.resources.image_type']).toMatch(/allowed values: "DISK_IMAGE", "ISO_IMAGE"/);
    expect(message.message).toContain('spec.resources.image_type');
    const missing = await t.call('POST', `${V3}/images`, {
      body: { metadata: { kind: 'image' }, spec: { resources: {} } },
    });
    expect(missing.body.message_list[0].details).toHaveProperty('spec.name');
  });

  it('answers 400 to malformed JSON, 415 to a wrong media type, 404 to an unknown UUID', async () => {
    const malformed = await t.call('POST', `${V3}/images/list`, {
      body: '{"kind": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message_list[0].message).toMatch(/not valid JSON/);
    const wrongType = await t.call('POST', `${V3}/images/list`, {
      body: 'kind=image',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.message_list[0].reason).toBe('UNSUPPORTED_MEDIA_TYPE_ERROR');
    const unknown = await t.call('GET', `${V3}/images/${MISSING}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      api_version: '3.1',
      code: 404,
      kind: 'image',
      message_list: [{ message: `image : ${MISSING} does not exist.`, reason: 'ENTITY_NOT_FOUND' }],
      state: 'ERROR',
    });
    const badUuid = await t.call('GET', `${V3}/tasks/not-a-uuid`);
    expect(badUuid.status).toBe(422);
    expect(badUuid.body.message_list[0].message).toMatch(/uuid \(path\)/);
  });
});

describe('v3 image lifecycle', () => {
  it('fetches source_uri: PENDING, a task that succeeds, COMPLETE with the real size, the bytes downloadable', async () => {
    const created = await t.call('POST', `${V3}/images`, {
      body: createBody('from-url', { image_type: 'DISK_IMAGE', source_uri: `${source.url}/disk.qcow2` }),
    });
    expect(created.status).toBe(202);
    expect(created.body.status.state).toBe('PENDING');
    const taskUuid = created.body.status.execution_context.task_uuid;
    expect(typeof taskUuid).toBe('string');
    const task = await waitTask(t.call, taskUuid);
    expect(task).toMatchObject({
      status: 'SUCCEEDED',
      percentage_complete: 100,
      operation_type: 'create_image_intentful',
    });
    expect(task.entity_reference_list).toEqual([{ kind: 'image', uuid: created.body.metadata.uuid, name: 'from-url' }]);
    const image = await t.call('GET', `${V3}/images/${created.body.metadata.uuid}`);
    expect(image.body.status.state).toBe('COMPLETE');
    expect(image.body.status.resources.size_bytes).toBe(bytes.length);
    const [retrieval] = image.body.status.resources.retrieval_uri_list;
    expect(retrieval).toBe(`${t.sim.url}${V3}/images/${created.body.metadata.uuid}/file`);
    const file = await t.call('GET', new URL(retrieval).pathname);
    expect(file.status).toBe(200);
    expect(Buffer.compare(file.body, bytes)).toBe(0);
  });

  it('ends the task FAILED with error_code and error_detail when the source is unreachable', async () => {
    const created = await t.call('POST', `${V3}/images`, {
      body: createBody('missing', { image_type: 'ISO_IMAGE', source_uri: `${source.url}/missing.iso` }),
    });
    const task = await waitTask(t.call, created.body.status.execution_context.task_uuid);
    expect(task.status).toBe('FAILED');
    expect(task.error_code).toBeTruthy();
    expect(task.error_detail).toContain(`${source.url}/missing.iso: 404`);
    const image = await t.call('GET', `${V3}/images/${created.body.metadata.uuid}`);
    expect(image.body.status.state).toBe('ERROR');
  });

  it('takes an upload with a checked checksum for an image created without a source', async () => {
    const created = await t.call('POST', `${V3}/images`, { body: createBody('upload-me') });
    const uuid = created.body.metadata.uuid;
    expect((await waitTask(t.call, created.body.status.execution_context.task_uuid)).status).toBe('SUCCEEDED');
    const data = randomBytes(100_000);
    const wrong = await t.call('PUT', `${V3}/images/${uuid}/file`, {
      body: data,
      headers: {
        'content-type': 'application/octet-stream',
        'x-svc-checksum-type': 'SHA_256',
        'x-svc-checksum-bytes': '00'.repeat(32),
      },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message_list[0].message).toMatch(/X-Svc-Checksum-Bytes does not match/);
    const wrongType = await t.call('PUT', `${V3}/images/${uuid}/file`, {
      body: data,
      headers: { 'content-type': 'text/plain' },
    });
    expect(wrongType.status).toBe(415);
    const sha1 = createHash('sha1').update(data).digest('hex');
    const ok = await t.call('PUT', `${V3}/images/${uuid}/file`, {
      body: data,
      headers: {
        'content-type': 'application/octet-stream',
        'x-svc-checksum-type': 'SHA_1',
        'x-svc-checksum-bytes': sha1,
      },
    });
    expect(ok.status).toBe(200);
    const image = await t.call('GET', `${V3}/images/${uuid}`);
    expect(image.body.status.resources.size_bytes).toBe(data.length);
    const again = await t.call('PUT', `${V3}/images/${uuid}/file`, {
      body: data,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(again.status).toBe(409);
  });

  it('survives an upload cut off halfway: nothing is kept and the image takes a new upload', async () => {
    const created = await t.call('POST', `${V3}/images`, { body: createBody('cut-off') });
    const uuid = created.body.metadata.uuid;
    await waitTask(t.call, created.body.status.execution_context.task_uuid);
    const { request } = await import('node:https');
    await new Promise((resolve) => {
      const req = request(`${t.sim.url}${V3}/images/${uuid}/file`, {
        method: 'PUT',
        ca: t.sim.ca,
        headers: {
          authorization: `Basic ${Buffer.from('admin:sim-test-password').toString('base64')}`,
          'content-type': 'application/octet-stream',
          'content-length': 10_000_000,
        },
      });
      req.on('error', () => resolve(undefined));
      req.write(randomBytes(1_000_000), () => setTimeout(() => req.destroy(), 100));
    });
    let image;
    for (let i = 0; i < 100; i++) {
      image = await t.call('GET', `${V3}/images/${uuid}`);
      if (image.status === 200 && image.body.status.resources.size_bytes === undefined) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(image.body.status.resources.size_bytes).toBeUndefined();
    let retried;
    for (let i = 0; i < 100; i++) {
      retried = await t.call('PUT', `${V3}/images/${uuid}/file`, {
        body: bytes,
        headers: { 'content-type': 'application/octet-stream' },
      });
      if (retried.status !== 409) break; // the cut-off request may still be winding down
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(retried.status).toBe(200);
    expect((await t.call('GET', `${V3}/images/${uuid}`)).body.status.resources.size_bytes).toBe(bytes.length);
  });

  it('bumps spec_version on update and answers 409 to a stale one, losing no update under concurrency', async () => {
    const created = await t.call('POST', `${V3}/images`, { body: createBody('to-update') });
    const uuid = created.body.metadata.uuid;
    await waitTask(t.call, created.body.status.execution_context.task_uuid);
    const update = (name, specVersion) =>
      t.call('PUT', `${V3}/images/${uuid}`, {
        body: {
          api_version: '3.1.0',
          metadata: { kind: 'image', spec_version: specVersion },
          spec: { name, resources: { image_type: 'DISK_IMAGE' } },
        },
      });
    // ten writers with the same spec_version: exactly one wins, the others are told to re-read
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => update(`writer-${i}`, 0)));
    const winners = answers.filter((a) => a.status === 202);
    expect(winners).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
    expect(answers.find((a) => a.status === 409).body.message_list[0].reason).toBe('CONCURRENT_REQUESTS_NOT_ALLOWED');
    await waitTask(t.call, winners[0].body.status.execution_context.task_uuid);
    const image = await t.call('GET', `${V3}/images/${uuid}`);
    expect(image.body.metadata.spec_version).toBe(1);
    expect(image.body.spec.name).toBe(winners[0].body.spec.name);
    expect(image.body.status.state).toBe('COMPLETE');
    expect((await update('stale', 0)).status).toBe(409);
  });

  it('deletes: DELETE_PENDING with a task, then 404', async () => {
    const created = await t.call('POST', `${V3}/images`, { body: createBody('to-delete') });
    const uuid = created.body.metadata.uuid;
    await waitTask(t.call, created.body.status.execution_context.task_uuid);
    const listed = async () =>
      (
        await t.call('POST', `${V3}/images/list`, { body: { kind: 'image', filter: 'name==to-delete' } })
      ).body.entities.map((e) => e.status.state);
    expect(await listed()).toEqual(['COMPLETE']);
    const deleted = await t.call('DELETE', `${V3}/images/${uuid}`);
    expect(deleted.status).toBe(202);
    expect(deleted.body).toMatchObject({ spec: '', status: { state: 'DELETE_PENDING' }, metadata: { kind: 'image' } });
    const task = await waitTask(t.call, deleted.body.status.execution_context.task_uuid);
    expect(task).toMatchObject({ status: 'SUCCEEDED', operation_type: 'delete_image_intentful' });
    expect((await t.call('GET', `${V3}/images/${uuid}`)).status).toBe(404);
    expect((await t.call('DELETE', `${V3}/images/${uuid}`)).status).toBe(404);
    // the same list call as before: its answer follows the change
    expect(await listed()).toEqual([]);
  });

  it('pages, sorts and filters the list', async () => {
    const names = ['list-c', 'list-a', 'list-b'];
    for (const name of names) await t.call('POST', `${V3}/images`, { body: createBody(name) });
    const all = await t.call('POST', `${V3}/images/list`, { body: { kind: 'image', length: 500 } });
    const total = all.body.metadata.total_matches;
    expect(all.body.entities).toHaveLength(total);
    const page = await t.call('POST', `${V3}/images/list`, {
      body: { kind: 'image', offset: 1, length: 2, sort_attribute: 'name', sort_order: 'ASCENDING' },
    });
    const sorted = all.body.entities.map((e) => e.spec.name).sort((a, b) => a.localeCompare(b));
    expect(page.body.entities.map((e) => e.spec.name)).toEqual(sorted.slice(1, 3));
    expect(page.body.metadata).toMatchObject({ total_matches: total, offset: 1, length: 2 });
    const filtered = await t.call('POST', `${V3}/images/list`, { body: { kind: 'image', filter: 'name==list-b' } });
    expect(filtered.body.entities.map((e) => e.spec.name)).toEqual(['list-b']);
    expect(filtered.body.metadata.total_matches).toBe(1);
    const badFilter = await t.call('POST', `${V3}/images/list`, { body: { kind: 'image', filter: 'name=like=x' } });
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.message_list[0].message).toMatch(/^filter "name=like=x" is not supported/);
  });
});

describe('the list asked again (a polling client)', () => {
  it('answers the same bytes while no image changes, the change once one does, and every check first', async () => {
    const text = JSON.stringify({ kind: 'image', length: 500, sort_attribute: 'name', sort_order: 'ASCENDING' });
    const list = (o = {}) =>
      t.call('POST', `${V3}/images/list`, {
        body: text,
        ...o,
        headers: { 'content-type': 'application/json', ...o.headers },
      });
    const first = await list();
    expect(first.status).toBe(200);
    expect((await list()).text).toBe(first.text);
    // the answer at hand does not skip what comes before it
    expect((await list({ headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await list({ auth: 'Basic d3Jvbmc6d3Jvbmc=' })).status).toBe(401);

    const created = await t.call('POST', `${V3}/images`, { body: createBody('polled-a') });
    const uuid = created.body.metadata.uuid;
    const withIt = await list();
    expect(withIt.body.metadata.total_matches).toBe(first.body.metadata.total_matches + 1);
    expect(withIt.body.entities.map((e) => e.metadata.uuid)).toContain(uuid);
    await waitTask(t.call, created.body.status.execution_context.task_uuid);
    const read = await t.call('GET', `${V3}/images/${uuid}`);
    const updated = await t.call('PUT', `${V3}/images/${uuid}`, {
      body: { ...createBody('polled-b'), metadata: { kind: 'image', spec_version: read.body.metadata.spec_version } },
    });
    expect(updated.status).toBe(202);
    const renamed = await list();
    const names = renamed.body.entities.map((e) => e.spec.name);
    expect(names).toContain('polled-b');
    expect(names).not.toContain('polled-a');
    expect((await list()).text).toBe(renamed.text);
  });
});

describe('v3 tasks', () => {
  it('lists tasks and long-polls until one is done', async () => {
    // Long enough that the calls below fall inside the task on a loaded machine (1 s was not).
    const slow = await startTestSimulator({ taskSeconds: 5 });
    try {
      const created = await slow.call('POST', `${V3}/images`, { body: createBody('slow') });
      const uuid = created.body.status.execution_context.task_uuid;
      const first = await slow.call('GET', `${V3}/tasks/${uuid}`);
      expect(['QUEUED', 'RUNNING']).toContain(first.body.status);
      let middle;
      await expect
        .poll(
          async () => {
            middle = await slow.call('GET', `${V3}/tasks/${uuid}`);
            return middle.body.percentage_complete;
          },
          { timeout: 60_000 },
        )
        .toBeGreaterThan(0);
      expect(middle.body.status).toBe('RUNNING');
      expect(middle.body.percentage_complete).toBeLessThan(100);
      const timedOut = await slow.call('POST', `${V3}/tasks/poll`, {
        body: { poll_timeout_seconds: 0, task_uuid_list: [uuid] },
      });
      expect(timedOut.body).toEqual({ entities: [], has_poll_timed_out: true });
      const polled = await slow.call('POST', `${V3}/tasks/poll`, {
        body: { poll_timeout_seconds: 30, task_uuid_list: [uuid] },
      });
      expect(polled.body.has_poll_timed_out).toBe(false);
      expect(polled.body.entities.map((e) => [e.uuid, e.status])).toEqual([[uuid, 'SUCCEEDED']]);
      const listed = await slow.call('POST', `${V3}/tasks/list`, {
        body: { kind: 'task', filter: `entity_uuid==${created.body.metadata.uuid}` },
      });
      expect(listed.body.entities.map((e) => e.uuid)).toEqual([uuid]);
      expect(slow.violations).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it('answers 404 with the task error body for an unknown task', async () => {
    const res = await t.call('GET', `${V3}/tasks/${MISSING}`);
    expect(res.status).toBe(404);
    expect(res.body.kind).toBe('task');
  });
});

describe('seeded topology', () => {
  it('lists clusters and subnets whose UUIDs object store creation takes', async () => {
    const clusters = await t.call('POST', `${V3}/clusters/list`, { body: { kind: 'cluster' } });
    expect(clusters.body.entities.map((c) => c.spec.name)).toContain('cluster-01');
    const subnets = await t.call('POST', `${V3}/subnets/list`, {
      body: { kind: 'subnet', filter: 'name==vlan-110-infra' },
    });
    expect(subnets.body.entities).toHaveLength(1);
    expect(subnets.body.entities[0].spec.cluster_reference.name).toBe('cluster-01');
  });
});
