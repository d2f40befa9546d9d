// Three defects a lying server showed (issue 45), each against a loopback server: interim answers
// that never end, redirects that never end, and a list that changes while it is paged.
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ClientOptions,
  createCentralClient,
  InvalidResponseError,
  PaginationError,
  RedirectError,
  RequestTimeoutError,
} from '../src/index.js';
import { head, type RawServer, startRawServer } from './support/raw.js';
import { json, startServer, type TestServer } from './support/server.js';

const IMAGE = 'c2d4b1f5-8a3e-4c6b-9f1d-2e7a5b3c9d10';
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
const central = (origin: string, extra: Partial<ClientOptions> = {}) =>
  createCentralClient({
    baseUrl: `${origin}/api/svc/v3`,
    username: 'admin',
    password: 'pw',
    // Retries on, fast: what is never retried shows in the count of requests.
    retry: { retries: 3, minDelayMs: 1, maxDelayMs: 5 },
    ...extra,
  } as ClientOptions);

describe('interim answers cannot stretch the deadline', () => {
  it('a server that only ever sends 103 Early Hints fails a GET with timeoutMs as RequestTimeoutError', async () => {
    const timers = new Set<ReturnType<typeof setInterval>>();
    let hints = 0;
    const s: RawServer = await startRawServer((socket: Socket) => {
      // One 103 now and one every 200 ms: each restarts undici's headers timer, none is the answer.
      const send = () => {
        hints++;
        socket.write(head('103 Early Hints', { Link: '</style.css>; rel=preload' }));
      };
      send();
      const timer = setInterval(send, 200);
      timers.add(timer);
      socket.on('close', () => clearInterval(timer));
    });
    open.push({
      close: () => {
        for (const timer of timers) clearInterval(timer);
        return s.close();
      },
    });
    const call = central(s.origin, { timeoutMs: 1000 }).GET('/images/{uuid}', { params: { path: { uuid: IMAGE } } });
    // A bound on the test, not on the client: 1 s is asked for; 30 s of hints means it did not hold.
    let guard: ReturnType<typeof setTimeout> | undefined;
    const outlived = new Promise((resolve) => {
      guard = setTimeout(() => resolve(new Error(`the call outlived 30 s of 103 Early Hints (${hints} sent)`)), 30_000);
    });
    const error = await Promise.race([
      call.then(
        () => new Error('the call answered'),
        (e: unknown) => e,
      ),
      outlived,
    ]);
    clearTimeout(guard);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 1000, operation: { operationId: 'images_get' } });
    expect(hints).toBeGreaterThan(0);
  });
});

describe('redirects that never end are one RedirectError, never retried', () => {
  async function redirecting(answer: (hop: number) => { status: number; location?: string }): Promise<TestServer> {
    const s = await startServer((req, res) => {
      const hop = Number(new URL(req.url, 'http://x').searchParams.get('hop') ?? 0);
      const { status, location } = answer(hop);
      if (status === 200) return json(res, 200, { metadata: { uuid: IMAGE }, spec: {}, status: {} });
      res.writeHead(status, location ? { Location: location } : {});
      res.end();
    });
    open.push(s);
    return s;
  }
  const path = `/api/svc/v3/images/${IMAGE}`;
  const getImage = (s: TestServer) => central(s.origin).GET('/images/{uuid}', { params: { path: { uuid: IMAGE } } });

  it('a read redirected to itself: RedirectError naming the count and the location, one request', async () => {
    const s = await redirecting(() => ({ status: 302, location: path }));
    const error = await getImage(s).catch((e) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ kind: 'redirect', status: 302, redirects: 1, location: path });
    expect(error.message).toBe(
      `images_get (GET /images/{uuid}) answered HTTP 302: a redirect loop: redirect 1 leads to ${path}, already requested; not followed`,
    );
    expect(s.seen).toHaveLength(1);
  });

  it('a loop over two URLs: the count and the last location', async () => {
    const s = await redirecting((hop) => ({ status: 307, location: hop === 0 ? `${path}?hop=1` : path }));
    const error = await getImage(s).catch((e) => e);
    expect(error).toMatchObject({ name: 'RedirectError', redirects: 2, location: path, status: 307 });
    expect(s.seen.map((r) => r.url)).toEqual([path, `${path}?hop=1`]);
  });

  it('a chain of 21 redirects: RedirectError at the limit of 20, 21 requests', async () => {
    const s = await redirecting((hop) =>
      hop < 21 ? { status: 302, location: `${path}?hop=${hop + 1}` } : { status: 200 },
    );
    const error = await getImage(s).catch((e) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toMatchObject({ status: 302, redirects: 21, location: `${path}?hop=21` });
    expect(error.message).toBe(
      `images_get (GET /images/{uuid}) answered HTTP 302: more than 20 redirects, the limit; the last leads to ${path}?hop=21; not followed`,
    );
    expect(s.seen).toHaveLength(21);
  });

  it('a chain of 20 redirects is followed to its answer', async () => {
    const s = await redirecting((hop) =>
      hop < 20 ? { status: 301, location: `${path}?hop=${hop + 1}` } : { status: 200 },
    );
    const { data, response } = await getImage(s);
    expect(response.status).toBe(200);
    expect(data?.metadata.uuid).toBe(IMAGE);
    expect(s.seen).toHaveLength(21);
  });
});

describe('statuses that answer nothing the client asked are one InvalidResponseError naming the status', () => {
  const calls = (origin: string) => {
    const client = central(origin);
    return {
      'GET images_get': () => client.GET('/images/{uuid}', { params: { path: { uuid: IMAGE } } }),
      'POST images_list': () => client.POST('/images/list', { body: { kind: 'image' } }),
    };
  };

  it('304 Not Modified to a call that was not conditional: not retried', async () => {
    const s = await startServer((_req, res) => {
      res.writeHead(304, { ETag: '"x"' });
      res.end();
    });
    open.push(s);
    for (const [name, call] of Object.entries(calls(s.origin))) {
      const error = await call().catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(InvalidResponseError);
      expect(error, name).toMatchObject({ kind: 'status', status: 304 });
      expect((error as Error).message, name).toMatch(/ answered HTTP 304: Not Modified, /);
    }
    expect(s.seen).toHaveLength(2);
  });

  for (const [kind, headers] of [
    ['with Upgrade', { Upgrade: 'websocket', Connection: 'Upgrade' }],
    ['without Upgrade', {}],
  ] as const)
    it(`101 Switching Protocols ${kind} to a call that asked for no switch: not retried`, async () => {
      const s = await startRawServer((socket: Socket) => socket.write(head('101 Switching Protocols', headers)));
      open.push(s);
      for (const [name, call] of Object.entries(calls(s.origin))) {
        const error = await call().catch((e: unknown) => e);
        expect(error, name).toBeInstanceOf(InvalidResponseError);
        expect(error, name).toMatchObject({ kind: 'status', status: 101 });
        expect((error as Error).message, name).toMatch(/ answered HTTP 101: Switching Protocols, /);
      }
      expect(s.requests).toHaveLength(2);
    });
});

describe('paging a live newest-first list', () => {
  const uuidAt = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  /**
   * A newest-first list of `count` images whose `change` runs after each page is answered (its
   * argument: the number of pages answered so far), as creates and deletes land between two calls.
   */
  async function liveList(count: number, change: (pages: number, list: string[]) => void) {
    const list = Array.from({ length: count }, (_, i) => uuidAt(count - 1 - i)); // newest first
    let pages = 0;
    const s = await startServer((req, res) => {
      const { offset, length } = JSON.parse(req.body.toString());
      const entities = list.slice(offset, offset + length).map((uuid) => ({ metadata: { kind: 'image', uuid } }));
      json(res, 200, { api_version: '3.1', metadata: { total_matches: list.length, offset, length }, entities });
      change(++pages, list);
    });
    open.push(s);
    return { s, list };
  }
  async function drain(iterator: AsyncIterable<{ metadata: { uuid?: string } }>) {
    const got: string[] = [];
    try {
      for await (const e of iterator) got.push(e.metadata.uuid!);
      return { got, error: undefined };
    } catch (error) {
      return { got, error };
    }
  }

  it('an image created between two pages: all 250 yielded once each, no error', async () => {
    const { s, list } = await liveList(250, (pages, l) => {
      if (pages === 1) l.unshift(uuidAt(1000)); // a create after the first page
    });
    const before = list.slice();
    const { got, error } = await drain(central(s.origin).paginate('/images/list', { kind: 'image' }));
    expect(error).toBeUndefined();
    expect(new Set(got).size).toBe(got.length);
    expect(before.filter((u) => !got.includes(u))).toEqual([]);
  });

  it('images created and deleted between pages: every image there all along yielded once', async () => {
    const original = Array.from({ length: 250 }, (_, i) => uuidAt(249 - i));
    const deleted = new Set([original[10]!, original[150]!, original[230]!]);
    const { s } = await liveList(250, (pages, l) => {
      if (pages === 1) l.splice(l.indexOf(original[10]!), 1); // already yielded: the rest moves up one
      if (pages === 2) {
        l.unshift(uuidAt(1000), uuidAt(1001)); // two creates
        l.splice(l.indexOf(original[150]!), 1); // one yielded on page 2
        l.splice(l.indexOf(original[230]!), 1); // one not yet yielded
      }
    });
    const { got, error } = await drain(
      central(s.origin).paginate('/images/list', { kind: 'image' }, { pageSize: 100 }),
    );
    expect(error).toBeUndefined();
    expect(new Set(got).size).toBe(got.length);
    expect(original.filter((u) => !deleted.has(u) && !got.includes(u))).toEqual([]);
  });

  it('a page of nothing but images already yielded still ends in PaginationError', async () => {
    // 100 creates between the first two pages of 100: the second page is the first one again.
    const { s } = await liveList(250, (pages, l) => {
      if (pages === 1) l.unshift(...Array.from({ length: 100 }, (_, i) => uuidAt(2000 + i)));
    });
    const { got, error } = await drain(
      central(s.origin).paginate('/images/list', { kind: 'image' }, { pageSize: 100 }),
    );
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toMatch(
      /^images_list \(POST \/images\/list\): page at offset 100 repeats only entities already seen/,
    );
    expect(got).toHaveLength(100);
  });
});
