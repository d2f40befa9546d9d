// Every operation of the element-level API (v0.8 and v2.0), through the generated client,
// against the Prism mock; the v0.8 upload also against a local server that checks the bytes.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createElementClient } from '@svc/client';
import { describe, expect, it } from 'vitest';
import { clientOptions, contract, coverageTest, errorStatusSuite } from './contract.js';

const IMAGE = '0e09cf83-ac68-4f28-af70-6df9a43df4f0';
const CONTAINER = '3c8d2b41-7e5f-4a96-b0c1-d2e3f4a5b6c7';
const TASK = '5a0bd1c7-2f4e-4b9a-8c3d-6e7f8091a2b3';

const c = contract('element', (baseUrl) => createElementClient({ baseUrl, ...clientOptions }));
const client = () => c.client();

// As in the central suite: what the client sends and reads, not the values of Prism's examples.
describe('element v0.8: success responses', () => {
  it('images_create_v0_8: POST /v0.8/images sends the record and reads its task', async () => {
    const op = c.cover('images_create_v0_8');
    const { data, response } = await client().POST('/v0.8/images', {
      body: { name: 'ubuntu.iso', imageType: 'ISO_IMAGE', annotation: 'Ubuntu' },
    });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'POST', url: '/v0.8/images', contentType: 'application/json' });
    c.expectConforms(op, 200, data);
  });

  it('images_list_v0_8: GET /v0.8/images reads the list', async () => {
    const op = c.cover('images_list_v0_8');
    const { data, response } = await client().GET('/v0.8/images');
    expect(response.status).toBe(200);
    c.expectSent({ method: 'GET', url: '/v0.8/images' });
    c.expectConforms(op, 200, data);
  });

  it('images_get_v0_8: GET /v0.8/images/{uuid} fills the path parameter', async () => {
    const op = c.cover('images_get_v0_8');
    const { data, response } = await client().GET('/v0.8/images/{uuid}', { params: { path: { uuid: IMAGE } } });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'GET', url: `/v0.8/images/${IMAGE}` });
    c.expectConforms(op, 200, data);
  });

  it('images_upload_v0_8: PUT /v0.8/images/{uuid}/upload sends the bytes and the container header', async () => {
    const op = c.cover('images_upload_v0_8');
    const { data, response } = await client().PUT('/v0.8/images/{uuid}/upload', {
      params: { path: { uuid: IMAGE }, header: { 'X-Svc-Destination-Container': CONTAINER } },
      body: new Uint8Array([1, 2, 3, 4]),
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'PUT', url: `/v0.8/images/${IMAGE}/upload`, contentType: 'application/octet-stream' });
    c.expectConforms(op, 200, data);
  });

  it('images_upload_v0_8: takes the container by its numeric id (the number after :: in its v2.0 id)', async () => {
    const { response } = await client().PUT('/v0.8/images/{uuid}/upload', {
      params: { path: { uuid: IMAGE }, header: { 'X-Svc-Destination-Container': '1234' } },
      body: new Uint8Array([1, 2, 3, 4]),
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'PUT', url: `/v0.8/images/${IMAGE}/upload`, contentType: 'application/octet-stream' });
  });

  it('images_delete_v0_8: DELETE /v0.8/images/{uuid} reads the task', async () => {
    const op = c.cover('images_delete_v0_8');
    const { data, response } = await client().DELETE('/v0.8/images/{uuid}', { params: { path: { uuid: IMAGE } } });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'DELETE', url: `/v0.8/images/${IMAGE}` });
    c.expectConforms(op, 200, data);
  });

  it('tasks_get_v0_8: GET /v0.8/tasks/{uuid} sends the query parameter', async () => {
    const op = c.cover('tasks_get_v0_8');
    const { data, response } = await client().GET('/v0.8/tasks/{uuid}', {
      params: { path: { uuid: TASK }, query: { includeEntityNames: true } },
    });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'GET', url: `/v0.8/tasks/${TASK}?includeEntityNames=true` });
    c.expectConforms(op, 200, data);
  });

  it('tasks_poll_v0_8: GET /v0.8/tasks/{uuid}/poll sends the wait in timeoutseconds', async () => {
    const op = c.cover('tasks_poll_v0_8');
    const { data, response } = await client().GET('/v0.8/tasks/{uuid}/poll', {
      params: { path: { uuid: TASK }, query: { timeoutseconds: 30 } },
    });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'GET', url: `/v0.8/tasks/${TASK}/poll?timeoutseconds=30` });
    c.expectConforms(op, 200, data);
  });

  it('tasks_list_v0_8: GET /v0.8/tasks sends the filters as repeated query parameters', async () => {
    const op = c.cover('tasks_list_v0_8');
    const { data, response } = await client().GET('/v0.8/tasks', {
      params: { query: { entityTypes: ['Image'], entityUuids: [IMAGE, TASK], includeCompleted: true, count: 20 } },
    });
    expect(response.status).toBe(200);
    c.expectSent({
      method: 'GET',
      url: `/v0.8/tasks?entityTypes=Image&entityUuids=${IMAGE}&entityUuids=${TASK}&includeCompleted=true&count=20`,
    });
    c.expectConforms(op, 200, data);
  });
});

describe('element v2.0: success responses', () => {
  it('images_list_v2_0: GET /v2.0/images reads the list', async () => {
    const op = c.cover('images_list_v2_0');
    const { data, response } = await client().GET('/v2.0/images');
    expect(response.status).toBe(200);
    c.expectConforms(op, 200, data);
  });

  it('images_create_v2_0: POST /v2.0/images sends the import spec and reads the 201 task', async () => {
    const op = c.cover('images_create_v2_0');
    const { data, response } = await client().POST('/v2.0/images', {
      body: {
        name: 'CentOS',
        image_type: 'DISK_IMAGE',
        image_import_spec: { storage_container_uuid: CONTAINER, url: 'https://cloud.centos.org/c.qcow2' },
      },
    });
    expect(response.status).toBe(201);
    c.expectSent({ method: 'POST', url: '/v2.0/images', contentType: 'application/json' });
    c.expectConforms(op, 201, data);
  });

  it('images_get_v2_0: GET /v2.0/images/{uuid} fills the path parameter', async () => {
    const op = c.cover('images_get_v2_0');
    const { data, response } = await client().GET('/v2.0/images/{uuid}', { params: { path: { uuid: IMAGE } } });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'GET', url: `/v2.0/images/${IMAGE}` });
    c.expectConforms(op, 200, data);
  });

  it('images_update_v2_0: PUT /v2.0/images/{uuid} sends the changed members and reads the task', async () => {
    const op = c.cover('images_update_v2_0');
    const { data, response } = await client().PUT('/v2.0/images/{uuid}', {
      params: { path: { uuid: IMAGE } },
      body: { name: 'ubuntu-22.04.4', annotation: 'installer' },
    });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'PUT', url: `/v2.0/images/${IMAGE}`, contentType: 'application/json' });
    c.expectConforms(op, 200, data);
  });

  it('images_delete_v2_0: DELETE /v2.0/images/{uuid} reads the task', async () => {
    const op = c.cover('images_delete_v2_0');
    const { data, response } = await client().DELETE('/v2.0/images/{uuid}', { params: { path: { uuid: IMAGE } } });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'DELETE', url: `/v2.0/images/${IMAGE}` });
    c.expectConforms(op, 200, data);
  });

  it('storage_containers_list_v2_0: GET /v2.0/storage_containers sends the paging query', async () => {
    const op = c.cover('storage_containers_list_v2_0');
    const { data, response } = await client().GET('/v2.0/storage_containers', {
      params: { query: { count: 2, page: 1 } },
    });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'GET', url: '/v2.0/storage_containers?count=2&page=1' });
    c.expectConforms(op, 200, data);
  });

  it('storage_containers_get_v2_0: GET /v2.0/storage_containers/{uuid} fills the path parameter', async () => {
    const op = c.cover('storage_containers_get_v2_0');
    const { data, response } = await client().GET('/v2.0/storage_containers/{uuid}', {
      params: { path: { uuid: CONTAINER } },
    });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'GET', url: `/v2.0/storage_containers/${CONTAINER}` });
    c.expectConforms(op, 200, data);
  });

  it('tasks_get_v2_0: GET /v2.0/tasks/{uuid} reads the task', async () => {
    const op = c.cover('tasks_get_v2_0');
    const { data, response } = await client().GET('/v2.0/tasks/{uuid}', { params: { path: { uuid: TASK } } });
    expect(response.status).toBe(200);
    c.expectConforms(op, 200, data);
  });

  it('tasks_poll_v2_0: POST /v2.0/tasks/poll sends the task list and reads completed_tasks_info', async () => {
    const op = c.cover('tasks_poll_v2_0');
    const { data, response } = await client().POST('/v2.0/tasks/poll', {
      body: { completed_tasks: [TASK], timeout_interval: 10 },
    });
    expect(response.status).toBe(200);
    c.expectConforms(op, 200, data);
  });

  it('tasks_list_v2_0: POST /v2.0/tasks/list sends the filters and reads the tasks', async () => {
    const op = c.cover('tasks_list_v2_0');
    const { data, response } = await client().POST('/v2.0/tasks/list', {
      body: {
        entity_list: [{ entity_id: IMAGE, entity_type: 'Image' }],
        operation_type_list: ['ImageCreate'],
        include_completed: true,
        count: 20,
      },
    });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'POST', url: '/v2.0/tasks/list', contentType: 'application/json' });
    c.expectConforms(op, 200, data);
  });

  coverageTest(c);
});

errorStatusSuite('element', c);

describe('element: workflow methods against the mock', () => {
  it('resolveContainer finds the UUID of a listed container by its name', async () => {
    const { data } = await client().GET('/v2.0/storage_containers');
    const listed = data!.entities![0]!;
    expect(await client().resolveContainer(listed.name!)).toBe(listed.storage_container_uuid);
    c.expectSent({ method: 'GET', url: '/v2.0/storage_containers' });
  });
});

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
      const upload = createElementClient({
        baseUrl: `http://127.0.0.1:${port}/api/svc`,
        username: 'admin',
        password: 'upload-secret',
      });
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
      expect(received.req?.headers.authorization).toBe(
        `Basic ${Buffer.from('admin:upload-secret').toString('base64')}`,
      );
      expect(received.length).toBe(bytes.length);
      expect(received.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
