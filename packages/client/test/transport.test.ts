// Connection behaviour against local HTTP and HTTPS servers: retries, timeouts, faults, TLS, errors, credentials.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inspect, promisify } from 'node:util';
import { generate } from 'selfsigned';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  type ClientOptions,
  createCentralClient,
  createElementClient,
  isApiError,
  isIdempotent,
  NetworkError,
  operationTable,
  RequestTimeoutError,
  unwrap,
} from '../src/index.js';
import { type Handler, json, startServer, type TestServer } from './support/server.js';

const IMAGE = 'c2d4b1f5-8a3e-4c6b-9f1d-2e7a5b3c9d10';
const PASSWORD = 'pa55-w0rd-never-shown';
const AUTH_B64 = Buffer.from(`admin:${PASSWORD}`).toString('base64');
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Handler, tls?: { key: string; cert: string }) {
  const s = await startServer(handler, tls);
  servers.push(s);
  return s;
}

const fast = { retries: 3, minDelayMs: 5, maxDelayMs: 50 };
function central(s: TestServer, extra: Partial<ClientOptions> = {}) {
  return createCentralClient({
    baseUrl: `${s.origin}/api/svc/v3`,
    username: 'admin',
    password: PASSWORD,
    retry: fast,
    ...extra,
  } as ClientOptions);
}

const image = {
  api_version: '3.1',
  metadata: { kind: 'image', uuid: IMAGE },
  spec: { name: 'x', resources: {} },
  status: { state: 'COMPLETE' },
};

/** Everything a caller could print: none of it may carry the password or the encoded header. */
function expectNoCredentials(...things: unknown[]) {
  for (const thing of things) {
    const text = [
      String(thing),
      inspect(thing, { depth: 5, showHidden: true }),
      JSON.stringify(thing) ?? '',
      (thing as Error)?.stack ?? '',
    ].join('\n');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(AUTH_B64);
  }
}

describe('retries', () => {
  it('repeats a GET after 503 and returns the 200', async () => {
    let n = 0;
    const s = await serve((_req, res) => (n++ === 0 ? json(res, 503, { message: 'busy' }) : json(res, 200, image)));
    const got = await unwrap(central(s).GET('/images/{uuid}', { params: { path: { uuid: IMAGE } } }));
    expect(got.metadata.uuid).toBe(IMAGE);
    expect(s.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET /api/svc/v3/images/${IMAGE}`,
      `GET /api/svc/v3/images/${IMAGE}`,
    ]);
  });

  it('repeats a list call after 429, honouring Retry-After, with the same body', async () => {
    let n = 0;
    const s = await serve((_req, res) =>
      n++ === 0
        ? json(res, 429, { message: 'slow down' }, { 'Retry-After': '1' })
        : json(res, 200, { api_version: '3.1', metadata: { total_matches: 0 }, entities: [] }),
    );
    const started = Date.now();
    const client = central(s, { retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5000 } });
    await unwrap(client.POST('/images/list', { body: { kind: 'image', offset: 5, length: 2 } }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(s.seen).toHaveLength(2);
    expect(s.seen.map((r) => JSON.parse(r.body.toString()))).toEqual([
      { kind: 'image', offset: 5, length: 2 },
      { kind: 'image', offset: 5, length: 2 },
    ]);
  });

  it('gives up after the configured retries and reports the last 503 as ApiError', async () => {
    const s = await serve((_req, res) =>
      json(res, 503, {
        api_version: '3.1',
        code: 503,
        message_list: [{ message: 'down', reason: 'SERVICE_UNAVAILABLE' }],
        state: 'ERROR',
      }),
    );
    const error = await unwrap(central(s).GET('/images/{uuid}', { params: { path: { uuid: IMAGE } } })).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(503);
    expect(error.reason).toBe('SERVICE_UNAVAILABLE');
    expect(s.seen).toHaveLength(4);
  });

  it('never repeats a create, update, delete or upload', async () => {
    const s = await serve((_req, res) => json(res, 503, { message: 'busy' }));
    const client = central(s);
    const spec = {
      name: 'x',
      resources: { image_type: 'DISK_IMAGE' as const, source_uri: 'https://example.com/x.qcow2' },
    };
    const results = [
      await client.POST('/images', { body: { metadata: { kind: 'image' }, spec } }),
      await client.PUT('/images/{uuid}', {
        params: { path: { uuid: IMAGE } },
        body: { metadata: { kind: 'image' }, spec },
      }),
      await client.DELETE('/images/{uuid}', { params: { path: { uuid: IMAGE } } }),
      await client.PUT('/images/{uuid}/file', {
        params: { path: { uuid: IMAGE } },
        body: new Uint8Array([1, 2, 3]),
        headers: { 'Content-Type': 'application/octet-stream' },
      }),
    ];
    expect(results.map((r) => r.response.status)).toEqual([503, 503, 503, 503]);
    expect(s.seen.map((r) => r.method)).toEqual(['POST', 'PUT', 'DELETE', 'PUT']);
  });

  it('repeats a GET after a connection reset, then reports NetworkError', async () => {
    const s = await serve((_req, res) => void res.socket?.destroy());
    const error = await central(s)
      .GET('/images/{uuid}', { params: { path: { uuid: IMAGE } } })
      .catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.attempts).toBe(4);
    expect(error.operation.operationId).toBe('images_get');
    expect(s.seen).toHaveLength(4);
    expectNoCredentials(error);
  });

  it('does not repeat a create after a connection reset', async () => {
    const s = await serve((_req, res) => void res.socket?.destroy());
    const spec = {
      name: 'x',
      resources: { image_type: 'DISK_IMAGE' as const, source_uri: 'https://example.com/x.qcow2' },
    };
    const error = await central(s)
      .POST('/images', { body: { metadata: { kind: 'image' }, spec } })
      .catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.attempts).toBe(1);
    expect(s.seen).toHaveLength(1);
  });
});

describe('operation identity and what may be repeated', () => {
  it('names and retries the operation openapi-fetch called, even when middleware rewrites the URL', async () => {
    // A gateway middleware moves every call under /gateway: the URL no longer shows the spec path.
    let n = 0;
    const s = await serve((_req, res) =>
      n++ === 0 ? json(res, 503, { message: 'busy' }) : json(res, 404, { message: 'gone' }),
    );
    const client = central(s, {
      middleware: [
        {
          onRequest: ({ request }) =>
            new Request(request.url.replace('/api/svc/v3/', '/gateway/'), {
              method: request.method,
              headers: request.headers,
              body: request.body,
              duplex: 'half',
            } as RequestInit),
        },
      ],
    });
    const error = await unwrap(client.POST('/images/list', { body: { kind: 'image' } })).catch((e) => e);
    expect(s.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /gateway/images/list',
      'POST /gateway/images/list',
    ]);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.operation).toEqual({
      api: 'central',
      method: 'POST',
      path: '/images/list',
      operationId: 'images_list',
    });
  });

  it('keeps the operation when middleware added later with use() replaces the request', async () => {
    const s = await serve(() => {});
    const client = central(s, { timeoutMs: 200, retry: false });
    client.use({
      onRequest: ({ request }) =>
        new Request(request.url.replace('/api/svc/v3/', '/elsewhere/'), {
          method: request.method,
          headers: request.headers,
        }),
    });
    const error = await client.GET('/tasks/{uuid}', { params: { path: { uuid: IMAGE } } }).catch((e) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.operation.operationId).toBe('tasks_get');
    expect(s.seen[0]!.url).toBe(`/elsewhere/tasks/${IMAGE}`);
  });

  it('repeats exactly the operations the spec marks read-only: GET, HEAD and x-svc-idempotent POSTs', () => {
    const posts = Object.entries(operationTable).flatMap(([api, ops]) =>
      ops.filter(([m]) => m === 'POST').map(([, path, id]) => [id, isIdempotent(api as 'central', 'POST', path)]),
    );
    expect(Object.fromEntries(posts)).toMatchObject({
      images_list: true,
      clusters_list: true,
      subnets_list: true,
      tasks_list: true,
      tasks_poll: true,
      tasks_poll_v2_0: true,
      groups_list: true,
      images_create: false,
      images_create_v0_8: false,
      objectstores_create: false,
      objectstores_regenerate_self_signed_cert: false,
    });
    expect(isIdempotent('central', 'GET', '/images/{uuid}')).toBe(true);
    expect(isIdempotent('central', 'DELETE', '/images/{uuid}')).toBe(false);
    expect(isIdempotent('central', 'PUT', '/images/{uuid}/file')).toBe(false);
  });
});

describe('timeouts and aborts', () => {
  it('fails a call to a server slower than timeoutMs with RequestTimeoutError', async () => {
    const s = await serve(() => {}); // never answers
    const error = await central(s, { timeoutMs: 300 })
      .GET('/images/{uuid}', { params: { path: { uuid: IMAGE } } })
      .catch((e) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.timeoutMs).toBe(300);
    expect(error.message).toContain('images_get (GET /images/{uuid})');
  });

  it('applies timeoutMs to an injected fetch through its signal', async () => {
    const hanging = (request: Request) =>
      new Promise<Response>((_, reject) =>
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true }),
      );
    const client = createCentralClient({
      baseUrl: 'https://pc.internal:9440/api/svc/v3',
      username: 'admin',
      password: PASSWORD,
      timeoutMs: 200,
      retry: false,
      fetch: hanging,
    });
    const error = await client.GET('/tasks/{uuid}', { params: { path: { uuid: IMAGE } } }).catch((e) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.operation.operationId).toBe('tasks_get');
  });

  it('limits an upload only when asked, with its own timeoutMs', async () => {
    const s = await serve(() => {}); // takes the bytes, never answers
    const error = await central(s)
      .uploadImageFile(IMAGE, new Uint8Array(1000), { timeoutMs: 300 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.operation.operationId).toBe('images_upload_file');
    expect(s.seen).toHaveLength(1);
  });

  it('rejects with the reason of the client signal', async () => {
    const s = await serve(() => {});
    const controller = new AbortController();
    const call = central(s, { signal: controller.signal }).GET('/images/{uuid}', { params: { path: { uuid: IMAGE } } });
    setTimeout(() => controller.abort(new Error('user gave up')), 100);
    await expect(call).rejects.toThrow('user gave up');
  });

  it('rejects with the reason of the call signal while the body is still arriving', async () => {
    const controller = new AbortController();
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 100 });
      res.write('{"entities":[');
    });
    // A middleware's onResponse runs once the headers are in: the abort comes before the body ends.
    const middleware = [{ onResponse: () => controller.abort(new Error('caller gave up mid-body')) }];
    const call = central(s, { middleware }).GET('/images/{uuid}', {
      params: { path: { uuid: IMAGE } },
      signal: controller.signal,
    });
    await expect(call).rejects.toThrow('caller gave up mid-body');
  });
});

describe('ApiError', () => {
  it('carries status, parsed v3 body, reason and operation, and narrows by status', async () => {
    const body = {
      api_version: '3.1',
      code: 404,
      kind: 'image',
      message_list: [{ message: 'Image not found', reason: 'ENTITY_NOT_FOUND' }],
      state: 'ERROR',
    };
    const s = await serve((_req, res) => json(res, 404, body));
    const error: unknown = await unwrap(central(s).GET('/images/{uuid}', { params: { path: { uuid: IMAGE } } })).catch(
      (e) => e,
    );
    expect(isApiError(error, 404)).toBe(true);
    expect(isApiError(error, 401)).toBe(false);
    if (!isApiError(error, 404)) throw error;
    expect(error.body).toEqual(body);
    expect(error.reason).toBe('ENTITY_NOT_FOUND');
    expect(error.operation).toEqual({
      api: 'central',
      method: 'GET',
      path: '/images/{uuid}',
      operationId: 'images_get',
    });
    expect(error.message).toBe(
      'images_get (GET /images/{uuid}) failed with HTTP 404: ENTITY_NOT_FOUND: Image not found',
    );
  });

  it('keeps the raw text of a non-JSON 401 and never shows credentials', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(401, { 'Content-Type': 'text/html' });
      res.end('<html><body><h1>401 Unauthorized</h1></body></html>');
    });
    const client = central(s);
    const error = await unwrap(client.POST('/images/list', { body: {} })).catch((e) => e);
    expect(isApiError(error, 401)).toBe(true);
    expect(error.body).toBe('<html><body><h1>401 Unauthorized</h1></body></html>');
    const host = new URL(s.origin).host;
    expect(error.message).toBe(
      `images_list (POST /images/list) failed with HTTP 401: 401 Unauthorized. The server at ${host} refused user "admin": check the client's username and password options`,
    );
    expect(s.seen[0]!.headers.authorization).toBe(`Basic ${AUTH_B64}`);
    expectNoCredentials(error, client);
    expect(String(client)).toBe(`CentralClient <${s.origin}/api/svc/v3>`);
  });

  it('names the user and the host a v3 401 refused, and the fix, never the password', async () => {
    const s = await serve((_req, res) =>
      json(res, 401, {
        api_version: '3.1',
        code: 401,
        message_list: [{ reason: 'AUTHENTICATION_REQUIRED', message: 'Authentication required.' }],
        state: 'ERROR',
      }),
    );
    const client = central(s);
    const error = await unwrap(client.GET('/images/{uuid}', { params: { path: { uuid: IMAGE } } })).catch((e) => e);
    expect(isApiError(error, 401)).toBe(true);
    expect(error.message).toBe(
      `images_get (GET /images/{uuid}) failed with HTTP 401: AUTHENTICATION_REQUIRED: Authentication required. The server at ${new URL(s.origin).host} refused user "admin": check the client's username and password options`,
    );
    expect(error.reason).toBe('AUTHENTICATION_REQUIRED');
    expectNoCredentials(error, client);
  });

  it('runs extra middleware after authentication', async () => {
    const s = await serve((_req, res) => json(res, 200, image));
    const seen: string[] = [];
    const client = central(s, {
      middleware: [
        { onRequest: ({ request }) => void seen.push(request.headers.has('authorization') ? 'auth' : 'none') },
      ],
    });
    await unwrap(client.GET('/images/{uuid}', { params: { path: { uuid: IMAGE } } }));
    expect(seen).toEqual(['auth']);
  });
});

describe('middleware sees a request it can use', () => {
  it('reads the body of a clone, and may return a new Request', async () => {
    const s = await serve((_req, res) =>
      json(res, 200, { api_version: '3.1', metadata: { total_matches: 0 }, entities: [] }),
    );
    const bodies: unknown[] = [];
    const client = central(s, {
      middleware: [
        {
          async onRequest({ request }) {
            bodies.push(await request.clone().json());
            return new Request(request.url, {
              method: request.method,
              headers: { ...Object.fromEntries(request.headers), 'X-Trace': 't-1' },
              body: await request.text(),
            });
          },
        },
      ],
    });
    await unwrap(client.POST('/images/list', { body: { kind: 'image', length: 3 } }));
    expect(bodies).toEqual([{ kind: 'image', length: 3 }]);
    expect(s.seen[0]!.headers['x-trace']).toBe('t-1');
    expect(JSON.parse(s.seen[0]!.body.toString())).toEqual({ kind: 'image', length: 3 });
    expect(s.seen[0]!.headers.authorization).toBe(`Basic ${AUTH_B64}`);
  });
});

describe("openapi-fetch's own seams", () => {
  it('middleware gets a real Request: new Request(request) keeps method, headers and body', async () => {
    const s = await serve((_req, res) =>
      json(res, 200, { api_version: '3.1', metadata: { total_matches: 0 }, entities: [] }),
    );
    const real: boolean[] = [];
    const client = central(s);
    client.use({
      onRequest({ request }) {
        real.push(request instanceof Request);
        const copy = new Request(request);
        copy.headers.set('X-Copied', 'yes');
        return copy;
      },
    });
    await unwrap(client.POST('/images/list', { body: { kind: 'image', length: 7 } }));
    expect(real).toEqual([true]);
    expect(s.seen[0]!.headers['x-copied']).toBe('yes');
    expect(s.seen[0]!.headers.authorization).toBe(`Basic ${AUTH_B64}`);
    expect(JSON.parse(s.seen[0]!.body.toString())).toEqual({ kind: 'image', length: 7 });
  });

  it("keeps openapi-fetch's methods: GET, POST, use, eject are the library's own", async () => {
    const { default: createClient } = await import('openapi-fetch');
    const plain = createClient({ baseUrl: 'http://127.0.0.1:9' });
    const client = createCentralClient({ baseUrl: 'http://127.0.0.1:9/api/svc/v3', username: 'u', password: 'p' });
    for (const name of ['GET', 'POST', 'PUT', 'DELETE', 'request', 'use', 'eject'] as const)
      expect(String(client[name]), name).toBe(String(plain[name]));
  });
});

describe("Node's fetch keeps its own dispatcher", () => {
  // A fresh process (the test worker's fetch was loaded long ago), with the built package: a
  // client with its own Agent made first thing, one JSON call, then the check.
  it("a program using the client still sends its own fetch calls through Node's dispatcher", async () => {
    const s = await serve((_req, res) => json(res, 200, image));
    const script = `
      const { createCentralClient } = await import(${JSON.stringify(new URL('../dist/index.js', import.meta.url).href)});
      const client = createCentralClient({ baseUrl: '${s.origin}/api/svc/v3', username: 'u', password: 'p', timeoutMs: 5000 });
      await client.GET('/images/{uuid}', { params: { path: { uuid: '${IMAGE}' } } });
      const { Agent } = await import('undici');
      const dispatcher = globalThis[Symbol.for('undici.globalDispatcher.1')];
      console.log(JSON.stringify({ undiciAgent: dispatcher instanceof Agent, dispatcher: dispatcher?.constructor.name }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    });
    expect(JSON.parse(stdout)).toMatchObject({ undiciAgent: false });
    expect(s.seen).toHaveLength(1);
  });
});

describe('HTTPS with a self-signed certificate', () => {
  async function tlsServer() {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const s = await serve(
      (_req, res) => json(res, 200, { entities: [{ id: 'c::1', storage_container_uuid: IMAGE, name: 'default' }] }),
      { key: pems.private, cert: pems.cert },
    );
    return { s, cert: pems.cert };
  }
  const opts = (port: number) => ({
    host: '127.0.0.1',
    port,
    username: 'admin',
    password: PASSWORD,
    retry: false as const,
  });

  it('verifies certificates by default: a self-signed server is refused at once, naming ca and insecureSkipTlsVerify', async () => {
    const { s } = await tlsServer();
    // Retries on: a certificate that is not trusted is not retried all the same.
    const error = await createElementClient({ ...opts(s.port), retry: { retries: 3, minDelayMs: 400 } })
      .GET('/v2.0/storage_containers')
      .catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ kind: 'tls', code: 'DEPTH_ZERO_SELF_SIGNED_CERT', attempts: 1 });
    expect(error.message).toBe(
      `storage_containers_list_v2_0 (GET /v2.0/storage_containers): TLS verification failed (DEPTH_ZERO_SELF_SIGNED_CERT): the server's certificate is not trusted. Pass its certificate as the "ca" option (PEM), or set "insecureSkipTlsVerify: true" for a lab system you trust; not retried`,
    );
    expect(s.seen).toHaveLength(0);
    expectNoCredentials(error);
  });

  it('works with insecureSkipTlsVerify, through host and port', async () => {
    const { s } = await tlsServer();
    const client = createElementClient({ ...opts(s.port), insecureSkipTlsVerify: true });
    const list = await unwrap(client.GET('/v2.0/storage_containers'));
    expect(list.entities[0]!.name).toBe('default');
    expect(s.seen[0]!.url).toBe('/api/svc/v2.0/storage_containers');
  });

  it('works with the certificate given as ca', async () => {
    const { s, cert } = await tlsServer();
    const client = createElementClient({ ...opts(s.port), ca: cert });
    expect((await unwrap(client.GET('/v2.0/storage_containers'))).entities).toHaveLength(1);
  });
});
