// The control API's adapter (src/apis/control) over a fake `ctx.control`: what each handler asks
// of it, and that each answer follows spec/control (the bundle's response schema).
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, handlers, mapError, unauthorized, validationStatus } from '../src/apis/control/index.js';
import { createJournal } from '../src/control/journal.js';
import { SnapshotInvalid } from '../src/control/snapshot.js';
import { HttpError } from '../src/errors.js';
import { createFaultRules } from '../src/faults.js';
import { specs } from './support/sim.js';

const RUNNING = '7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60';
const ENDED = '0e09cf83-ac68-4f28-af70-6df9a43df4f0';

/** A control object as the simulator gives it, recording what the handlers ask of it. */
function fakeControl() {
  const calls = [];
  let taskSeconds = 3;
  const control = {
    calls,
    version: '0.1.0',
    startedMs: Date.now() - 42_500,
    counts: () => ({ image: 2, task: 3, object_store: 1 }),
    async reset(kinds) {
      calls.push(['reset', kinds]);
      return kinds ? Object.fromEntries(kinds.map((k) => [k, 1])) : { image: 2, task: 3, object_store: 1 };
    },
    async snapshot() {
      calls.push(['snapshot']);
      return Readable.from([Buffer.from('tar bytes')]);
    },
    async restore(archive, { idleMs }) {
      const chunks = [];
      for await (const chunk of archive) chunks.push(chunk);
      const text = Buffer.concat(chunks).toString();
      calls.push(['restore', text, idleMs]);
      if (text === 'damaged')
        throw new SnapshotInvalid('entry 2 "x": an entry path must be manifest.json, state.sqlite or images/<uuid>');
    },
    journal: createJournal(10),
    faults: createFaultRules({ seed: 1 }),
    completeTask(uuid, status, detail) {
      calls.push(['completeTask', uuid, status, detail]);
      return uuid === RUNNING ? 'ended' : uuid === ENDED ? 'already' : undefined;
    },
    settings: {
      get: () => ({ task_seconds: taskSeconds }),
      set: ({ task_seconds }) => {
        taskSeconds = task_seconds;
      },
    },
  };
  return control;
}

let api;
beforeAll(async () => {
  api = (await specs()).find((a) => a.name === 'control');
});

/** Runs a handler as the pipeline would, its errors answered as the pipeline answers them. */
async function call(operationId, control, { body, params = {}, query = {}, bytes } = {}) {
  const operation = api.backend.getOperation(operationId);
  try {
    const context = { control, operationId, operation, body, params, query, bytes, uploadIdleMs: 60_000 };
    const answer = await handlers[operationId](context);
    return { ...answer, operation };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { status: error.status, headers: error.headers, body: errorBody(error, operationId), operation };
  }
}

/** The answer follows the operation's declared response (status, and its JSON schema). */
function expectDeclared({ operation, status, body }) {
  const declared = operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`];
  expect(declared, `${operation.operationId} ${status} is declared`).toBeDefined();
  if (body === undefined) return;
  const result = api.backend.validator.validateResponse(body, operation, status);
  expect(result.errors ?? [], `${operation.operationId} ${status}`).toEqual([]);
}

describe('the control adapter', () => {
  it('is an adapter: the v3 error body, 422 for a refused schema, the v3 401', () => {
    expect(validationStatus).toBe(422);
    expect(JSON.parse(unauthorized().body).message_list[0].reason).toBe('AUTHENTICATION_REQUIRED');
    expect(typeof mapError).toBe('function');
  });

  it('health_list: ok, the version, whole seconds up, the entity counts', async () => {
    const answer = await call('health_list', fakeControl());
    expect(answer).toMatchObject({
      status: 200,
      body: { status: 'ok', version: '0.1.0', uptime_seconds: 42, entities: { image: 2, task: 3, object_store: 1 } },
    });
    expectDeclared(answer);
  });

  it('reset_create: every kind without a body, the kinds asked for with one; answers what was removed', async () => {
    const control = fakeControl();
    const all = await call('reset_create', control);
    const some = await call('reset_create', control, { body: { kinds: ['image'] } });
    expect(control.calls).toEqual([
      ['reset', undefined],
      ['reset', ['image']],
    ]);
    expect(all.body).toEqual({ removed: { image: 2, task: 3, object_store: 1 } });
    expect(some.body).toEqual({ removed: { image: 1 } });
    expectDeclared(all);
    expectDeclared(some);
  });

  it('snapshot_download: the archive as a tar stream with a file name', async () => {
    const answer = await call('snapshot_download', fakeControl());
    expect(answer.status).toBe(200);
    expect(answer.headers).toEqual({
      'content-type': 'application/x-tar',
      'content-disposition': expect.stringMatching(/^attachment; filename="svc-snapshot-\d{8}T\d{6}Z\.tar"$/),
    });
    const chunks = [];
    for await (const chunk of answer.stream) chunks.push(chunk);
    expect(Buffer.concat(chunks).toString()).toBe('tar bytes');
    expectDeclared(answer);
  });

  it('snapshot_upload: restores from the request body and answers the counts; a SnapshotInvalid is 400 SNAPSHOT_INVALID', async () => {
    const control = fakeControl();
    const ok = await call('snapshot_upload', control, { bytes: Readable.from([Buffer.from('an archive')]) });
    expect(ok).toMatchObject({ status: 200, body: { entities: { image: 2, task: 3, object_store: 1 } } });
    expectDeclared(ok);
    const refused = await call('snapshot_upload', control, { bytes: Readable.from([Buffer.from('damaged')]) });
    expect(refused.status).toBe(400);
    expect(refused.body.message_list[0]).toEqual({
      reason: 'SNAPSHOT_INVALID',
      message: expect.stringMatching(/^The snapshot is refused: entry 2 "x": an entry path must be/),
    });
    expectDeclared(refused);
    expect(control.calls.map((c) => c.join(' '))).toEqual(['restore an archive 60000', 'restore damaged 60000']);
  });

  it('requests_list: the journal with the query filters read from their text; requests_delete empties it', async () => {
    const control = fakeControl();
    control.journal.record('post', '/api/svc/v3/images/list', 'images_list', 200, 1.5);
    control.journal.record('post', '/api/svc/v3/images', 'images_create', 422, 0.7, [
      {
        instancePath: '/requestBody/spec',
        keyword: 'required',
        params: { missingProperty: 'name' },
        message: "must have required property 'name'",
      },
    ]);
    control.journal.record('get', '/api/svc/v3/nothing', undefined, 404, 0.2);
    const all = await call('requests_list', control);
    expect(all.body.total).toBe(3);
    expectDeclared(all);
    const invalid = await call('requests_list', control, { query: { valid: 'false', status: '422', limit: '5' } });
    expect(invalid.body).toMatchObject({
      total: 1,
      entries: [
        {
          operation_id: 'images_create',
          valid: false,
          violations: [
            { in: 'body', path: '/spec/name', message: "must have required property 'name'", lenient: false },
          ],
        },
      ],
    });
    expectDeclared(invalid);
    const byOperation = await call('requests_list', control, { query: { operation_id: 'images_list', valid: 'true' } });
    expect(byOperation.body.entries.map((e) => e.path)).toEqual(['/api/svc/v3/images/list']);
    const future = await call('requests_list', control, {
      query: { since: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(future.body).toEqual({ total: 0, entries: [] });
    expect(await call('requests_delete', control)).toMatchObject({ status: 204 });
    expect((await call('requests_list', control)).body.total).toBe(0);
  });

  it('faults_update puts the rules in force and answers them; faults_list, faults_delete', async () => {
    const control = fakeControl();
    const rules = [{ operation_id: 'images_list', status: 503, probability: 1, count: 2 }];
    const set = await call('faults_update', control, { body: { rules, seed: 7 } });
    expect(set.body).toEqual({ rules: [{ ...rules[0], retry_after_seconds: 1, hits: 0 }], seed: 7 });
    expectDeclared(set);
    expect(control.faults.match('images_list', 'post', '/api/svc/v3/images/list', true)?.status).toBe(503);
    const listed = await call('faults_list', control);
    expect(listed.body.rules[0]).toMatchObject({ count: 1, hits: 1 });
    expectDeclared(listed);
    expect(await call('faults_delete', control)).toMatchObject({ status: 204 });
    expect((await call('faults_list', control)).body).toEqual({ rules: [], seed: 7 });
  });

  it('faults_update: a rule the model refuses is 422 naming the field', async () => {
    const refused = await call('faults_update', fakeControl(), { body: { rules: [{ probability: 1 }] } });
    expect(refused.status).toBe(422);
    expect(refused.body.message_list[0]).toMatchObject({
      reason: 'INVALID_REQUEST',
      details: { 'rules[0]': 'must do something: status, latency_ms or fail_task' },
    });
    expectDeclared(refused);
  });

  it('tasks_complete: 200 with the end, 404 for no such task, 409 when it has ended', async () => {
    const control = fakeControl();
    const body = { status: 'FAILED', error_detail: 'no source' };
    const ended = await call('tasks_complete', control, { body, params: { uuid: RUNNING.toUpperCase() } });
    expect(ended).toMatchObject({ status: 200, body: { task_uuid: RUNNING, status: 'FAILED' } });
    expect(control.calls).toEqual([['completeTask', RUNNING, 'FAILED', 'no source']]);
    expectDeclared(ended);
    const unknown = await call('tasks_complete', control, {
      body,
      params: { uuid: 'c2d4b1f5-8a3e-4c6b-9f1d-2e7a5b3c9d10' },
    });
    expect(unknown).toMatchObject({
      status: 404,
      body: { kind: 'task', message_list: [{ reason: 'ENTITY_NOT_FOUND' }] },
    });
    expectDeclared(unknown);
    const again = await call('tasks_complete', control, { body, params: { uuid: ENDED } });
    expect(again).toMatchObject({ status: 409, body: { message_list: [{ reason: 'TASK_ALREADY_ENDED' }] } });
    expectDeclared(again);
  });

  it('settings_update changes task_seconds and answers the settings; settings_list reads them', async () => {
    const control = fakeControl();
    expect((await call('settings_list', control)).body).toEqual({ task_seconds: 3 });
    const changed = await call('settings_update', control, { body: { task_seconds: 0.5 } });
    expect(changed).toMatchObject({ status: 200, body: { task_seconds: 0.5 } });
    expectDeclared(changed);
    expect((await call('settings_list', control)).body).toEqual({ task_seconds: 0.5 });
  });

  it('answers 501 naming the operation while the simulator gives no ctx.control', async () => {
    for (const operationId of Object.keys(handlers)) {
      const answer = await call(operationId, undefined, {
        body: { kinds: ['image'], rules: [], status: 'SUCCEEDED', task_seconds: 1 },
        params: { uuid: RUNNING },
      });
      expect(answer.status, operationId).toBe(501);
      expect(answer.body.message_list[0].message).toContain(operationId);
    }
  });

  it('has a handler for every operation of spec/control, and no other', () => {
    const ids = Object.values(api.doc.paths).flatMap((item) =>
      Object.values(item)
        .map((op) => op?.operationId)
        .filter(Boolean),
    );
    expect(Object.keys(handlers).sort()).toEqual(ids.sort());
  });
});
