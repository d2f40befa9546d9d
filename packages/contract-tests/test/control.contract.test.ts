// Every operation of the local svc's control API (`/_svc`), through the generated client, against the Prism mock.

import { createControlClient } from '@svc/client';
import { describe, expect, inject, it } from 'vitest';
import { clientOptions, contract, coverageTest, errorStatusSuite } from './contract.js';

const TASK = '7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60';

const c = contract('control', (baseUrl) => createControlClient({ baseUrl, ...clientOptions }));
const client = () => c.client();

describe('control: success responses', () => {
  it('health_list: GET /health reads the health record', async () => {
    const op = c.cover('health_list');
    const { data, response } = await client().GET('/health');
    expect(response.status).toBe(200);
    c.expectSent({ method: 'GET', url: '/health' });
    c.expectConforms(op, 200, data);
  });

  it('reset_create: POST /reset sends the kinds and reads what was removed', async () => {
    const op = c.cover('reset_create');
    const { data, response } = await client().POST('/reset', { body: { kinds: ['image', 'task'] } });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'POST', url: '/reset', contentType: 'application/json' });
    c.expectConforms(op, 200, data);
  });

  it('snapshot_download: GET /snapshot reads the archive as bytes', async () => {
    c.cover('snapshot_download');
    const { data, response } = await client().GET('/snapshot', {
      parseAs: 'arrayBuffer',
      headers: { Accept: 'application/x-tar' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/x-tar/);
    expect(data).toBeInstanceOf(ArrayBuffer);
  });

  it('snapshot_upload: PUT /snapshot sends the archive as application/x-tar and reads the counts', async () => {
    const op = c.cover('snapshot_upload');
    const { data, response } = await client().PUT('/snapshot', {
      body: new Uint8Array(1024).map((_, i) => i % 256),
      headers: { 'Content-Type': 'application/x-tar' },
    });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'PUT', url: '/snapshot', contentType: 'application/x-tar' });
    c.expectConforms(op, 200, data);
  });

  it('requests_list: GET /requests sends the filters and reads the journal', async () => {
    const op = c.cover('requests_list');
    const { data, response } = await client().GET('/requests', {
      params: {
        query: { operation_id: 'images_create', status: 422, valid: false, since: '2026-05-04T09:30:00Z', limit: 10 },
      },
    });
    expect(response.status).toBe(200);
    c.expectSent({
      method: 'GET',
      url: '/requests?operation_id=images_create&status=422&valid=false&since=2026-05-04T09%3A30%3A00Z&limit=10',
    });
    c.expectConforms(op, 200, data);
  });

  it('requests_delete: DELETE /requests reads the empty 204', async () => {
    c.cover('requests_delete');
    const { response } = await client().DELETE('/requests');
    expect(response.status).toBe(204);
    c.expectSent({ method: 'DELETE', url: '/requests' });
  });

  it('faults_list: GET /faults reads the rules', async () => {
    const op = c.cover('faults_list');
    const { data, response } = await client().GET('/faults');
    expect(response.status).toBe(200);
    c.expectSent({ method: 'GET', url: '/faults' });
    c.expectConforms(op, 200, data);
  });

  it('faults_update: PUT /faults sends the rules and the seed and reads them back', async () => {
    const op = c.cover('faults_update');
    const { data, response } = await client().PUT('/faults', {
      body: {
        seed: 7,
        rules: [
          { operation_id: 'images_list', status: 503, probability: 1, count: 2 },
          { operation_id: 'images_create', fail_task: true, probability: 0.5 },
          { method: 'GET', path: '/api/svc/v3/images/*', latency_ms: 200, probability: 1 },
        ],
      },
    });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'PUT', url: '/faults', contentType: 'application/json' });
    c.expectConforms(op, 200, data);
  });

  it('faults_delete: DELETE /faults reads the empty 204', async () => {
    c.cover('faults_delete');
    const { response } = await client().DELETE('/faults');
    expect(response.status).toBe(204);
    c.expectSent({ method: 'DELETE', url: '/faults' });
  });

  it('tasks_complete: POST /tasks/{uuid}/complete fills the path parameter and sends the end', async () => {
    const op = c.cover('tasks_complete');
    const { data, response } = await client().POST('/tasks/{uuid}/complete', {
      params: { path: { uuid: TASK } },
      body: { status: 'FAILED', error_detail: 'The source could not be read.' },
    });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'POST', url: `/tasks/${TASK}/complete`, contentType: 'application/json' });
    c.expectConforms(op, 200, data);
  });

  it('settings_list: GET /settings reads the settings', async () => {
    const op = c.cover('settings_list');
    const { data, response } = await client().GET('/settings');
    expect(response.status).toBe(200);
    c.expectSent({ method: 'GET', url: '/settings' });
    c.expectConforms(op, 200, data);
  });

  it('settings_update: PUT /settings sends task_seconds and reads the settings', async () => {
    const op = c.cover('settings_update');
    const { data, response } = await client().PUT('/settings', { body: { task_seconds: 0 } });
    expect(response.status).toBe(200);
    c.expectSent({ method: 'PUT', url: '/settings', contentType: 'application/json' });
    c.expectConforms(op, 200, data);
  });

  coverageTest(c);
});

errorStatusSuite('control', c);

describe('control: the client methods against the mock', () => {
  it('reset, requests, faults, completeTask and settings send what the raw calls send', async () => {
    await client().reset();
    await client().requests({ valid: false });
    await client().faults.set([{ operation_id: 'images_list', status: 503, probability: 1, count: 1 }], { seed: 1 });
    await client().completeTask(TASK, 'SUCCEEDED');
    await client().settings.set({ task_seconds: 1 });
    expect(c.exchanges.map((e) => `${e.method} ${e.url} ${e.status}`)).toEqual([
      'POST /reset 200',
      'GET /requests?valid=false 200',
      'PUT /faults 200',
      `POST /tasks/${TASK}/complete 200`,
      'PUT /settings 200',
    ]);
  });
});

describe('control: the mock enforces the spec', () => {
  it('refuses a fault rule that does nothing, naming the rule', async () => {
    // a rule needs status, latency_ms or fail_task (anyOf): not visible to TypeScript
    const { response } = await client().PUT('/faults', {
      body: { rules: [{ operation_id: 'images_list', probability: 1 }] },
    });
    expect(response.status).toBe(422);
    expect(c.exchanges.pop()?.violations ?? '').toMatch(/anyOf|rules/);
  });

  it('refuses an end other than SUCCEEDED or FAILED, naming status', async () => {
    const { response } = await client().POST('/tasks/{uuid}/complete', {
      params: { path: { uuid: TASK } },
      // @ts-expect-error ABORTED is not an end this call gives
      body: { status: 'ABORTED' },
    });
    expect(response.status).toBe(422);
    expect(c.exchanges.pop()?.violations ?? '').toMatch(/status/);
  });

  it('answers health without credentials, and everything else only with them', async () => {
    const health = await fetch(`${inject('mocks').control}/health`);
    expect(health.status).toBe(200);
    const reset = await fetch(`${inject('mocks').control}/reset`, { method: 'POST' });
    expect(reset.status).toBe(401);
  });
});
