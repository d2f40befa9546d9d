// The control client (`/_svc`) with an injected fetch: what each method sends and what it returns.
import { describe, expect, it } from 'vitest';
import { ApiError, createControlClient, InvalidArgumentError, isApiError } from '../src/index.js';

type Answer = { status?: number; body?: unknown; bytes?: Uint8Array<ArrayBuffer>; headers?: Record<string, string> };

/** A fetch that records each request (its body read) and answers the next of `answers` (the last one repeats). */
function fakeFetch(...answers: Answer[]) {
  const seen: { method: string; url: string; headers: Headers; body: Uint8Array }[] = [];
  const fetch = async (request: Request) => {
    seen.push({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: new Uint8Array(await request.arrayBuffer()),
    });
    const a = answers[Math.min(seen.length - 1, answers.length - 1)] ?? {};
    const status = a.status ?? 200;
    if (a.bytes)
      return new Response(a.bytes, { status, headers: { 'Content-Type': 'application/x-tar', ...a.headers } });
    if (a.body === undefined) return new Response(null, { status, headers: a.headers });
    return new Response(JSON.stringify(a.body), {
      status,
      headers: { 'Content-Type': 'application/json', ...a.headers },
    });
  };
  return { seen, fetch };
}

const options = { baseUrl: 'https://127.0.0.1:9440/_svc', username: 'admin', password: 's3cret' };
const basic = `Basic ${Buffer.from('admin:s3cret').toString('base64')}`;
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const TASK = '7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60';

describe('createControlClient', () => {
  it('builds https://<host>:9440/_svc from host, with basic auth', async () => {
    const { seen, fetch } = fakeFetch({
      body: { status: 'ok', version: '0.1.0', uptime_seconds: 3, entities: { image: 0, task: 0, object_store: 0 } },
    });
    const control = createControlClient({ host: 'sim.local', username: 'admin', password: 's3cret', fetch });
    expect((await control.health()).status).toBe('ok');
    expect(seen[0]).toMatchObject({ method: 'GET', url: 'https://sim.local:9440/_svc/health' });
    expect(seen[0]!.headers.get('authorization')).toBe(basic);
    expect(String(control)).toBe('ControlClient <https://sim.local:9440/_svc>');
  });

  it('reset() posts {} and returns what was removed; reset(kinds) names them', async () => {
    const { seen, fetch } = fakeFetch(
      { body: { removed: { image: 2, task: 3, object_store: 0 } } },
      {
        body: { removed: { image: 1 } },
      },
    );
    const control = createControlClient({ ...options, fetch });
    expect(await control.reset()).toEqual({ image: 2, task: 3, object_store: 0 });
    expect(await control.reset(['image'])).toEqual({ image: 1 });
    expect(seen.map((s) => [s.method, s.url, s.headers.get('content-type'), text(s.body)])).toEqual([
      ['POST', 'https://127.0.0.1:9440/_svc/reset', 'application/json', '{}'],
      ['POST', 'https://127.0.0.1:9440/_svc/reset', 'application/json', '{"kinds":["image"]}'],
    ]);
  });

  it('reset([]) is refused before any call, naming kinds', async () => {
    const { seen, fetch } = fakeFetch({ body: {} });
    const control = createControlClient({ ...options, fetch });
    await expect(control.reset([])).rejects.toThrow(InvalidArgumentError);
    await expect(control.reset([])).rejects.toThrow(/kinds/);
    expect(seen).toEqual([]);
  });

  it('requests(filter) sends the filters as the query and returns the journal', async () => {
    const journal = { total: 0, entries: [] };
    const { seen, fetch } = fakeFetch({ body: journal });
    const control = createControlClient({ ...options, fetch });
    expect(await control.requests({ operation_id: 'images_list', status: 503, valid: false, limit: 5 })).toEqual(
      journal,
    );
    const url = new URL(seen[0]!.url);
    expect(url.pathname).toBe('/_svc/requests');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      operation_id: 'images_list',
      status: '503',
      valid: 'false',
      limit: '5',
    });
  });

  it('clearRequests() deletes the journal and takes the 204', async () => {
    const { seen, fetch } = fakeFetch({ status: 204 });
    const control = createControlClient({ ...options, fetch });
    await expect(control.clearRequests()).resolves.toBeUndefined();
    expect(seen.map((s) => `${s.method} ${new URL(s.url).pathname}`)).toEqual(['DELETE /_svc/requests']);
  });

  it('faults.set/get/clear: PUT the rules with a seed, GET them, DELETE them', async () => {
    const rules = [{ operation_id: 'images_list', status: 503, probability: 1, count: 2 }];
    const { seen, fetch } = fakeFetch(
      { body: { rules, seed: 7 } },
      { body: { rules: [{ ...rules[0], count: 1, hits: 1 }] } },
      { status: 204 },
    );
    const control = createControlClient({ ...options, fetch });
    expect(await control.faults.set(rules, { seed: 7 })).toEqual({ rules, seed: 7 });
    expect((await control.faults.get()).rules[0]).toMatchObject({ count: 1, hits: 1 });
    await control.faults.clear();
    expect(seen.map((s) => `${s.method} ${new URL(s.url).pathname} ${text(s.body)}`)).toEqual([
      `PUT /_svc/faults ${JSON.stringify({ rules, seed: 7 })}`,
      'GET /_svc/faults ',
      'DELETE /_svc/faults ',
    ]);
  });

  it('faults.set refuses a non-array before any call', () => {
    const { seen, fetch } = fakeFetch({ body: {} });
    const control = createControlClient({ ...options, fetch });
    // @ts-expect-error the rules are an array
    expect(() => control.faults.set({ status: 503, probability: 1 })).toThrow(/rules/);
    expect(seen).toEqual([]);
  });

  it('completeTask posts the status and error_detail; 409 is an ApiError naming tasks_complete', async () => {
    const ended = {
      api_version: '3.1',
      code: 409,
      message_list: [{ reason: 'TASK_ALREADY_ENDED', message: 'task has ended already.' }],
      state: 'ERROR',
    };
    const { seen, fetch } = fakeFetch({ body: { task_uuid: TASK, status: 'FAILED' } }, { status: 409, body: ended });
    const control = createControlClient({ ...options, fetch });
    expect(await control.completeTask(TASK, 'FAILED', { errorDetail: 'no source' })).toEqual({
      task_uuid: TASK,
      status: 'FAILED',
    });
    expect(seen[0]!.url).toBe(`https://127.0.0.1:9440/_svc/tasks/${TASK}/complete`);
    expect(JSON.parse(text(seen[0]!.body))).toEqual({ status: 'FAILED', error_detail: 'no source' });
    const failure = await control.completeTask(TASK, 'SUCCEEDED').catch((e) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(isApiError(failure, 409)).toBe(true);
    expect(failure.message).toMatch(/tasks_complete \(POST \/tasks\/\{uuid\}\/complete\).*409.*TASK_ALREADY_ENDED/);
  });

  it('completeTask refuses a bad UUID or status before any call', () => {
    const { seen, fetch } = fakeFetch({ body: {} });
    const control = createControlClient({ ...options, fetch });
    expect(() => control.completeTask('not-a-uuid', 'SUCCEEDED')).toThrow(/uuid/);
    // @ts-expect-error ABORTED is not an end this call gives
    expect(() => control.completeTask(TASK, 'ABORTED')).toThrow(/SUCCEEDED or FAILED/);
    expect(seen).toEqual([]);
  });

  it('snapshot() streams the archive, past maxResponseBytes', async () => {
    const bytes = new Uint8Array(4096).map((_, i) => i % 251);
    const { seen, fetch } = fakeFetch({ bytes });
    const control = createControlClient({ ...options, fetch, maxResponseBytes: 1024 });
    const stream = await control.snapshot();
    expect(new Uint8Array(await new Response(stream).arrayBuffer())).toEqual(bytes);
    expect(seen.map((s) => `${s.method} ${new URL(s.url).pathname}`)).toEqual(['GET /_svc/snapshot']);
  });

  it('restore(bytes) puts them as application/x-tar and returns the counts; a 400 is not retried', async () => {
    const refused = {
      api_version: '3.1',
      code: 400,
      message_list: [{ reason: 'SNAPSHOT_INVALID', message: 'The snapshot is refused: entry 1 "x": ...' }],
      state: 'ERROR',
    };
    const { seen, fetch } = fakeFetch(
      { body: { entities: { image: 1, task: 1, object_store: 0 } } },
      { status: 400, body: refused },
    );
    const control = createControlClient({ ...options, fetch });
    const archive = new Uint8Array([1, 2, 3, 250]);
    expect(await control.restore(archive)).toEqual({ image: 1, task: 1, object_store: 0 });
    expect(seen[0]!.method).toBe('PUT');
    expect(seen[0]!.headers.get('content-type')).toBe('application/x-tar');
    expect(seen[0]!.body).toEqual(archive);
    const failure = await control.restore(archive).catch((e) => e);
    expect(isApiError(failure, 400)).toBe(true);
    expect(failure.message).toMatch(/snapshot_upload.*SNAPSHOT_INVALID/);
    expect(seen).toHaveLength(2);
  });

  it('settings.set/get: PUT and GET /settings', async () => {
    const { seen, fetch } = fakeFetch({ body: { task_seconds: 0 } });
    const control = createControlClient({ ...options, fetch });
    expect(await control.settings.set({ task_seconds: 0 })).toEqual({ task_seconds: 0 });
    expect(await control.settings.get()).toEqual({ task_seconds: 0 });
    expect(seen.map((s) => `${s.method} ${new URL(s.url).pathname} ${text(s.body)}`)).toEqual([
      'PUT /_svc/settings {"task_seconds":0}',
      'GET /_svc/settings ',
    ]);
  });

  it('repeats a read (requests) on 503, never a write (reset)', async () => {
    const busy = { status: 503, body: { api_version: '3.1', code: 503, message_list: [], state: 'ERROR' } };
    const retry = { retries: 1, minDelayMs: 1, maxDelayMs: 1 };
    const reads = fakeFetch(busy, { body: { total: 0, entries: [] } });
    await createControlClient({ ...options, fetch: reads.fetch, retry }).requests();
    expect(reads.seen).toHaveLength(2);
    const writes = fakeFetch(busy);
    const failure = await createControlClient({ ...options, fetch: writes.fetch, retry })
      .reset()
      .catch((e) => e);
    expect(isApiError(failure, 503)).toBe(true);
    expect(writes.seen).toHaveLength(1);
  });
});
