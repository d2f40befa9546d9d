// The workflow methods against small local servers that play the service: tasks, paging, image create/delete, uploads.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createCentralClient,
  createElementClient,
  createObjectsClient,
  InvalidArgumentError,
  TaskFailedError,
  TaskTimeoutError,
  WorkflowError,
} from '../src/index.js';
import { type Handler, json, sha256, startServer, type TestServer } from './support/server.js';

const TASK = '7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60';
const TASK2 = '8a4d3b2f-6c5e-4f9a-8b7d-2e3c4f5a6b71';
const IMAGE = 'c2d4b1f5-8a3e-4c6b-9f1d-2e7a5b3c9d10';
const CONTAINER = 'e785953e-2f6d-4b4c-9b0a-7d1c2e3f4a5b';
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function serve(handler: Handler) {
  const s = await startServer(handler);
  servers.push(s);
  return s;
}
const creds = { username: 'admin', password: 'pw', retry: { retries: 2, minDelayMs: 5, maxDelayMs: 20 } };
const central = (s: TestServer) => createCentralClient({ baseUrl: `${s.origin}/api/svc/v3`, ...creds });
const element = (s: TestServer) => createElementClient({ baseUrl: `${s.origin}/api/svc`, ...creds });
const quick = { intervalMs: 5, timeoutMs: 10_000 };

/** A v3 task that reports each status in turn, then stays at the last. */
function v3Task(statuses: string[], extra: Record<string, unknown> = {}) {
  let i = 0;
  return () => {
    const status = statuses[Math.min(i, statuses.length - 1)];
    const percentage_complete = Math.round((100 * Math.min(i, statuses.length - 1)) / Math.max(1, statuses.length - 1));
    i++;
    return {
      uuid: TASK,
      status,
      percentage_complete,
      operation_type: 'create_image_intentful',
      ...(status === 'SUCCEEDED' ? {} : extra),
    };
  };
}

describe('central waitForTask', () => {
  it('polls until SUCCEEDED, reporting progress, and returns the task', async () => {
    const next = v3Task(['QUEUED', 'RUNNING', 'RUNNING', 'SUCCEEDED']);
    const s = await serve((_req, res) => json(res, 200, next()));
    const progress: number[] = [];
    const task = await central(s).waitForTask(TASK, {
      ...quick,
      onProgress: (t) => progress.push(t.percentage_complete ?? -1),
    });
    expect(task.status).toBe('SUCCEEDED');
    expect(progress).toEqual([0, 33, 67, 100]);
    expect(s.seen.every((r) => r.method === 'GET' && r.url === `/api/svc/v3/tasks/${TASK}`)).toBe(true);
  });

  it('raises TaskFailedError with error_code and error_detail for FAILED and ABORTED', async () => {
    for (const status of ['FAILED', 'ABORTED']) {
      const next = v3Task(['RUNNING', status], {
        error_code: 'IMAGE_FETCH_FAILED',
        error_detail: 'source_uri answered 404',
      });
      const s = await serve((_req, res) => json(res, 200, next()));
      const error = await central(s)
        .waitForTask(TASK, quick)
        .catch((e) => e);
      expect(error).toBeInstanceOf(TaskFailedError);
      expect(error).toMatchObject({
        taskUuid: TASK,
        status,
        error_code: 'IMAGE_FETCH_FAILED',
        error_detail: 'source_uri answered 404',
      });
      expect(error.message).toBe(`task ${TASK} ended ${status} (IMAGE_FETCH_FAILED): source_uri answered 404`);
    }
  });

  it('gives up with TaskTimeoutError carrying the last task seen', async () => {
    // An injected fetch: the first poll answers at once, the next ones only end when the deadline
    // aborts them, so the outcome does not hang on how fast a busy machine answers over a socket.
    // The deadline leaves a busy machine time for the first poll (300 ms did not, beside a second suite).
    let polls = 0;
    const fetch = async (request: Request) => {
      polls++;
      if (polls === 1) return Response.json({ uuid: TASK, status: 'RUNNING', percentage_complete: 40 });
      return new Promise<Response>((_, reject) => {
        // as fetch does: a signal the deadline already fired (a busy machine) rejects at once
        if (request.signal.aborted) reject(request.signal.reason);
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
      });
    };
    const client = createCentralClient({ baseUrl: 'https://127.0.0.1:9/api/svc/v3', ...creds, fetch });
    const error = await client.waitForTask(TASK, { intervalMs: 0, timeoutMs: 3_000 }).catch((e) => e);
    expect(error).toBeInstanceOf(TaskTimeoutError);
    expect(error.lastTask).toMatchObject({ percentage_complete: 40 });
    expect(polls).toBe(2);
  });

  it('stops when the signal fires, with its reason', async () => {
    const s = await serve((_req, res) => json(res, 200, { uuid: TASK, status: 'RUNNING' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 100);
    await expect(central(s).waitForTask(TASK, { intervalMs: 20, signal: controller.signal })).rejects.toThrow('stop');
  });

  it('rejects a task id that is not a UUID, naming the argument', async () => {
    const s = await serve((_req, res) => json(res, 200, {}));
    await expect(async () => central(s).waitForTask('not-a-uuid')).rejects.toThrow(/argument "uuid" must be a UUID/);
    expect(s.seen).toHaveLength(0);
  });
});

describe('central abortTask', () => {
  it('POSTs /tasks/{uuid}/abort without a body; the task then ends ABORTED for waitForTask', async () => {
    let aborted = false;
    const s = await serve((req, res) => {
      if (req.method === 'POST' && req.url === `/api/svc/v3/tasks/${TASK}/abort`) {
        aborted = true;
        res.writeHead(200);
        res.end();
        return;
      }
      json(res, 200, {
        uuid: TASK,
        status: aborted ? 'ABORTED' : 'RUNNING',
        requested_status: aborted ? 'ABORTED' : undefined,
      });
    });
    const client = central(s);
    await expect(client.abortTask(TASK)).resolves.toBeUndefined();
    expect(s.seen[0]).toMatchObject({ method: 'POST', url: `/api/svc/v3/tasks/${TASK}/abort` });
    expect(s.seen[0]!.body.length).toBe(0);
    await expect(client.waitForTask(TASK, quick)).rejects.toMatchObject({ name: 'TaskFailedError', status: 'ABORTED' });
  });

  it('raises ApiError with the message_list for an unknown task, and is not retried', async () => {
    const s = await serve((_req, res) =>
      json(res, 404, { message_list: [{ message: `task : ${TASK} does not exist.`, reason: 'ENTITY_NOT_FOUND' }] }),
    );
    const error = await central(s)
      .abortTask(TASK)
      .catch((e) => e);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 404,
      body: { message_list: [{ reason: 'ENTITY_NOT_FOUND' }] },
    });
    expect(s.seen).toHaveLength(1);
  });

  it('rejects a task id that is not a UUID before calling the service', async () => {
    const s = await serve((_req, res) => json(res, 200, {}));
    await expect(central(s).abortTask('task-1')).rejects.toMatchObject({
      name: 'InvalidArgumentError',
      argument: 'uuid',
    });
    expect(s.seen).toHaveLength(0);
  });
});

describe('central enableObjectsService', () => {
  /** A central endpoint whose object store service is enabled by a task that runs `polls` polls. */
  function service(initially: string, polls = 2) {
    let state = initially;
    let taskPolls = 0;
    return (req: { method: string; url: string; body: Buffer }, res: Parameters<Handler>[1]) => {
      if (req.url === '/api/svc/v3/services/oss/status') return json(res, 200, { service_enablement_status: state });
      if (req.method === 'POST' && req.url === '/api/svc/v3/services/oss') return json(res, 202, { task_uuid: TASK2 });
      if (req.url === `/api/svc/v3/tasks/${TASK2}`) {
        const done = ++taskPolls >= polls;
        if (done) state = 'ENABLED';
        return json(res, 200, { uuid: TASK2, status: done ? 'SUCCEEDED' : 'RUNNING' });
      }
      json(res, 404, { message_list: [{ message: 'no such path', reason: 'ENTITY_NOT_FOUND' }] });
    };
  }

  it('sends ENABLE, waits for its task and returns the ENABLED status', async () => {
    const s = await serve(service('DISABLED'));
    const status = await central(s).enableObjectsService(quick);
    expect(status.service_enablement_status).toBe('ENABLED');
    expect(s.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/svc/v3/services/oss/status',
      'POST /api/svc/v3/services/oss',
      `GET /api/svc/v3/tasks/${TASK2}`,
      `GET /api/svc/v3/tasks/${TASK2}`,
      'GET /api/svc/v3/services/oss/status',
    ]);
    expect(JSON.parse(s.seen[1]!.body.toString())).toEqual({ state: 'ENABLE' });
  });

  it('does nothing but read the status when the service is already ENABLED', async () => {
    const s = await serve(service('ENABLED'));
    await expect(central(s).enableObjectsService(quick)).resolves.toMatchObject({
      service_enablement_status: 'ENABLED',
    });
    expect(s.seen).toHaveLength(1);
  });

  it('raises WorkflowError when the service is not ENABLED after its task', async () => {
    const s = await serve((req, res) => {
      if (req.url.endsWith('/status')) return json(res, 200, { service_enablement_status: 'DISABLED' });
      if (req.method === 'POST') return json(res, 202, { task_uuid: TASK2 });
      json(res, 200, { uuid: TASK2, status: 'SUCCEEDED' });
    });
    const error = await central(s)
      .enableObjectsService(quick)
      .catch((e) => e);
    expect(error).toBeInstanceOf(WorkflowError);
    expect(error.message).toMatch(/DISABLED .*expected ENABLED/);
  });

  it('raises TaskFailedError when the enable task fails', async () => {
    const s = await serve((req, res) => {
      if (req.url.endsWith('/status')) return json(res, 200, { service_enablement_status: 'DISABLED' });
      if (req.method === 'POST') return json(res, 202, { task_uuid: TASK2 });
      json(res, 200, {
        uuid: TASK2,
        status: 'FAILED',
        error_code: 'SERVICE_ENABLE_FAILED',
        error_detail: 'not enough resources',
      });
    });
    await expect(central(s).enableObjectsService(quick)).rejects.toMatchObject({
      name: 'TaskFailedError',
      error_detail: 'not enough resources',
    });
  });
});

describe('element waitForTask with the v0.8 long poll', () => {
  const running = { uuid: TASK, progressStatus: 'Running', percentageComplete: 50 };
  const succeeded = {
    uuid: TASK,
    progressStatus: 'Succeeded',
    percentageComplete: 100,
    entityList: [{ uuid: IMAGE, entityType: 'Image' }],
  };

  it('asks GET /v0.8/tasks/{uuid}/poll?timeoutseconds=N until taskInfo is final, one call per timed-out wait', async () => {
    const answers = [
      { timedOut: true, isUnrecognized: false },
      { taskInfo: running, isUnrecognized: false },
      { taskInfo: succeeded, isUnrecognized: false },
    ];
    let i = 0;
    const s = await serve((_req, res) => json(res, 200, answers[Math.min(i++, answers.length - 1)]));
    const progress: (number | undefined)[] = [];
    const task = await element(s).waitForTask(TASK, {
      ...quick,
      longPollSeconds: 30,
      onProgress: (t) => progress.push(t.percentageComplete),
    });
    expect(task).toEqual(succeeded);
    expect(progress).toEqual([50, 100]);
    expect(s.seen.map((r) => `${r.method} ${r.url}`)).toEqual(
      Array(3).fill(`GET /api/svc/v0.8/tasks/${TASK}/poll?timeoutseconds=30`),
    );
  });

  it('raises TaskFailedError carrying the task (not the poll answer) for Failed', async () => {
    const failed = {
      uuid: TASK,
      progressStatus: 'Failed',
      metaResponse: { error: 'kInvalidArgument', errorDetail: 'bad container' },
    };
    const s = await serve((_req, res) => json(res, 200, { taskInfo: failed, isUnrecognized: false }));
    const error = await element(s)
      .waitForTask(TASK, { ...quick, longPollSeconds: 5 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error).toMatchObject({
      status: 'Failed',
      error_code: 'kInvalidArgument',
      error_detail: 'bad container',
      task: failed,
    });
  });

  it('gives up with TaskTimeoutError carrying the last task seen', async () => {
    // An injected fetch: the first long poll answers at once, the next ones end only when the
    // deadline aborts them, so the outcome does not hang on how fast a busy machine answers over a
    // socket. The deadline leaves a busy machine time for the first poll (300 ms did not, in the
    // central twin of this test, beside a second suite).
    const urls: string[] = [];
    const fetch = async (request: Request) => {
      urls.push(request.url);
      if (urls.length === 1) return Response.json({ taskInfo: running, isUnrecognized: false });
      return new Promise<Response>((_, reject) => {
        // as fetch does: a signal the deadline already fired (a busy machine) rejects at once
        if (request.signal.aborted) reject(request.signal.reason);
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
      });
    };
    const client = createElementClient({ baseUrl: 'https://127.0.0.1:9/api/svc', ...creds, fetch });
    const error = await client
      .waitForTask(TASK, { intervalMs: 0, timeoutMs: 3_000, longPollSeconds: 1 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(TaskTimeoutError);
    expect(error.lastTask).toEqual(running);
    expect(urls).toEqual(Array(2).fill(`https://127.0.0.1:9/api/svc/v0.8/tasks/${TASK}/poll?timeoutseconds=1`));
  });

  it('raises WorkflowError for a task the service does not recognise', async () => {
    const s = await serve((_req, res) => json(res, 200, { timedOut: true, isUnrecognized: true }));
    const error = await element(s)
      .waitForTask(TASK, { ...quick, longPollSeconds: 5 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(WorkflowError);
    expect(error.message).toMatch(/isUnrecognized/);
    expect(s.seen).toHaveLength(1);
  });

  it('rejects a bad longPollSeconds, or one with v2.0, naming the option, before calling', async () => {
    const s = await serve((_req, res) => json(res, 200, {}));
    for (const longPollSeconds of [0, 1.5, 301, Number.NaN]) {
      await expect(async () => element(s).waitForTask(TASK, { ...quick, longPollSeconds })).rejects.toMatchObject({
        name: 'InvalidArgumentError',
        argument: 'longPollSeconds',
      });
    }
    await expect(async () =>
      element(s).waitForTask(TASK, { ...quick, version: 'v2.0', longPollSeconds: 5 } as never),
    ).rejects.toMatchObject({ argument: 'longPollSeconds' });
    expect(s.seen).toHaveLength(0);
  });
});

describe('element waitForTask (v0.8 and v2.0 shapes)', () => {
  it('follows progressStatus (v0.8) and progress_status (v2.0)', async () => {
    let n = 0;
    const s = await serve((req, res) => {
      const done = n++ % 2 === 1;
      if (req.url.includes('/v0.8/'))
        json(res, 200, {
          uuid: TASK,
          progressStatus: done ? 'Succeeded' : 'Running',
          percentageComplete: done ? 100 : 50,
        });
      else
        json(res, 200, {
          uuid: TASK,
          progress_status: done ? 'Succeeded' : 'Queued',
          meta_response: { error_code: 0 },
        });
    });
    const client = element(s);
    const v08 = await client.waitForTask(TASK, quick);
    expect(v08.progressStatus).toBe('Succeeded');
    const v20 = await client.waitForTask(TASK, { ...quick, version: 'v2.0' });
    expect(v20.progress_status).toBe('Succeeded');
    expect(s.seen.map((r) => r.url)).toEqual([
      `/api/svc/v0.8/tasks/${TASK}`,
      `/api/svc/v0.8/tasks/${TASK}`,
      `/api/svc/v2.0/tasks/${TASK}`,
      `/api/svc/v2.0/tasks/${TASK}`,
    ]);
  });

  it('raises TaskFailedError from metaResponse (v0.8) and meta_response (v2.0)', async () => {
    const s = await serve((req, res) =>
      req.url.includes('/v0.8/')
        ? json(res, 200, {
            uuid: TASK,
            progressStatus: 'Failed',
            metaResponse: { error: 'kInvalidArgument', errorDetail: 'bad container' },
          })
        : json(res, 200, {
            uuid: TASK,
            progress_status: 'Aborted',
            meta_response: { error_code: 7, error_detail: 'aborted by user' },
          }),
    );
    const client = element(s);
    await expect(client.waitForTask(TASK, quick)).rejects.toMatchObject({
      name: 'TaskFailedError',
      status: 'Failed',
      error_code: 'kInvalidArgument',
      error_detail: 'bad container',
    });
    await expect(client.waitForTask(TASK, { ...quick, version: 'v2.0' })).rejects.toMatchObject({
      status: 'Aborted',
      error_code: '7',
      error_detail: 'aborted by user',
    });
  });
});

describe('paging', () => {
  it('iterates a v3 list call page by page until total_matches', async () => {
    const all = Array.from({ length: 7 }, (_, i) => ({
      metadata: { kind: 'image', uuid: `00000000-0000-4000-8000-00000000000${i}` },
      status: { state: 'COMPLETE' },
    }));
    const s = await serve((req, res) => {
      const { offset, length } = JSON.parse(req.body.toString());
      json(res, 200, {
        api_version: '3.1',
        metadata: { total_matches: all.length, offset, length },
        entities: all.slice(offset, offset + length),
      });
    });
    const seen: string[] = [];
    for await (const image of central(s).paginate(
      '/images/list',
      { kind: 'image', sort_attribute: 'name' },
      { pageSize: 3 },
    ))
      seen.push(image.metadata.uuid!);
    expect(seen).toEqual(all.map((x) => x.metadata.uuid));
    expect(s.seen.map((r) => JSON.parse(r.body.toString()))).toEqual([
      { kind: 'image', sort_attribute: 'name', offset: 0, length: 3 },
      { kind: 'image', sort_attribute: 'name', offset: 3, length: 3 },
      { kind: 'image', sort_attribute: 'name', offset: 6, length: 3 },
    ]);
  });

  it('ends quietly at an empty page when the server announces no total', async () => {
    const s = await serve((req, res) => {
      const { offset } = JSON.parse(req.body.toString());
      json(res, 200, {
        api_version: '3.1',
        metadata: {},
        entities: offset === 0 ? [{ metadata: { kind: 'cluster', uuid: TASK } }] : [],
      });
    });
    const got = [];
    for await (const c of central(s).paginate('/clusters/list')) got.push(c);
    expect(got).toHaveLength(1);
    expect(s.seen).toHaveLength(2);
  });

  it('iterates the object store groups listing by group_member_offset', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const s = await serve((req, res) => {
      const { group_member_offset: off, group_member_count: count } = JSON.parse(req.body.toString());
      json(res, 200, {
        group_results: [
          {
            entity_results: ids.slice(off, off + count).map((entity_id) => ({ entity_id, data: [] })),
            filtered_entity_count: ids.length,
          },
        ],
      });
    });
    const client = createObjectsClient({ baseUrl: `${s.origin}/oss/api/svc/v3`, ...creds });
    const got: string[] = [];
    for await (const e of client.paginateGroups(
      { entity_type: 'objectstore', group_member_attributes: [{ attribute: 'name' }] },
      { pageSize: 2 },
    ))
      got.push(e.entity_id);
    expect(got).toEqual(ids);
    expect(s.seen.map((r) => JSON.parse(r.body.toString()).group_member_offset)).toEqual([0, 2, 4]);
    expect(s.seen[0]!.url).toBe('/oss/api/svc/v3/groups');
  });
});

describe('paginateBuckets', () => {
  const STORE = '4f1c8a2e-7b3d-4e96-a5c1-0d8e2f6b9a37';
  it('iterates the buckets of an object store by group_member_offset, with entity_type bucket', async () => {
    const names = ['backups', 'logs', 'media'];
    const s = await serve((req, res) => {
      const { group_member_offset: off, group_member_count: count } = JSON.parse(req.body.toString());
      json(res, 200, {
        entity_type: 'bucket',
        group_results: [
          {
            entity_results: names
              .slice(off, off + count)
              .map((entity_id) => ({ entity_id, data: [{ name: 'object_count', values: [{ values: ['0'] }] }] })),
            filtered_entity_count: names.length,
          },
        ],
      });
    });
    const client = createObjectsClient({ baseUrl: `${s.origin}/oss/api/svc/v3`, ...creds });
    const got: string[] = [];
    for await (const bucket of client.paginateBuckets(
      STORE,
      { group_member_attributes: [{ attribute: 'object_count' }] },
      { pageSize: 2 },
    ))
      got.push(bucket.entity_id);
    expect(got).toEqual(names);
    expect(s.seen.map((r) => r.url)).toEqual(Array(2).fill(`/oss/api/svc/v3/objectstores/${STORE}/groups`));
    expect(s.seen.map((r) => JSON.parse(r.body.toString()))).toEqual([
      {
        entity_type: 'bucket',
        group_member_attributes: [{ attribute: 'object_count' }],
        group_member_offset: 0,
        group_member_count: 2,
      },
      {
        entity_type: 'bucket',
        group_member_attributes: [{ attribute: 'object_count' }],
        group_member_offset: 2,
        group_member_count: 2,
      },
    ]);
  });

  it('rejects an object store id that is not a UUID, naming it, before calling', async () => {
    const s = await serve((_req, res) => json(res, 200, {}));
    const client = createObjectsClient({ baseUrl: `${s.origin}/oss/api/svc/v3`, ...creds });
    expect(() => client.paginateBuckets('objects-prod-01')).toThrow(
      expect.objectContaining({ name: 'InvalidArgumentError', argument: 'uuid' }),
    );
    expect(s.seen).toHaveLength(0);
  });
});

describe('createImageFromUrl and deleteImage', () => {
  function fakeCentral() {
    let polls = 0;
    let state = 'PENDING';
    return serve((req, res) => {
      if (req.method === 'POST' && req.url === '/api/svc/v3/images') {
        const body = JSON.parse(req.body.toString());
        return json(res, 202, {
          api_version: '3.1',
          metadata: { kind: 'image', uuid: IMAGE },
          spec: body.spec,
          status: { state: 'PENDING', execution_context: { task_uuid: TASK } },
        });
      }
      if (req.method === 'GET' && req.url === `/api/svc/v3/tasks/${TASK}`) {
        if (++polls >= 2) state = 'COMPLETE';
        return json(res, 200, { uuid: TASK, status: polls >= 2 ? 'SUCCEEDED' : 'RUNNING' });
      }
      if (req.method === 'GET' && req.url === `/api/svc/v3/images/${IMAGE}`) {
        return json(res, 200, {
          api_version: '3.1',
          metadata: { kind: 'image', uuid: IMAGE },
          spec: { name: 'CentOS', resources: {} },
          status: { state, name: 'CentOS' },
        });
      }
      if (req.method === 'DELETE' && req.url === `/api/svc/v3/images/${IMAGE}`) {
        return json(res, 202, {
          api_version: '3.1',
          metadata: { kind: 'image' },
          spec: '',
          status: { state: 'DELETE_PENDING', execution_context: { task_uuid: [TASK2] } },
        });
      }
      if (req.method === 'GET' && req.url === `/api/svc/v3/tasks/${TASK2}`)
        return json(res, 200, { uuid: TASK2, status: 'SUCCEEDED' });
      json(res, 404, {
        api_version: '3.1',
        code: 404,
        message_list: [{ message: 'no route', reason: 'ENTITY_NOT_FOUND' }],
        state: 'ERROR',
      });
    });
  }

  it('creates, waits for the task and returns the COMPLETE image', async () => {
    const s = await fakeCentral();
    const spec = {
      name: 'CentOS',
      resources: { image_type: 'DISK_IMAGE' as const, source_uri: 'https://cloud.centos.org/c7.qcow2' },
    };
    const image = await central(s).createImageFromUrl(spec, quick);
    expect(image.status.state).toBe('COMPLETE');
    expect(image.metadata.uuid).toBe(IMAGE);
    expect(JSON.parse(s.seen[0]!.body.toString())).toEqual({ api_version: '3.1.0', metadata: { kind: 'image' }, spec });
  });

  it('deletes (DELETE_PENDING, task_uuid as a list) and waits for the task', async () => {
    const s = await fakeCentral();
    const task = await central(s).deleteImage(IMAGE, quick);
    expect(task.uuid).toBe(TASK2);
    expect(s.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `DELETE /api/svc/v3/images/${IMAGE}`,
      `GET /api/svc/v3/tasks/${TASK2}`,
    ]);
  });

  it('rejects a spec without source_uri before calling the service', async () => {
    const s = await fakeCentral();
    await expect(central(s).createImageFromUrl({ name: 'x', resources: {} })).rejects.toThrow(
      /argument "spec.resources.source_uri"/,
    );
    expect(s.seen).toHaveLength(0);
  });
});

describe('uploads', () => {
  /** The element-level service of the two-phase upload, checking what it receives. */
  function fakeElement(opts: { state?: string } = {}) {
    const upload: { bytes?: Buffer; container?: string; type?: string } = {};
    let uploaded = false;
    const server = serve((req, res) => {
      const route = `${req.method} ${req.url.replace(/\?.*/, '')}`;
      if (route === 'POST /api/svc/v0.8/images') return json(res, 200, { taskUuid: TASK });
      if (route === `GET /api/svc/v0.8/tasks/${TASK}`)
        return json(res, 200, {
          uuid: TASK,
          progressStatus: 'Succeeded',
          entityList: [{ uuid: IMAGE, entityType: 'Image' }],
        });
      if (route === `GET /api/svc/v0.8/images/${IMAGE}`)
        return json(res, 200, {
          uuid: IMAGE,
          name: 'disk',
          imageState: uploaded ? 'ACTIVE' : (opts.state ?? 'INACTIVE'),
        });
      if (route === 'GET /api/svc/v2.0/storage_containers') {
        return json(res, 200, {
          entities: [
            { id: 'c::1', storage_container_uuid: TASK2, name: 'SelfServiceContainer' },
            { id: 'c::2', storage_container_uuid: CONTAINER, name: 'images' },
          ],
        });
      }
      if (route === `PUT /api/svc/v0.8/images/${IMAGE}/upload`) {
        Object.assign(upload, {
          bytes: req.body,
          container: req.headers['x-svc-destination-container'],
          type: req.headers['content-type'],
        });
        uploaded = true;
        return json(res, 200, { taskUuid: TASK });
      }
      json(res, 404, { message: `no route ${route}` });
    });
    return { server, upload };
  }

  it('runs the two-phase upload from a stream, resolving the container by name', async () => {
    const { server, upload } = fakeElement();
    const s = await server;
    const bytes = randomBytes(2 * 1024 * 1024 + 3);
    const stream = Readable.from(
      (function* () {
        for (let i = 0; i < bytes.length; i += 65536) yield bytes.subarray(i, i + 65536);
      })(),
    );
    const image = await element(s).uploadImage(
      { name: 'disk', imageType: 'DISK_IMAGE', container: 'images', stream },
      quick,
    );
    expect(image.imageState).toBe('ACTIVE');
    expect(upload.container).toBe(CONTAINER);
    expect(upload.type).toBe('application/octet-stream');
    expect(sha256(upload.bytes!)).toBe(sha256(bytes));
    expect(s.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/svc/v0.8/images',
      `GET /api/svc/v0.8/tasks/${TASK}`,
      `GET /api/svc/v0.8/images/${IMAGE}`,
      'GET /api/svc/v2.0/storage_containers',
      `PUT /api/svc/v0.8/images/${IMAGE}/upload`,
      `GET /api/svc/v0.8/tasks/${TASK}`,
      `GET /api/svc/v0.8/images/${IMAGE}`,
    ]);
    expect(JSON.parse(s.seen[0]!.body.toString())).toEqual({ name: 'disk', imageType: 'DISK_IMAGE' });
  });

  it('uploads from a file path with a container UUID (no container lookup)', async () => {
    const { server, upload } = fakeElement();
    const s = await server;
    const dir = mkdtempSync(join(tmpdir(), 'svc-client-'));
    try {
      const bytes = randomBytes(300_000);
      writeFileSync(join(dir, 'x.iso'), bytes);
      await element(s).uploadImage(
        { name: 'x.iso', imageType: 'ISO_IMAGE', container: CONTAINER, file: join(dir, 'x.iso') },
        quick,
      );
      expect(sha256(upload.bytes!)).toBe(sha256(bytes));
      expect(upload.container).toBe(CONTAINER);
      expect(s.seen.some((r) => r.url.includes('storage_containers'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops before sending bytes when the image is not INACTIVE', async () => {
    const { server } = fakeElement({ state: 'ACTIVE' });
    const s = await server;
    const error = await element(s)
      .uploadImage(
        { name: 'disk', imageType: 'DISK_IMAGE', container: CONTAINER, file: new Blob([new Uint8Array(10)]) },
        quick,
      )
      .catch((e) => e);
    expect(error).toBeInstanceOf(WorkflowError);
    expect(error.message).toMatch(/is ACTIVE; the upload needs INACTIVE/);
    expect(s.seen.some((r) => r.method === 'PUT')).toBe(false);
  });

  it('names an unknown container and the containers that exist', async () => {
    const { server } = fakeElement();
    const s = await server;
    const error = await element(s)
      .uploadImage({ name: 'disk', imageType: 'DISK_IMAGE', container: 'nope', file: new Blob(['x']) }, quick)
      .catch((e) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.argument).toBe('container');
    expect(error.message).toContain('"nope" not found (containers: "SelfServiceContainer", "images")');
  });

  it('rejects bad input naming the field, before calling the service', async () => {
    const { server } = fakeElement();
    const s = await server;
    const client = element(s);
    const cases: [unknown, string][] = [
      [{ name: '', imageType: 'DISK_IMAGE', container: 'c', file: 'x' }, 'name'],
      [{ name: 'x', imageType: 'CD_IMAGE', container: 'c', file: 'x' }, 'imageType'],
      [{ name: 'x', imageType: 'DISK_IMAGE', container: '', file: 'x' }, 'container'],
      [{ name: 'x', imageType: 'DISK_IMAGE', container: 'c' }, 'file'],
      [{ name: 'x', imageType: 'DISK_IMAGE', container: 'c', file: '/no/such/file.iso' }, 'file'],
      [{ name: 'x', imageType: 'DISK_IMAGE', container: 'c', stream: 42 }, 'stream'],
    ];
    for (const [input, argument] of cases) {
      const error = await client.uploadImage(input as never).catch((e) => e);
      expect(error, JSON.stringify(input)).toBeInstanceOf(InvalidArgumentError);
      expect(error.argument).toBe(argument);
    }
    expect(s.seen).toHaveLength(0);
  });

  it('uploadImageFile streams the bytes to PUT /images/{uuid}/file', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200);
      res.end();
    });
    const bytes = randomBytes(1_000_000);
    const client = central(s);
    const seenByMiddleware: string[] = [];
    client.use({
      onRequest: ({ request, schemaPath }) => void seenByMiddleware.push(`${request.method} ${schemaPath}`),
    });
    await client.uploadImageFile(
      IMAGE,
      new ReadableStream({
        start(c) {
          c.enqueue(new Uint8Array(bytes));
          c.close();
        },
      }),
    );
    expect(seenByMiddleware).toEqual(['PUT /images/{uuid}/file']);
    expect(s.seen[0]).toMatchObject({ method: 'PUT', url: `/api/svc/v3/images/${IMAGE}/file` });
    expect(s.seen[0]!.headers['content-type']).toBe('application/octet-stream');
    expect(sha256(s.seen[0]!.body)).toBe(sha256(bytes));
  });
});
