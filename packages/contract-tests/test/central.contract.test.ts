// Every operation of the central API, through the generated client, against the Prism mock.
// Path parameters are any UUID: Prism answers its example whatever the UUID.

import { createCentralClient } from '@svc/client';
import { describe, expect, inject, it } from 'vitest';
import { clientOptions, contract, coverageTest, errorStatusSuite } from './contract.js';

const IMAGE = '0e09cf83-ac68-4f28-af70-6df9a43df4f0';
const TASK = '5a0bd1c7-2f4e-4b9a-8c3d-6e7f8091a2b3';
const CLUSTER = '0005ce15-3f3c-a8ce-3802-043f72bf18a6';
const SUBNET = 'a3f7c2e1-6b4d-4d8a-9e15-7c2b8f0d3a91';

const c = contract('central', (baseUrl) => createCentralClient({ baseUrl, ...clientOptions }));
const client = () => c.client();
const cover = (operationId: string) => c.cover(operationId);

// Each test: the client sends the call the spec describes (Prism finds no violation, checked after
// every test with the credentials), builds the URL and content type right, and reads the answer
// the spec declares. Values of Prism's answers are the spec's own examples, so they are not asserted.
describe('central: success responses', () => {
  it('images_create: POST /images sends the intent and reads the 202 image', async () => {
    const op = cover('images_create');
    const { data, response } = await client().POST('/images', {
      body: {
        api_version: '3.1.0',
        metadata: { kind: 'image' },
        spec: {
          name: 'CentOS',
          resources: {
            image_type: 'DISK_IMAGE',
            architecture: 'X86_64',
            source_uri: 'https://cloud.centos.org/c.qcow2',
          },
        },
      },
    });
    expect(response.status).toBe(202);
    c.expectSent({ method: 'POST', url: '/images', contentType: 'application/json' });
    c.expectConforms(op, 202, data);
  });

  it('images_list: POST /images/list sends the page request and reads the list', async () => {
    const op = cover('images_list');
    const { data, response } = await client().POST('/images/list', { body: { kind: 'image', offset: 0, length: 20 } });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'POST', url: '/images/list', contentType: 'application/json' });
    c.expectConforms(op, 200, data);
  });

  it('images_list: accepts the empty body real clients send', async () => {
    const { response } = await client().POST('/images/list', { body: {} });
    expect(response.status).toBe(200);
  });

  it('images_get: GET /images/{uuid} fills the path parameter', async () => {
    const op = cover('images_get');
    const { data, response } = await client().GET('/images/{uuid}', { params: { path: { uuid: IMAGE } } });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'GET', url: `/images/${IMAGE}` });
    c.expectConforms(op, 200, data);
  });

  it('images_update: PUT /images/{uuid} sends the new spec and reads the 202 answer', async () => {
    const op = cover('images_update');
    const { data, response } = await client().PUT('/images/{uuid}', {
      params: { path: { uuid: IMAGE } },
      body: {
        api_version: '3.1.0',
        metadata: { kind: 'image', uuid: IMAGE, spec_version: 1 },
        spec: { name: 'CentOS 7.9', resources: { image_type: 'DISK_IMAGE' } },
      },
    });
    expect(response.status).toBe(202);
    c.expectSent({ method: 'PUT', url: `/images/${IMAGE}`, contentType: 'application/json' });
    c.expectConforms(op, 202, data);
  });

  it('images_delete: DELETE /images/{uuid} reads the 202 answer', async () => {
    const op = cover('images_delete');
    const { data, response } = await client().DELETE('/images/{uuid}', { params: { path: { uuid: IMAGE } } });
    expect(response.status).toBe(202);
    c.expectSent({ method: 'DELETE', url: `/images/${IMAGE}` });
    c.expectConforms(op, 202, data);
  });

  it('images_upload_file: PUT /images/{uuid}/file sends raw bytes and the checksum headers', async () => {
    cover('images_upload_file');
    const bytes = new Uint8Array(4096).map((_, i) => (i * 7) % 256);
    const { response } = await client().PUT('/images/{uuid}/file', {
      params: { path: { uuid: IMAGE }, header: { 'X-Svc-Checksum-Type': 'SHA_256', 'X-Svc-Checksum-Bytes': 'ab12' } },
      body: bytes,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'PUT', url: `/images/${IMAGE}/file`, contentType: 'application/octet-stream' });
  });

  it('images_download_file: GET /images/{uuid}/file reads the bytes as an ArrayBuffer', async () => {
    cover('images_download_file');
    const { data, response } = await client().GET('/images/{uuid}/file', {
      params: { path: { uuid: IMAGE } },
      parseAs: 'arrayBuffer',
      headers: { Accept: 'application/octet-stream' },
    });
    expect(response.status).toBe(200);
    expect(data).toBeInstanceOf(ArrayBuffer);
  });

  it('tasks_get: GET /tasks/{uuid} fills the path parameter', async () => {
    const op = cover('tasks_get');
    const { data, response } = await client().GET('/tasks/{uuid}', { params: { path: { uuid: TASK } } });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'GET', url: `/tasks/${TASK}` });
    c.expectConforms(op, 200, data);
  });

  it('tasks_list: POST /tasks/list sends the page request and reads the list', async () => {
    const op = cover('tasks_list');
    const { data, response } = await client().POST('/tasks/list', { body: { kind: 'task', offset: 0, length: 20 } });
    expect(response.status).toBe(200);
    c.expectConforms(op, 200, data);
  });

  it('tasks_poll: POST /tasks/poll sends the task list and reads the changed tasks', async () => {
    const op = cover('tasks_poll');
    const { data, response } = await client().POST('/tasks/poll', {
      body: { poll_timeout_seconds: 10, task_uuid_list: [TASK] },
    });
    expect(response.status).toBe(200);
    c.expectConforms(op, 200, data);
  });

  it('tasks_abort: POST /tasks/{uuid}/abort sends no body and reads the empty 200', async () => {
    cover('tasks_abort');
    const { data, response } = await client().POST('/tasks/{uuid}/abort', { params: { path: { uuid: TASK } } });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'POST', url: `/tasks/${TASK}/abort`, contentType: null });
    expect(data).toBeUndefined();
  });

  it('services_oss_enable: POST /services/oss sends the state and reads the 202 task', async () => {
    const op = cover('services_oss_enable');
    const { data, response } = await client().POST('/services/oss', { body: { state: 'ENABLE' } });
    expect(response.status).toBe(202);
    c.expectSent({ method: 'POST', url: '/services/oss', contentType: 'application/json' });
    c.expectConforms(op, 202, data);
  });

  it('services_get_status: GET /services/{service_name}/status fills the service name', async () => {
    const op = cover('services_get_status');
    const { data, response } = await client().GET('/services/{service_name}/status', {
      params: { path: { service_name: 'oss' } },
    });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'GET', url: '/services/oss/status' });
    c.expectConforms(op, 200, data);
  });

  it('clusters_list: POST /clusters/list reads the list', async () => {
    const op = cover('clusters_list');
    const { data, response } = await client().POST('/clusters/list', {
      body: { kind: 'cluster', offset: 0, length: 20 },
    });
    expect(response.status).toBe(200);
    c.expectConforms(op, 200, data);
  });

  it('subnets_list: POST /subnets/list reads the list', async () => {
    const op = cover('subnets_list');
    const { data, response } = await client().POST('/subnets/list', {
      body: { kind: 'subnet', offset: 0, length: 20 },
    });
    expect(response.status).toBe(200);
    c.expectConforms(op, 200, data);
  });

  it('clusters_get: GET /clusters/{uuid} fills the path parameter and reads the cluster', async () => {
    const op = cover('clusters_get');
    const { data, response } = await client().GET('/clusters/{uuid}', { params: { path: { uuid: CLUSTER } } });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'GET', url: `/clusters/${CLUSTER}` });
    c.expectConforms(op, 200, data);
  });

  it('subnets_get: GET /subnets/{uuid} fills the path parameter and reads the subnet', async () => {
    const op = cover('subnets_get');
    const { data, response } = await client().GET('/subnets/{uuid}', { params: { path: { uuid: SUBNET } } });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'GET', url: `/subnets/${SUBNET}` });
    c.expectConforms(op, 200, data);
  });

  it('images_migrate: POST /images/migrate sends the cluster and reads the 202 task', async () => {
    const op = cover('images_migrate');
    const { data, response } = await client().POST('/images/migrate', {
      body: { image_reference_list: [], cluster_reference: { kind: 'cluster', uuid: CLUSTER, name: 'string' } },
    });
    expect(response.status).toBe(202);
    c.expectSent({ method: 'POST', url: '/images/migrate', contentType: 'application/json' });
    c.expectConforms(op, 202, data);
  });

  it('batch_create: POST /batch sends the sub-requests and reads their answers', async () => {
    const op = cover('batch_create');
    const { data, response } = await client().POST('/batch', {
      body: {
        action_on_failure: 'CONTINUE',
        execution_order: 'SEQUENTIAL',
        api_version: '3.0',
        api_request_list: [
          {
            operation: 'POST',
            path_and_params: '/api/nutanix/v3/images',
            body: { metadata: { kind: 'image' }, spec: { name: 'x', resources: { image_type: 'DISK_IMAGE' } } },
          },
        ],
      },
    });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'POST', url: '/batch', contentType: 'application/json' });
    c.expectConforms(op, 200, data);
  });

  it('list bodies: the mock takes null sort_order and sort_attribute and an empty filter', async () => {
    const { response } = await client().POST('/subnets/list', {
      body: { kind: 'subnet', offset: 0, filter: '', length: 500, sort_order: null, sort_attribute: null },
    });
    expect(response.status).toBe(200);
  });

  coverageTest(c);
});

errorStatusSuite('central', c);

// The workflow methods that end against a mock (waiting for a task would not: Prism's task stays as
// its example says): their requests pass Prism's validation like the plain calls.
describe('central: workflow methods against the mock', () => {
  it('paginate yields the entities of the pages it asks for, first page first', async () => {
    const { data: first } = await client().POST('/images/list', { body: { kind: 'image', offset: 0, length: 20 } });
    c.exchanges.length = 0;
    const items = [];
    for await (const image of client().paginate('/images/list', { kind: 'image' }, { pageSize: 20 })) items.push(image);
    expect(items.slice(0, first!.entities!.length)).toEqual(first!.entities);
    expect(c.exchanges.map((e) => `${e.method} ${e.url} ${e.contentType}`)).toEqual(
      c.exchanges.map(() => 'POST /images/list application/json'),
    );
  });

  it('uploadImageFile streams the bytes as the upload the spec describes', async () => {
    await client().uploadImageFile(IMAGE, new Uint8Array(4096).fill(7));
    c.expectSent({ method: 'PUT', url: `/images/${IMAGE}/file`, contentType: 'application/octet-stream' });
  });
});

describe('central: the mock enforces the spec', () => {
  it('refuses a body that breaks the schema with 422 and names the field', async () => {
    const { response, error } = await client().POST('/images', {
      // @ts-expect-error CD_IMAGE is not an image type
      body: { metadata: { kind: 'image' }, spec: { name: 'x', resources: { image_type: 'CD_IMAGE' } } },
    });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ state: 'ERROR' });
    const violations = c.exchanges.pop()?.violations ?? '';
    expect(violations).toMatch(/image_type/);
  });

  it('refuses an object store service state other than ENABLE, naming the field', async () => {
    // @ts-expect-error DISABLE is not a state this call takes
    const { response } = await client().POST('/services/oss', { body: { state: 'DISABLE' } });
    expect(response.status).toBe(422);
    expect(c.exchanges.pop()?.violations ?? '').toMatch(/state/);
  });

  it('answers 401 without credentials', async () => {
    const response = await fetch(`${inject('mocks').central}/images/list`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(401);
  });
});
