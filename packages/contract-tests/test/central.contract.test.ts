// Every operation of the central API, through the generated client, against the Prism mock.
import { describe, expect, inject, it } from 'vitest';
import { createCentralClient } from '@svc/client';
import { contract, coverageTest, errorStatusSuite } from './contract.js';

const IMAGE = 'c2d4b1f5-8a3e-4c6b-9f1d-2e7a5b3c9d10';
const TASK = '7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const c = contract('central', (baseUrl) => createCentralClient({ baseUrl, username: 'admin', password: 'contract-secret' }));
const client = () => c.client();
const cover = c.cover;
const expectConforms = (method: string, path: string, status: number, body: unknown) => c.expectConforms(cover(method, path), status, body);

describe('central: success responses', () => {
  it('images_create: POST /images answers 202 with a PENDING image and its task', async () => {
    const op = cover('post', '/images');
    const { data, response } = await client().POST('/images', {
      body: { api_version: '3.1.0', metadata: { kind: 'image' }, spec: { name: 'CentOS', resources: { image_type: 'DISK_IMAGE', architecture: 'X86_64', source_uri: 'https://cloud.centos.org/c.qcow2' } } },
    });
    expect(response.status).toBe(202);
    expect(data?.status?.state).toBe('PENDING');
    expect(data?.status?.execution_context?.task_uuid).toMatch(UUID);
    expect(data?.api_version).toBe('3.1');
    expectConforms(op.method, op.path, 202, data);
  });

  it('images_list: POST /images/list answers 200 with COMPLETE images, sizes and retrieval URIs', async () => {
    const op = cover('post', '/images/list');
    const { data, response } = await client().POST('/images/list', { body: { kind: 'image', offset: 0, length: 20 } });
    expect(response.status).toBe(200);
    expect(data?.metadata.total_matches).toBeGreaterThanOrEqual(data?.entities?.length ?? 0);
    expect(data?.entities?.length).toBeGreaterThan(0);
    for (const image of data?.entities ?? []) {
      expect(image.status?.state).toBe('COMPLETE');
      expect(image.status?.resources?.size_bytes).toBeGreaterThan(0);
      for (const uri of image.status?.resources?.retrieval_uri_list ?? []) expect(uri).toMatch(new RegExp(`images/${image.metadata.uuid}/file$`));
    }
    expectConforms(op.method, op.path, 200, data);
  });

  it('images_list: accepts the empty body real clients send', async () => {
    const { response } = await client().POST('/images/list', { body: {} });
    expect(response.status).toBe(200);
  });

  it('images_get: GET /images/{uuid} answers 200 with a COMPLETE image', async () => {
    const op = cover('get', '/images/{uuid}');
    const { data, response } = await client().GET('/images/{uuid}', { params: { path: { uuid: IMAGE } } });
    expect(response.status).toBe(200);
    expect(data?.metadata.uuid).toBe(IMAGE);
    expect(data?.status?.state).toBe('COMPLETE');
    expectConforms(op.method, op.path, 200, data);
  });

  it('images_update: PUT /images/{uuid} answers 202 with a PENDING update', async () => {
    const op = cover('put', '/images/{uuid}');
    const { data, response } = await client().PUT('/images/{uuid}', {
      params: { path: { uuid: IMAGE } },
      body: { api_version: '3.1.0', metadata: { kind: 'image', uuid: IMAGE, spec_version: 1 }, spec: { name: 'CentOS 7.9', resources: { image_type: 'DISK_IMAGE' } } },
    });
    expect(response.status).toBe(202);
    expect(data?.status?.state).toBe('PENDING');
    expectConforms(op.method, op.path, 202, data);
  });

  it('images_delete: DELETE /images/{uuid} answers 202 DELETE_PENDING with an empty spec and a task', async () => {
    const op = cover('delete', '/images/{uuid}');
    const { data, response } = await client().DELETE('/images/{uuid}', { params: { path: { uuid: IMAGE } } });
    expect(response.status).toBe(202);
    expect(data?.status.state).toBe('DELETE_PENDING');
    expect(data?.spec).toBe('');
    expect(data?.status.execution_context?.task_uuid).toMatch(UUID);
    expectConforms(op.method, op.path, 202, data);
  });

  it('images_upload_file: PUT /images/{uuid}/file takes raw bytes and checksum headers', async () => {
    cover('put', '/images/{uuid}/file');
    const bytes = new Uint8Array(4096).map((_, i) => (i * 7) % 256);
    const { response } = await client().PUT('/images/{uuid}/file', {
      params: { path: { uuid: IMAGE }, header: { 'X-Svc-Checksum-Type': 'SHA_256', 'X-Svc-Checksum-Bytes': 'ab12' } },
      body: bytes,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(response.status).toBe(200);
  });

  it('images_download_file: GET /images/{uuid}/file answers 200 with bytes', async () => {
    cover('get', '/images/{uuid}/file');
    const { data, response } = await client().GET('/images/{uuid}/file', {
      params: { path: { uuid: IMAGE } },
      parseAs: 'arrayBuffer',
      headers: { Accept: 'application/octet-stream' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/octet-stream/);
    expect((data as ArrayBuffer).byteLength).toBeGreaterThan(0);
  });

  it('tasks_get: GET /tasks/{uuid} answers 200 with a RUNNING task at 0 %', async () => {
    const op = cover('get', '/tasks/{uuid}');
    const { data, response } = await client().GET('/tasks/{uuid}', { params: { path: { uuid: TASK } } });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ uuid: TASK, status: 'RUNNING', percentage_complete: 0, operation_type: 'create_image_intentful' });
    expect(Number.isInteger(data?.creation_time_usecs)).toBe(true);
    expectConforms(op.method, op.path, 200, data);
  });

  it('tasks_get: a FAILED task carries error_code and error_detail', async () => {
    const { data } = await client().GET('/tasks/{uuid}', { params: { path: { uuid: TASK } }, headers: { Prefer: 'example=TaskFailed' } });
    expect(data?.status).toBe('FAILED');
    expect(data?.error_code).toBeTruthy();
    expect(data?.error_detail).toBeTruthy();
  });

  it('tasks_list: POST /tasks/list answers 200 with a page of tasks', async () => {
    const op = cover('post', '/tasks/list');
    const { data, response } = await client().POST('/tasks/list', { body: { kind: 'task', offset: 0, length: 20 } });
    expect(response.status).toBe(200);
    expect(data?.metadata.total_matches).toBeGreaterThanOrEqual(data?.entities.length ?? 0);
    expectConforms(op.method, op.path, 200, data);
  });

  it('tasks_poll: POST /tasks/poll answers 200 with the changed tasks', async () => {
    const op = cover('post', '/tasks/poll');
    const { data, response } = await client().POST('/tasks/poll', { body: { poll_timeout_seconds: 10, task_uuid_list: [TASK] } });
    expect(response.status).toBe(200);
    expect(typeof data?.has_poll_timed_out).toBe('boolean');
    expectConforms(op.method, op.path, 200, data);
  });

  it('tasks_abort: POST /tasks/{uuid}/abort answers 200 without a body', async () => {
    cover('post', '/tasks/{uuid}/abort');
    const { data, response } = await client().POST('/tasks/{uuid}/abort', { params: { path: { uuid: TASK } } });
    expect(response.status).toBe(200);
    expect(data).toBeUndefined();
  });

  it('tasks_get: an aborted task reads requested_status ABORTED, then status ABORTED', async () => {
    const op = cover('get', '/tasks/{uuid}');
    const aborting = await client().GET('/tasks/{uuid}', { params: { path: { uuid: TASK } }, headers: { Prefer: 'example=TaskAborting' } });
    expect(aborting.data).toMatchObject({ requested_status: 'ABORTED', status: 'RUNNING' });
    const aborted = await client().GET('/tasks/{uuid}', { params: { path: { uuid: TASK } }, headers: { Prefer: 'example=TaskAborted' } });
    expect(aborted.data).toMatchObject({ requested_status: 'ABORTED', status: 'ABORTED' });
    expectConforms(op.method, op.path, 200, aborting.data);
    expectConforms(op.method, op.path, 200, aborted.data);
  });

  it('services_oss_enable: POST /services/oss answers 202 with the enabling task', async () => {
    const op = cover('post', '/services/oss');
    const { data, response } = await client().POST('/services/oss', { body: { state: 'ENABLE' } });
    expect(response.status).toBe(202);
    expect(data?.task_uuid).toMatch(UUID);
    expectConforms(op.method, op.path, 202, data);
  });

  it('services_get_status: GET /services/{service_name}/status answers ENABLED for oss', async () => {
    const op = cover('get', '/services/{service_name}/status');
    const { data, response } = await client().GET('/services/{service_name}/status', { params: { path: { service_name: 'oss' } } });
    expect(response.status).toBe(200);
    expect(data?.service_enablement_status).toBe('ENABLED');
    expectConforms(op.method, op.path, 200, data);
  });

  it('images_get: an image under a placement policy carries file locations and the policy state', async () => {
    const op = cover('get', '/images/{uuid}');
    const { data } = await client().GET('/images/{uuid}', { params: { path: { uuid: IMAGE } }, headers: { Prefer: 'example=ImagePlaced' } });
    const resources = data?.status?.resources;
    expect(resources?.current_cluster_reference_list?.[0]?.file_location?.container_name).toBeTruthy();
    expect(resources?.image_placement_policy_state_list?.[0]).toMatchObject({ compliance_status: 'COMPLIANT', enforcement_mode: 'ENFORCING' });
    expectConforms(op.method, op.path, 200, data);
  });

  it('clusters_list: POST /clusters/list answers 200 with clusters and their UUIDs', async () => {
    const op = cover('post', '/clusters/list');
    const { data, response } = await client().POST('/clusters/list', { body: { kind: 'cluster', offset: 0, length: 20 } });
    expect(response.status).toBe(200);
    expect(data?.entities?.length).toBeGreaterThan(0);
    for (const cluster of data?.entities ?? []) expect(cluster.metadata.uuid).toMatch(UUID);
    expectConforms(op.method, op.path, 200, data);
  });

  it('subnets_list: POST /subnets/list answers 200 with subnets and their UUIDs', async () => {
    const op = cover('post', '/subnets/list');
    const { data, response } = await client().POST('/subnets/list', { body: { kind: 'subnet', offset: 0, length: 20 } });
    expect(response.status).toBe(200);
    expect(data?.entities?.length).toBeGreaterThan(0);
    for (const subnet of data?.entities ?? []) expect(subnet.metadata.uuid).toMatch(UUID);
    expectConforms(op.method, op.path, 200, data);
  });

  coverageTest(c);
});

errorStatusSuite('central', c);

describe('central: the mock enforces the spec', () => {
  it('refuses an object store service body other than ENABLE', async () => {
    // @ts-expect-error DISABLE is not a state this call takes
    const { response } = await client().POST('/services/oss', { body: { state: 'DISABLE' } });
    expect(response.status).toBe(422);
    expect(c.exchanges.pop()?.violations ?? '').toMatch(/state/);
  });

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

  it('answers 401 without credentials', async () => {
    const response = await fetch(`${inject('mocks').central}/images/list`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(401);
  });
});
