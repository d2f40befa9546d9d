// Hostile or broken peers (issue 15): answers that are not JSON, cut off, empty, stalled or huge;
// options that carry secrets; redirects of writes; servers that ignore paging. Loopback only.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  type ClientOptions,
  ClientOptionsError,
  createCentralClient,
  createElementClient,
  createObjectsClient,
  InvalidResponseError,
  NetworkError,
  PaginationError,
  RedirectError,
  RequestTimeoutError,
  unwrap,
  WorkflowError,
} from '../src/index.js';
import { head, type RawServer, startRawServer } from './support/raw.js';
import { type Handler, json, startServer, type TestServer } from './support/server.js';

const IMAGE = 'c2d4b1f5-8a3e-4c6b-9f1d-2e7a5b3c9d10';
const TASK = '7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60';
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
async function raw(answer: Parameters<typeof startRawServer>[0]): Promise<RawServer> {
  const s = await startRawServer(answer);
  open.push(s);
  return s;
}
async function serve(handler: Handler): Promise<TestServer> {
  const s = await startServer(handler);
  open.push(s);
  return s;
}
const central = (origin: string, extra: Partial<ClientOptions> = {}) =>
  createCentralClient({
    baseUrl: `${origin}/api/svc/v3`,
    username: 'admin',
    password: 'pw',
    retry: false,
    ...extra,
  } as ClientOptions);
const getImage = (client: ReturnType<typeof central>) =>
  client.GET('/images/{uuid}', { params: { path: { uuid: IMAGE } } });
const spec = { name: 'x', resources: { image_type: 'DISK_IMAGE' as const, source_uri: 'https://example.com/x.qcow2' } };

describe('answers that are not what the spec says', () => {
  it('a 200 with malformed JSON is an InvalidResponseError naming the operation and the status', async () => {
    const s = await raw((socket) =>
      socket.end(head('200 OK', { 'Content-Type': 'application/json', 'Content-Length': 12 }) + '{"entities":'),
    );
    const error = await getImage(central(s.origin)).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ kind: 'malformed', status: 200, operation: { operationId: 'images_get' } });
    expect(error.message).toMatch(
      /^images_get \(GET \/images\/\{uuid\}\) answered HTTP 200: the body is not JSON \(application\/json\)/,
    );
  });

  it('a 200 with an HTML page (no length, connection close) is malformed too', async () => {
    const s = await raw((socket) =>
      socket.end(
        head('200 OK', { 'Content-Type': 'text/html', Connection: 'close' }) + '<html><body>Login</body></html>',
      ),
    );
    const error = await central(s.origin)
      .POST('/images/list', { body: {} })
      .catch((e) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.kind).toBe('malformed');
    expect(error.message).toContain(
      'images_list (POST /images/list) answered HTTP 200: the body is not JSON (text/html): "<html><body>Login',
    );
  });

  it('a connection closed mid-body is an InvalidResponseError, not "terminated"', async () => {
    const s = await raw((socket) => {
      socket.write(head('200 OK', { 'Content-Type': 'application/json', 'Content-Length': 1000 }) + '{"metadata":');
      setTimeout(() => socket.destroy(), 20);
    });
    const error = await getImage(central(s.origin)).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ kind: 'incomplete', status: 200, operation: { operationId: 'images_get' } });
  });

  it('an empty 200 where the spec declares JSON is an error; a workflow names the field it misses', async () => {
    const s = await raw((socket) => socket.end(head('200 OK', { 'Content-Length': 0 })));
    const error = await getImage(central(s.origin)).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ kind: 'empty', status: 200 });
    expect(error.message).toContain('images_get (GET /images/{uuid}) answered HTTP 200: the body is empty');
    // Chunked and empty: the same.
    const chunked = await raw((socket) =>
      socket.end(head('202 Accepted', { 'Transfer-Encoding': 'chunked' }) + '0\r\n\r\n'),
    );
    await expect(central(chunked.origin).createImageFromUrl(spec)).rejects.toMatchObject({
      name: 'InvalidResponseError',
      kind: 'empty',
      status: 202,
    });
    // Valid JSON without the fields a workflow needs: it says which.
    const bare = await serve((_req, res) => json(res, 202, {}));
    const missing = await central(bare.origin)
      .createImageFromUrl(spec)
      .catch((e) => e);
    expect(missing).toBeInstanceOf(WorkflowError);
    expect(missing.message).toBe('images_create: the answer carries no metadata.uuid');
    const noStatus = await serve((_req, res) => json(res, 200, { uuid: TASK }));
    await expect(central(noStatus.origin).waitForTask(TASK, { intervalMs: 1 })).rejects.toThrow(
      'tasks_get: the answer carries no status',
    );
    const element = createElementClient({
      baseUrl: `${bare.origin}/api/svc`,
      username: 'admin',
      password: 'pw',
      retry: false,
    });
    await expect(
      element.uploadImage({ name: 'x.iso', imageType: 'ISO_IMAGE', container: TASK, file: new Blob(['x']) }),
    ).rejects.toThrow('images_create_v0_8: the answer carries no taskUuid');
  });

  it('an empty success body is fine where the spec declares none (images_upload_file)', async () => {
    const s = await raw((socket) => socket.end(head('200 OK', { 'Content-Length': 0 })));
    await expect(central(s.origin).uploadImageFile(IMAGE, new Uint8Array([1, 2, 3]))).resolves.toBeUndefined();
  });
});

describe('time and size limits on the body', () => {
  it('timeoutMs bounds a body that stalls (undici bodyTimeout)', async () => {
    const s = await raw((socket) =>
      socket.write(head('200 OK', { 'Content-Type': 'application/json', 'Content-Length': 100 }) + '{"metadata":'),
    );
    // long enough for the headers to arrive first on a busy machine: the message is the body's
    const error = await getImage(central(s.origin, { timeoutMs: 2_000 })).catch((e) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.message).toBe('images_get (GET /images/{uuid}): the body stalled for more than 2000 ms');
  });

  it('with an injected fetch, timeoutMs bounds the body too (the timer runs until it is read)', async () => {
    const s = await raw((socket) =>
      socket.write(head('200 OK', { 'Content-Type': 'application/json', 'Content-Length': 100 }) + '{"metadata":'),
    );
    // A fetch of its own that knows nothing of the client's dispatcher, only the signal.
    const injected = (request: Request) =>
      fetch(request.url, { method: request.method, headers: request.headers, signal: request.signal });
    const error = await getImage(central(s.origin, { timeoutMs: 300, fetch: injected })).catch((e) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.operation.operationId).toBe('images_get');
  });

  it('with an injected fetch that drops the signal, timeoutMs still bounds the body', async () => {
    // undici links a Request's signal to its source weakly: after a garbage collection the abort
    // no longer reaches the body. A fetch that passes no signal at all behaves the same, always.
    const s = await raw((socket) =>
      socket.write(head('200 OK', { 'Content-Type': 'application/json', 'Content-Length': 100 }) + '{"metadata":'),
    );
    const injected = (request: Request) => fetch(request.url, { method: request.method, headers: request.headers });
    const error = await getImage(central(s.origin, { timeoutMs: 300, fetch: injected })).catch((e) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.operation.operationId).toBe('images_get');
  });

  it('with an injected fetch that waits only on its Request signal, an abort ends the call after a GC', async () => {
    // undici makes the Request's signal follow the call's weakly: once the fetch's promise, the
    // Request and its listener are garbage, the abort reaches nobody (seen as a 20-minute CI hang).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let calls = 0;
    const injected = (request: Request) =>
      new Promise<Response>((_, reject) => {
        calls++;
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
      });
    const controller = new AbortController();
    let outcome: unknown = 'pending';
    central('http://127.0.0.1:9', { fetch: injected })
      .GET('/images/{uuid}', { params: { path: { uuid: IMAGE } }, signal: controller.signal })
      .then(
        () => (outcome = 'answered'),
        (error: unknown) => (outcome = error),
      );
    await expect.poll(() => calls).toBe(1);
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((r) => setImmediate(r));
    }
    controller.abort(new Error('the caller gave up'));
    // settles in microtasks after the abort, or never
    await expect.poll(() => outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toBe('the caller gave up');
  });

  it('an error keeps at most 64 KiB of its body, noting the length', async () => {
    const page = `<html>${'x'.repeat(4 * 1024 * 1024)}</html>`;
    const s = await raw((socket) =>
      socket.end(
        head('500 Internal Server Error', { 'Content-Type': 'text/html', 'Content-Length': page.length }) + page,
      ),
    );
    const error = await unwrap(getImage(central(s.origin))).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(500);
    expect(error.body.length).toBeLessThan(64 * 1024 + 200);
    expect(error.body).toMatch(/\[@svc\/client: error body cut to its first 65536 bytes of 4194317\]$/);
  });

  it('maxResponseBytes refuses a larger body, declared or streamed', async () => {
    const big = JSON.stringify({ entities: ['y'.repeat(2 * 1024 * 1024)] });
    const declared = await raw((socket) =>
      socket.end(head('200 OK', { 'Content-Type': 'application/json', 'Content-Length': big.length }) + big),
    );
    const streamed = await raw((socket) =>
      socket.end(head('200 OK', { 'Content-Type': 'application/json', Connection: 'close' }) + big),
    );
    for (const s of [declared, streamed]) {
      const error = await central(s.origin, { maxResponseBytes: 1024 * 1024 })
        .POST('/images/list', { body: {} })
        .catch((e) => e);
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error.kind).toBe('too-large');
      expect(error.message).toContain('maxResponseBytes');
    }
    // An error body keeps no more than the limit either.
    const page = 'e'.repeat(8192);
    const failing = await raw((socket) =>
      socket.end(
        head('500 Internal Server Error', { 'Content-Type': 'text/plain', 'Content-Length': page.length }) + page,
      ),
    );
    const error = await unwrap(
      central(failing.origin, { maxResponseBytes: 1024 }).POST('/images/list', { body: {} }),
    ).catch((e) => e);
    expect(error.body).toBe(`${'e'.repeat(1024)}\n[@svc/client: error body cut to its first 1024 bytes of 8192]`);
    const { data } = await central(declared.origin).POST('/images/list', { body: {} });
    expect((data?.entities?.[0] as unknown as string)?.length).toBe(2 * 1024 * 1024);
  });
});

describe('options never echo secrets', () => {
  const cases: [string, Partial<ClientOptions>][] = [
    ['credentials without a scheme', { baseUrl: 'admin:Sup3r/S3cret@pc:9440/api/svc/v3' }],
    ['a password with "/"', { baseUrl: 'https://admin:Sup3r/S3cret@pc:9440/api/svc/v3' }],
    ['a password with "@"', { baseUrl: 'https://admin:Sup3r@S3cret@pc:9440/api/svc/v3' }],
    ['a password with both, malformed', { baseUrl: 'https://admin:Sup3r/@S3cret@@pc:x/api' }],
    ['credentials in host', { baseUrl: undefined, host: 'admin:Sup3r/S3cret@pc' } as Partial<ClientOptions>],
  ];
  for (const [name, given] of cases) {
    it(`rejects ${name}, saying to use username/password, showing neither`, () => {
      let thrown: unknown;
      try {
        createCentralClient({ username: 'u', password: 'p', ...given } as ClientOptions);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(ClientOptionsError);
      const message = (thrown as Error).message;
      expect(message).toMatch(/must not carry credentials .*pass username and password instead/);
      expect(message).not.toMatch(/Sup3r|S3cret|admin/);
    });
  }
});

describe('redirects of writes', () => {
  it('a create, update or delete follows no redirect: RedirectError, nothing sent to the Location', async () => {
    const elsewhere = await serve((_req, res) => json(res, 202, {}));
    const s = await serve((req, res) => {
      const location = req.method === 'DELETE' ? `${elsewhere.origin}${req.url}` : '/api/svc/v3/images-moved';
      res.writeHead(req.method === 'DELETE' ? 308 : 307, { Location: location });
      res.end();
    });
    const client = central(s.origin, { retry: { retries: 3, minDelayMs: 1, maxDelayMs: 2 } });
    const post = await client.POST('/images', { body: { metadata: { kind: 'image' }, spec } }).catch((e) => e);
    const del = await client.DELETE('/images/{uuid}', { params: { path: { uuid: IMAGE } } }).catch((e) => e);
    expect(post).toBeInstanceOf(RedirectError);
    expect(post).toMatchObject({ kind: 'redirect', status: 307, redirects: 1, location: '/api/svc/v3/images-moved' });
    expect(post.message).toBe(
      'images_create (POST /images) answered HTTP 307: a POST follows no redirect (only GET and HEAD do); it leads to /api/svc/v3/images-moved; not followed',
    );
    expect(del).toMatchObject({
      name: 'RedirectError',
      status: 308,
      location: `${elsewhere.origin}/api/svc/v3/images/${IMAGE}`,
    });
    expect(s.seen.map((r) => r.method)).toEqual(['POST', 'DELETE']);
    expect(elsewhere.seen).toHaveLength(0);
  });

  it('an upload follows no redirect either, and keeps none of its bytes for one', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(307, { Location: '/api/svc/v3/elsewhere' });
      res.end();
    });
    const error = await central(s.origin)
      .uploadImageFile(IMAGE, new Uint8Array([1, 2, 3]))
      .catch((e) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toMatchObject({ operation: { operationId: 'images_upload_file' }, redirects: 1 });
    expect(error.message).toBe(
      'images_upload_file (PUT /images/{uuid}/file) was redirected: a PUT follows no redirect (only GET and HEAD do); not followed',
    );
    expect(s.seen).toHaveLength(1);
  });
});

describe('redirects of reads (followed as fetch follows them)', () => {
  it('follows a 302 of a GET on the same origin, with the credentials', async () => {
    const s = await serve((req, res) => {
      if (req.url === `/api/svc/v3/images/${IMAGE}`) {
        res.writeHead(302, { Location: `/api/svc/v3/images/${IMAGE}?moved=1` });
        res.end();
        return;
      }
      json(res, 200, { metadata: { uuid: IMAGE }, spec, status: { state: 'COMPLETE' } });
    });
    const { data, response } = await getImage(central(s.origin));
    expect(data?.metadata.uuid).toBe(IMAGE);
    expect(response.status).toBe(200);
    expect(s.seen.map((r) => r.url)).toEqual([`/api/svc/v3/images/${IMAGE}`, `/api/svc/v3/images/${IMAGE}?moved=1`]);
    expect(s.seen[1]!.headers.authorization).toMatch(/^Basic /);
  });

  it('follows a GET to another origin without the credentials', async () => {
    const elsewhere = await serve((_req, res) => json(res, 200, { metadata: { uuid: IMAGE }, spec, status: {} }));
    const s = await serve((req, res) => {
      res.writeHead(301, { Location: `${elsewhere.origin}${req.url}` });
      res.end();
    });
    const { data } = await getImage(central(s.origin));
    expect(data?.metadata.uuid).toBe(IMAGE);
    expect(elsewhere.seen).toHaveLength(1);
    expect(elsewhere.seen[0]!.headers.authorization).toBeUndefined();
  });

  it('an error answer keeps its status text', async () => {
    const s = await raw((socket) =>
      socket.end(head('404 Not Here', { 'Content-Type': 'application/json', 'Content-Length': 2 }) + '{}'),
    );
    const { error, response } = await getImage(central(s.origin));
    expect(error).toEqual({});
    expect(response).toBeInstanceOf(Response);
    expect(response).toMatchObject({ status: 404, statusText: 'Not Here' });
  });

  it('a status text that Response() refuses (UTF-8 beyond Latin-1) is left out; the answer is used', async () => {
    const s = await raw((socket) =>
      socket.end(Buffer.from(`${head('200 fine ✓', { 'Content-Type': 'application/json', 'Content-Length': 2 })}{}`)),
    );
    const { data, response } = await getImage(central(s.origin));
    expect(data).toEqual({});
    expect(response).toMatchObject({ status: 200, statusText: '' });
  });

  it('a status over 599 is an InvalidResponseError, not retried', async () => {
    const s = await raw((socket) =>
      socket.end(head('600 Odd', { 'Content-Type': 'application/json', 'Content-Length': 9 }) + '{"x":600}'),
    );
    const error = await getImage(central(s.origin, { retry: { retries: 3, minDelayMs: 1 } })).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ status: 600, kind: 'malformed' });
    expect(error.message).toBe(
      'images_get (GET /images/{uuid}) answered HTTP 600: the status 600 is not an HTTP status (100-599)',
    );
    expect(s.requests).toHaveLength(1);
  });
});

describe('failures that cannot heal are not retried', () => {
  it('answer headers over the parser limit fail at once with NetworkError kind headers-too-large', async () => {
    const s = await raw((socket) =>
      socket.end(head('200 OK', { 'Content-Type': 'application/json', 'X-Padding': 'x'.repeat(64 * 1024) }) + '{}'),
    );
    const retry = { retries: 3, minDelayMs: 400, maxDelayMs: 400 };
    const error = await getImage(central(s.origin, { retry })).catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ kind: 'headers-too-large', code: 'UND_ERR_HEADERS_OVERFLOW', attempts: 1 });
    expect(error.message).toMatch(
      /^images_get \(GET \/images\/\{uuid\}\): the answer's headers are larger than the HTTP parser accepts \(UND_ERR_HEADERS_OVERFLOW; .*\); not retried$/,
    );
    expect(s.requests).toHaveLength(1);
  });

  it('a refused connection is still retried (it may heal)', async () => {
    const s = await raw((socket) => socket.destroy());
    const retry = { retries: 2, minDelayMs: 1, maxDelayMs: 2 };
    const error = await getImage(central(s.origin, { retry })).catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ kind: 'connection', attempts: 3 });
    expect(s.requests).toHaveLength(3);
  });
});

describe('paging against a server that ignores the offset', () => {
  it('stops with PaginationError when a page repeats', async () => {
    const entities = [{ metadata: { kind: 'image', uuid: IMAGE } }, { metadata: { kind: 'image', uuid: TASK } }];
    const s = await serve((_req, res) =>
      json(res, 200, { api_version: '3.1', metadata: { total_matches: 1000 }, entities }),
    );
    const got: unknown[] = [];
    const error = await (async () => {
      for await (const image of central(s.origin).paginate('/images/list', {}, { pageSize: 2 })) got.push(image);
    })().catch((e) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.message).toBe(
      `images_list (POST /images/list): page at offset 2 repeats only entities already seen (${IMAGE}): the server ignores offset, or more entities were created since the last page than a page holds`,
    );
    expect(got).toHaveLength(2);
    expect(s.seen).toHaveLength(2);
  });

  it('stops with PaginationError when a page goes past total_matches', async () => {
    const entities = Array.from({ length: 5 }, (_, i) => ({
      metadata: { kind: 'image', uuid: `00000000-0000-4000-8000-00000000000${i}` },
    }));
    const s = await serve((_req, res) =>
      json(res, 200, { api_version: '3.1', metadata: { total_matches: 3 }, entities }),
    );
    const error = await (async () => {
      for await (const _ of central(s.origin).paginate('/images/list', {}, { pageSize: 2 }));
    })().catch((e) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.message).toContain('brings 5 entities, past the total of 3 it announces');
  });

  /** Runs a paging loop to its end: what it yielded, and how it stopped. */
  async function drain<E>(iterator: AsyncIterable<E>): Promise<{ got: E[]; error: unknown }> {
    const got: E[] = [];
    try {
      for await (const e of iterator) got.push(e);
      return { got, error: undefined };
    } catch (error) {
      return { got, error };
    }
  }
  const uuidAt = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

  it('stops at maxItems (100 000 by default) against a server announcing endless entities', async () => {
    // A billion entities announced, each page fresh UUIDs: only the item limit ends the loop.
    const s = await serve((req, res) => {
      const { offset, length } = JSON.parse(req.body.toString());
      const entities = Array.from({ length }, (_, i) => ({ metadata: { kind: 'image', uuid: uuidAt(offset + i) } }));
      json(res, 200, { api_version: '3.1', metadata: { total_matches: 1_000_000_000 }, entities });
    });
    const { got, error } = await drain(central(s.origin).paginate('/images/list', {}, { pageSize: 40, maxItems: 100 }));
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toBe(
      'images_list (POST /images/list): page at offset 100 would pass maxItems (100 entities yielded); raise maxItems or narrow the query',
    );
    expect(got).toHaveLength(100);
    expect(new Set(got.map((e) => e.metadata.uuid)).size).toBe(100);
    expect(s.seen).toHaveLength(3);
    // the default: 100 000 yielded, then the error (1 000 pages of 100 on loopback)
    const big = await drain(central(s.origin).paginate('/images/list', {}, { pageSize: 1000 }));
    expect(big.error).toBeInstanceOf(PaginationError);
    expect(big.got).toHaveLength(100_000);
  });

  it('never yields a duplicate: pages that overlap (as after a create) are skipped where seen', async () => {
    // Pages of 10 that move on by 9: each page repeats the last entity of the one before.
    const s = await serve((req, res) => {
      const { offset, length } = JSON.parse(req.body.toString());
      const from = Math.max(0, offset - offset / 10);
      const entities = Array.from({ length }, (_, i) => ({ metadata: { kind: 'image', uuid: uuidAt(from + i) } }));
      json(res, 200, { api_version: '3.1', metadata: { total_matches: 1000 }, entities });
    });
    const { got, error } = await drain(central(s.origin).paginate('/images/list', {}, { pageSize: 10 }));
    expect(error).toBeUndefined();
    expect(got.map((e) => e.metadata.uuid)).toEqual(Array.from({ length: 901 }, (_, i) => uuidAt(i)));
  });

  it('refuses a page that holds the same entity twice, before yielding any of it', async () => {
    const twice = { metadata: { kind: 'image', uuid: IMAGE } };
    const s = await serve((_req, res) =>
      json(res, 200, { api_version: '3.1', metadata: { total_matches: 2 }, entities: [twice, twice] }),
    );
    const { got, error } = await drain(central(s.origin).paginate('/images/list'));
    expect(error).toBeInstanceOf(PaginationError);
    expect(got).toEqual([]);
  });

  it('stops with PaginationError at an empty page before total_matches', async () => {
    const s = await serve((req, res) => {
      const { offset, length } = JSON.parse(req.body.toString());
      const entities =
        offset === 0 ? Array.from({ length }, (_, i) => ({ metadata: { kind: 'image', uuid: uuidAt(i) } })) : [];
      json(res, 200, { api_version: '3.1', metadata: { total_matches: 1000 }, entities });
    });
    const { got, error } = await drain(central(s.origin).paginate('/images/list'));
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toBe(
      'images_list (POST /images/list): page at offset 100 is empty, but the server announces 1000 entities: the list ends early',
    );
    expect(got).toHaveLength(100);
  });

  it('checks maxItems when the iterator is made', () => {
    const client = central('http://127.0.0.1:9');
    for (const maxItems of [0, -1, 1.5, Number.NaN])
      expect(() => client.paginate('/images/list', {}, { maxItems })).toThrow(
        /argument "maxItems" must be a positive integer or Infinity/,
      );
  });

  it('stops the groups listing too', async () => {
    const s = await serve((_req, res) =>
      json(res, 200, { group_results: [{ entity_results: [{ entity_id: 'a', data: [] }] }] }),
    );
    const client = createObjectsClient({
      baseUrl: `${s.origin}/oss/api/svc/v3`,
      username: 'admin',
      password: 'pw',
      retry: false,
    });
    const error = await (async () => {
      for await (const _ of client.paginateGroups({ entity_type: 'objectstore' }, { pageSize: 1 }));
    })().catch((e) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.operation).toBe('groups_list (POST /groups)');
    expect(s.seen).toHaveLength(2);
  });
});
