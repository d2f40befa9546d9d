// Every operation of the element-level API (v0.8 and v2.0), through the generated client,
// against the Prism mock; the v0.8 upload also against a local server that checks the bytes.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createElementClient } from '@svc/client';
import { contract, coverageTest, errorStatusSuite } from './contract.js';

const IMAGE = '5c1a7d3e-9b2f-4e6a-8d41-2f0c7b9e3a15';
const CONTAINER = '66316fa9-e2d1-4ed8-a38b-39ac982db28f';
const TASK = 'a3f1c2d4-5e6b-4c7d-8e9f-0a1b2c3d4e5f';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const c = contract('element', (baseUrl) => createElementClient({ baseUrl, username: 'admin', password: 'contract-secret' }));
const client = () => c.client();

describe('element v0.8: success responses', () => {
  it('images_create_v0_8: POST /v0.8/images creates the record and answers its task', async () => {
    const op = c.cover('post', '/v0.8/images');
    const { data, response } = await client().POST('/v0.8/images', { body: { name: 'ubuntu.iso', imageType: 'ISO_IMAGE', annotation: 'Ubuntu' } });
    expect(response.status).toBe(200);
    expect(data?.taskUuid).toMatch(UUID);
    c.expectConforms(op, 200, data);
  });

  it('images_list_v0_8: GET /v0.8/images lists images with imageState, INACTIVE ones awaiting upload', async () => {
    const op = c.cover('get', '/v0.8/images');
    const { data, response } = await client().GET('/v0.8/images');
    expect(response.status).toBe(200);
    const states = (data?.entities ?? []).map((e) => e.imageState);
    expect(states).toContain('INACTIVE');
    c.expectConforms(op, 200, data);
  });

  it('images_get_v0_8: GET /v0.8/images/{uuid} answers the image', async () => {
    const op = c.cover('get', '/v0.8/images/{uuid}');
    const { data, response } = await client().GET('/v0.8/images/{uuid}', { params: { path: { uuid: IMAGE } } });
    expect(response.status).toBe(200);
    expect(data?.uuid).toMatch(UUID);
    expect(['INACTIVE', 'ACTIVE']).toContain(data?.imageState);
    c.expectConforms(op, 200, data);
  });

  it('images_upload_v0_8: PUT /v0.8/images/{uuid}/upload takes the bytes and the container header', async () => {
    const op = c.cover('put', '/v0.8/images/{uuid}/upload');
    const { data, response } = await client().PUT('/v0.8/images/{uuid}/upload', {
      params: { path: { uuid: IMAGE }, header: { 'X-Svc-Destination-Container': CONTAINER } },
      body: new Uint8Array([1, 2, 3, 4]),
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(response.status).toBe(200);
    expect(data?.taskUuid).toMatch(UUID);
    c.expectConforms(op, 200, data);
  });

  it('images_delete_v0_8: DELETE /v0.8/images/{uuid} answers a task', async () => {
    const op = c.cover('delete', '/v0.8/images/{uuid}');
    const { data, response } = await client().DELETE('/v0.8/images/{uuid}', { params: { path: { uuid: IMAGE } } });
    expect(response.status).toBe(200);
    expect(data?.taskUuid).toMatch(UUID);
    c.expectConforms(op, 200, data);
  });

  it('tasks_get_v0_8: GET /v0.8/tasks/{uuid} answers progressStatus and entityList', async () => {
    const op = c.cover('get', '/v0.8/tasks/{uuid}');
    const { data, response } = await client().GET('/v0.8/tasks/{uuid}', { params: { path: { uuid: TASK }, query: { includeEntityNames: true } } });
    expect(response.status).toBe(200);
    expect(['Queued', 'Running', 'Succeeded', 'Failed', 'Aborted']).toContain(data?.progressStatus);
    expect(data?.entityList?.[0]?.uuid).toMatch(UUID);
    c.expectConforms(op, 200, data);
  });

  it('tasks_poll_v0_8: GET /v0.8/tasks/{uuid}/poll answers the final task in taskInfo', async () => {
    const op = c.cover('get', '/v0.8/tasks/{uuid}/poll');
    const { data, response } = await client().GET('/v0.8/tasks/{uuid}/poll', { params: { path: { uuid: TASK }, query: { timeoutseconds: 30 } } });
    expect(response.status).toBe(200);
    expect(data?.taskInfo?.uuid).toBe(TASK);
    expect(data?.taskInfo?.progressStatus).toBe('Succeeded');
    c.expectConforms(op, 200, data);
  });

  it('tasks_poll_v0_8: a wait that ends first answers timedOut without taskInfo', async () => {
    const op = c.cover('get', '/v0.8/tasks/{uuid}/poll');
    const { data } = await client().GET('/v0.8/tasks/{uuid}/poll', { params: { path: { uuid: TASK }, query: { timeoutseconds: 1 } }, headers: { Prefer: 'example=TaskPollTimedOutV0_8' } });
    expect(data).toEqual({ timedOut: true, isUnrecognized: false });
    c.expectConforms(op, 200, data);
  });

  it('tasks_list_v0_8: GET /v0.8/tasks lists the tasks of an entity', async () => {
    const op = c.cover('get', '/v0.8/tasks');
    const { data, response } = await client().GET('/v0.8/tasks', {
      params: { query: { entityTypes: ['Image'], entityUuids: [IMAGE], includeCompleted: true, count: 20 } },
    });
    expect(response.status).toBe(200);
    expect(data?.entities.length).toBeGreaterThan(0);
    for (const task of data?.entities ?? []) expect(task.entityList?.some((e) => e.uuid === IMAGE)).toBe(true);
    c.expectConforms(op, 200, data);
  });
});

describe('element v2.0: success responses', () => {
  it('images_list_v2_0: GET /v2.0/images lists images with image_state', async () => {
    const op = c.cover('get', '/v2.0/images');
    const { data, response } = await client().GET('/v2.0/images');
    expect(response.status).toBe(200);
    expect(data?.entities?.length).toBeGreaterThan(0);
    c.expectConforms(op, 200, data);
  });

  it('images_create_v2_0: POST /v2.0/images answers 201 with a task', async () => {
    const op = c.cover('post', '/v2.0/images');
    const { data, response } = await client().POST('/v2.0/images', {
      body: { name: 'CentOS', image_type: 'DISK_IMAGE', image_import_spec: { storage_container_uuid: CONTAINER, url: 'https://cloud.centos.org/c.qcow2' } },
    });
    expect(response.status).toBe(201);
    expect(data?.task_uuid).toMatch(UUID);
    c.expectConforms(op, 201, data);
  });

  it('images_get_v2_0: GET /v2.0/images/{uuid} answers one image with image_state', async () => {
    const op = c.cover('get', '/v2.0/images/{uuid}');
    const { data, response } = await client().GET('/v2.0/images/{uuid}', { params: { path: { uuid: IMAGE } } });
    expect(response.status).toBe(200);
    expect(data?.uuid).toBe(IMAGE);
    expect(data?.image_state).toBe('ACTIVE');
    c.expectConforms(op, 200, data);
  });

  it('images_update_v2_0: PUT /v2.0/images/{uuid} answers the update task', async () => {
    const op = c.cover('put', '/v2.0/images/{uuid}');
    const { data, response } = await client().PUT('/v2.0/images/{uuid}', { params: { path: { uuid: IMAGE } }, body: { name: 'ubuntu-22.04.4', annotation: 'installer' } });
    expect(response.status).toBe(200);
    expect(data?.task_uuid).toMatch(UUID);
    c.expectConforms(op, 200, data);
  });

  it('images_delete_v2_0: DELETE /v2.0/images/{uuid} answers a task', async () => {
    const op = c.cover('delete', '/v2.0/images/{uuid}');
    const { data, response } = await client().DELETE('/v2.0/images/{uuid}', { params: { path: { uuid: IMAGE } } });
    expect(response.status).toBe(200);
    expect(data?.task_uuid).toMatch(UUID);
    c.expectConforms(op, 200, data);
  });

  it('storage_containers_list_v2_0: GET /v2.0/storage_containers gives the container UUIDs', async () => {
    const op = c.cover('get', '/v2.0/storage_containers');
    const { data, response } = await client().GET('/v2.0/storage_containers', { params: { query: { count: 2, page: 1 } } });
    expect(response.status).toBe(200);
    for (const container of data?.entities ?? []) expect(container.storage_container_uuid).toMatch(UUID);
    c.expectConforms(op, 200, data);
  });

  it('storage_containers_get_v2_0: GET /v2.0/storage_containers/{uuid} answers one container', async () => {
    const op = c.cover('get', '/v2.0/storage_containers/{uuid}');
    const { data, response } = await client().GET('/v2.0/storage_containers/{uuid}', { params: { path: { uuid: CONTAINER } } });
    expect(response.status).toBe(200);
    expect(data?.storage_container_uuid).toMatch(UUID);
    c.expectConforms(op, 200, data);
  });

  it('tasks_get_v2_0: GET /v2.0/tasks/{uuid} answers the task', async () => {
    const op = c.cover('get', '/v2.0/tasks/{uuid}');
    const { data, response } = await client().GET('/v2.0/tasks/{uuid}', { params: { path: { uuid: TASK } } });
    expect(response.status).toBe(200);
    expect(data?.progress_status).toBeTruthy();
    c.expectConforms(op, 200, data);
  });

  it('tasks_poll_v2_0: POST /v2.0/tasks/poll answers completed_tasks_info', async () => {
    const op = c.cover('post', '/v2.0/tasks/poll');
    const { data, response } = await client().POST('/v2.0/tasks/poll', { body: { completed_tasks: [TASK], timeout_interval: 10 } });
    expect(response.status).toBe(200);
    expect(Array.isArray(data?.completed_tasks_info)).toBe(true);
    c.expectConforms(op, 200, data);
  });

  it('tasks_list_v2_0: POST /v2.0/tasks/list answers the matching tasks', async () => {
    const op = c.cover('post', '/v2.0/tasks/list');
    const { data, response } = await client().POST('/v2.0/tasks/list', {
      body: { entity_list: [{ entity_id: '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d', entity_type: 'Image' }], operation_type_list: ['ImageCreate'], include_completed: true, count: 20 },
    });
    expect(response.status).toBe(200);
    expect(data?.entities[0]?.progress_status).toBe('Succeeded');
    c.expectConforms(op, 200, data);
  });

  it('tasks_list_v2_0: is marked read-only (x-svc-idempotent) so clients may repeat it', () => {
    expect(c.cover('post', '/v2.0/tasks/list').op['x-svc-idempotent']).toBe(true);
  });

  coverageTest(c);
});

errorStatusSuite('element', c);

describe('element: the v0.8 upload on the wire', () => {
  it('streams the bytes intact with method, path, content type and container header', async () => {
    const received: { req?: IncomingMessage; sha256?: string; length?: number } = {};
    const server = createServer((req, res) => {
      const hash = createHash('sha256');
      let length = 0;
      req.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        length += chunk.length;
      });
      req.on('end', () => {
        Object.assign(received, { req, sha256: hash.digest('hex'), length });
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ taskUuid: TASK }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const upload = createElementClient({ baseUrl: `http://127.0.0.1:${port}/api/svc`, username: 'admin', password: 'upload-secret' });
      const bytes = randomBytes(3 * 1024 * 1024 + 17);
      const { data, response } = await upload.PUT('/v0.8/images/{uuid}/upload', {
        params: { path: { uuid: IMAGE }, header: { 'X-Svc-Destination-Container': CONTAINER } },
        body: new Uint8Array(bytes),
        headers: { 'Content-Type': 'application/octet-stream' },
      });
      expect(response.status).toBe(200);
      expect(data?.taskUuid).toBe(TASK);
      expect(received.req?.method).toBe('PUT');
      expect(received.req?.url).toBe(`/api/svc/v0.8/images/${IMAGE}/upload`);
      expect(received.req?.headers['content-type']).toBe('application/octet-stream');
      expect(received.req?.headers['x-svc-destination-container']).toBe(CONTAINER);
      expect(received.req?.headers.authorization).toBe(`Basic ${Buffer.from('admin:upload-secret').toString('base64')}`);
      expect(received.length).toBe(bytes.length);
      expect(received.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
