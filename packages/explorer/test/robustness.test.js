// The explorer server under broken or hostile peers (issue 15): raw TCP upstreams that answer what
// Node refuses, protocol switches, encoded paths and foreign hosts, CORS headers, and the
// forwarder's reach on this machine. Loopback only; every wait is bounded.

import { createServer as createHttpServer, request } from 'node:http';
import { connect, createServer as createTcpServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FORWARD_HEADER, startExplorer } from '../src/index.js';

/** A TCP server that writes `answer` to every connection and leaves it open. */
async function startRawUpstream(answer) {
  const sockets = new Set();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('data', () => socket.write(answer));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    port: server.address().port,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(r);
      }),
  };
}

/** An HTTP upstream that records requests (and their headers) and answers 200 with CORS headers. */
async function startCorsUpstream() {
  const received = [];
  let lastHeaders = {};
  const server = createHttpServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    lastHeaders = req.headers;
    res.writeHead(200, {
      'content-type': 'application/json',
      'access-control-allow-origin': '*',
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'x-a',
    });
    res.end('{}');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    port: server.address().port,
    received,
    lastHeaders: () => lastHeaders,
    close: () =>
      new Promise((r) => {
        server.close(r);
        server.closeAllConnections();
      }),
  };
}

/** A raw request (any target form, any Host); resolves to status and text. */
function send(explorerUrl, { method = 'GET', path, headers = {} }) {
  const { port } = new URL(explorerUrl);
  return new Promise((resolve, reject) => {
    request(
      { host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers }, timeout: 10_000 },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
      },
    )
      .on('error', reject)
      .on('timeout', function onTimeout() {
        this.destroy(new Error('no answer within 10 s'));
      })
      .end();
  });
}

const forwardTo = (explorer, hostPort, path = '/x') =>
  fetch(`${explorer.url}forward/http/${hostPort}${path}`, {
    headers: { [FORWARD_HEADER]: 'verify' },
    signal: AbortSignal.timeout(10_000),
  });

let dir;
let weird;
let switching;
let cors;
let explorer;

beforeAll(async () => {
  dir = inject('explorerDist'); // built once for all the test files
  weird = await startRawUpstream('HTTP/1.1 099 Weird\r\nContent-Length: 2\r\n\r\nok');
  switching = await startRawUpstream(
    'HTTP/1.1 101 Switching Protocols\r\nUpgrade: weird\r\nConnection: Upgrade\r\n\r\n',
  );
  cors = await startCorsUpstream();
  explorer = await startExplorer({ dir, mocks: { central: cors.url, element: weird.url, objects: switching.url } });
});

afterAll(async () => {
  await explorer?.close();
  await Promise.all([weird?.close(), switching?.close(), cors?.close()]);
});

describe('answers Node refuses', () => {
  it('turns a status Node cannot send (099) into a 502 with the reason, and keeps serving', async () => {
    const open = await startExplorer({ dir, allowLoopback: true });
    try {
      for (const url of [
        `${explorer.url}mock/element/api/svc/v0.8/images`,
        `${open.url}forward/http/127.0.0.1:${weird.port}/x`,
      ]) {
        const res = await fetch(url, { headers: { [FORWARD_HEADER]: 'verify' }, signal: AbortSignal.timeout(10_000) });
        expect(res.status, url).toBe(502);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(await res.text()).toMatch(/answered what cannot be passed on: Node refuses.*status code.*99/i);
      }
      expect((await fetch(`${explorer.url}index.html`)).status).toBe(200);
      expect((await fetch(`${open.url}index.html`)).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('turns a header Node cannot parse into a 502 with the reason', async () => {
    const odd = await startRawUpstream('HTTP/1.1 200 OK\r\nX-Odd: a\x7fb\r\nContent-Length: 2\r\n\r\nok');
    const open = await startExplorer({ dir, allowLoopback: true });
    try {
      const res = await forwardTo(open, `127.0.0.1:${odd.port}`);
      expect(res.status).toBe(502);
      expect(await res.text()).toMatch(/did not answer: Parse Error.*HPE_INVALID_HEADER_TOKEN/);
      expect((await fetch(`${open.url}index.html`)).status).toBe(200);
    } finally {
      await open.close();
      await odd.close();
    }
  });

  it('answers an upstream 101 Switching Protocols promptly with a 502', async () => {
    const open = await startExplorer({ dir, allowLoopback: true });
    try {
      for (const url of [
        `${explorer.url}mock/objects/oss/api/svc/v3/groups`,
        `${open.url}forward/http/127.0.0.1:${switching.port}/x`,
      ]) {
        const res = await fetch(url, { headers: { [FORWARD_HEADER]: 'verify' }, signal: AbortSignal.timeout(10_000) });
        expect(res.status, url).toBe(502);
        expect(await res.text()).toMatch(/answered what cannot be passed on: 101 Switching Protocols/);
      }
    } finally {
      await open.close();
    }
  });
});

/**
 * Writes raw bytes (one write, or one per part) to the explorer over one socket and resolves to
 * what it answered, once the explorer closes the connection (`reset` when it reset it) or 10 s
 * passed (then `timedOut`).
 */
function rawExchange(explorerUrl, bytes) {
  const { port } = new URL(explorerUrl);
  const parts = [bytes].flat();
  return new Promise((resolve) => {
    let text = '';
    let reset = false;
    // each part in its own write, once the one before has left
    const write = (i) => i < parts.length && !socket.destroyed && socket.write(parts[i], () => write(i + 1));
    const socket = connect(port, '127.0.0.1', () => write(0));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, timedOut: true, reset });
    }, 10_000);
    socket.on('data', (c) => (text += c));
    socket.on('error', (error) => {
      if (error.code === 'ECONNRESET') reset = true;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, timedOut: false, reset });
    });
  });
}

describe('request smuggling: the relay never forwards a body without its framing', () => {
  /** A chunked request whose body is a whole second request. */
  const chunked = (method, path, port) => {
    const inner = `GET /smuggled HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
    return (
      `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
      `${Buffer.byteLength(inner).toString(16)}\r\n${inner}\r\n0\r\n\r\n`
    );
  };

  it('refuses a chunked GET or DELETE body with 400, and the upstream sees no second request', async () => {
    const { port } = new URL(explorer.url);
    for (const method of ['GET', 'DELETE']) {
      const answer = await rawExchange(explorer.url, chunked(method, '/mock/central/api/svc/v3/images/x', port));
      expect(answer.timedOut, method).toBe(false);
      expect(answer.text, method).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer.text, method).toContain(`A ${method} request with a Transfer-Encoding body is not forwarded`);
    }
    // A request after them has been answered: had anything been smuggled, it was received before.
    expect((await fetch(`${explorer.url}mock/central/api/svc/v3/after`)).status).toBe(200);
    expect(cors.received).toContain('GET /after'); // the mock proxy drops the base path
    expect(cors.received.filter((r) => r.includes('smuggled') || r.endsWith('/images/x'))).toEqual([]);
  });

  it('answers a chunked GET to an upstream that answers 101 promptly, whole, never with a reset', async () => {
    const { port } = new URL(explorer.url);
    const answer = await rawExchange(explorer.url, chunked('GET', '/mock/objects/oss/api/svc/v3/groups', port));
    expect(answer.timedOut).toBe(false);
    expect(answer.text).toMatch(/^HTTP\/1\.1 400 /);
    // the body sent after the headers, as curl does; asking for an upgrade besides
    for (const extra of ['', 'Connection: Upgrade\r\nUpgrade: weird\r\n']) {
      const late = await rawExchange(explorer.url, [
        `GET /mock/objects/oss/api/svc/v3/groups HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${extra}Transfer-Encoding: chunked\r\n\r\n`,
        '5\r\nhello\r\n0\r\n\r\n',
      ]);
      expect(late, extra).toMatchObject({ timedOut: false, reset: false });
      expect(late.text, extra).toMatch(/^HTTP\/1\.1 400 [\s\S]*not forwarded/);
    }
  });

  it('forwards a chunked POST body framed: one request upstream', async () => {
    const { port } = new URL(explorer.url);
    const answer = await rawExchange(explorer.url, chunked('POST', '/mock/central/api/svc/v3/images/list', port));
    expect(answer.text).toMatch(/^HTTP\/1\.1 200 /);
    expect((await fetch(`${explorer.url}mock/central/api/svc/v3/after-post`)).status).toBe(200);
    expect(cors.received).toContain('POST /images/list');
    expect(cors.received.filter((r) => r.includes('smuggled'))).toEqual([]);
  });
});

describe('the forwarder to real endpoints', () => {
  /** A raw TCP upstream that records every byte it receives and answers each request 200. */
  async function startRecordingUpstream() {
    let bytes = '';
    const sockets = new Set();
    const server = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('data', (chunk) => {
        bytes += chunk;
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
      });
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    return {
      port: server.address().port,
      bytes: () => bytes,
      close: () =>
        new Promise((r) => {
          for (const s of sockets) s.destroy();
          server.close(r);
        }),
    };
  }

  it('refuses a GET, HEAD or DELETE with a chunked body to a real endpoint with 400; the endpoint sees nothing', async () => {
    const upstream = await startRecordingUpstream();
    const open = await startExplorer({ dir, allowLoopback: true });
    try {
      const { port } = new URL(open.url);
      const inner = `GET /smuggled HTTP/1.1\r\nHost: 127.0.0.1:${upstream.port}\r\n\r\n`;
      for (const method of ['GET', 'HEAD', 'DELETE']) {
        for (const coding of ['chunked', 'Chunked', 'gzip, chunked']) {
          const answer = await rawExchange(open.url, [
            `${method} /forward/http/127.0.0.1:${upstream.port}/api/svc/v3/images/x HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
              `${FORWARD_HEADER}: verify\r\nTransfer-Encoding: ${coding}\r\n\r\n`,
            `${Buffer.byteLength(inner).toString(16)}\r\n${inner}\r\n0\r\n\r\n`,
          ]);
          const what = `${method} with Transfer-Encoding: ${coding}`;
          expect(answer, what).toMatchObject({ timedOut: false, reset: false });
          expect(answer.text, what).toMatch(/^HTTP\/1\.1 400 /);
          if (method !== 'HEAD')
            expect(answer.text, what).toContain(`A ${method} request with a Transfer-Encoding body is not forwarded`);
        }
      }
      expect(upstream.bytes()).toBe('');
    } finally {
      await open.close();
      await upstream.close();
    }
  });

  it("never forwards a path of the local svc's control API (/_svc/), in any spelling", async () => {
    const upstream = await startCorsUpstream();
    const open = await startExplorer({ dir, allowLoopback: true });
    try {
      for (const path of ['/_svc/reset', '/_SVC/state', '/%5Fsvc/reset', '//_svc/reset', '/x/../_svc/reset', '/_svc']) {
        const res = await send(open.url, {
          method: 'POST',
          path: `/forward/http/127.0.0.1:${upstream.port}${path}`,
          headers: { [FORWARD_HEADER]: 'verify' },
        });
        expect(res.status, path).toBe(403);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.text, path).toMatch(/\/_svc\/ .*control API of the local svc.*never forwarded/);
      }
      expect(upstream.received).toEqual([]);
      // a path that only starts like it is forwarded
      const res = await send(open.url, {
        path: `/forward/http/127.0.0.1:${upstream.port}/_svcx/images`,
        headers: { [FORWARD_HEADER]: 'verify' },
      });
      expect(res.status).toBe(200);
      expect(upstream.received).toEqual(['GET /_svcx/images']);
    } finally {
      await open.close();
      await upstream.close();
    }
  });
});

describe('one decoded, normalised path for the host check and the routing', () => {
  it('routes an encoded /%6dock/ to the mock, and refuses it with a foreign Host', async () => {
    cors.received.length = 0;
    const ok = await send(explorer.url, { method: 'POST', path: '/%6dock/central/api/svc/v3/images/list' });
    expect(ok.status).toBe(200);
    expect(cors.received).toEqual(['POST /images/list']);
    const evil = await send(explorer.url, {
      method: 'POST',
      path: '/%6dock/central/api/svc/v3/images/list',
      headers: { host: 'evil.example' },
    });
    expect(evil.status).toBe(403);
    expect(evil.headers['x-content-type-options']).toBe('nosniff');
    const dotted = await send(explorer.url, {
      path: '/x/%2e%2e/mock/central/api/svc/v3/images',
      headers: { host: 'evil.example' },
    });
    expect(dotted.status).toBe(403);
    // A path that starts with `//` is a path, not an authority.
    const doubled = await send(explorer.url, { path: '//evil.example/mock/central/api/svc/v3/images' });
    expect(doubled.status).toBe(404);
    expect(cors.received).toHaveLength(1);
  });

  it('refuses an absolute-form request that names a foreign host', async () => {
    cors.received.length = 0;
    for (const path of [
      'http://evil.example/mock/central/api/svc/v3/images/list',
      'http://evil.example/%6dock/central/x',
    ]) {
      const res = await send(explorer.url, { method: 'POST', path });
      expect(res.status, path).toBe(403);
    }
    const forward = await send(explorer.url, {
      path: `http://evil.example/forward/http/127.0.0.1:${cors.port}/x`,
      headers: { [FORWARD_HEADER]: 'verify' },
    });
    expect(forward.status).toBe(403);
    expect(cors.received).toEqual([]);
  });
});

describe('headers', () => {
  it('drops the headers an incoming or answering Connection names (RFC 9110 7.6.1)', async () => {
    const named = await startRawUpstream(
      'HTTP/1.1 200 OK\r\nConnection: keep-alive, X-Hop-Answer\r\nX-Hop-Answer: upstream-secret\r\nX-Kept: yes\r\nContent-Length: 2\r\n\r\nok',
    );
    const open = await startExplorer({ dir, allowLoopback: true });
    try {
      const res = await send(open.url, {
        path: `/forward/http/127.0.0.1:${cors.port}/hop`,
        headers: {
          [FORWARD_HEADER]: 'verify',
          connection: 'keep-alive, X-Hop-Request',
          'x-hop-request': 'secret',
          'x-kept': 'yes',
        },
      });
      expect(res.status).toBe(200);
      expect(cors.lastHeaders()['x-hop-request']).toBeUndefined();
      expect(cors.lastHeaders()['x-kept']).toBe('yes');
      const answer = await send(open.url, {
        path: `/forward/http/127.0.0.1:${named.port}/hop`,
        headers: { [FORWARD_HEADER]: 'verify' },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers['x-hop-answer']).toBeUndefined();
      expect(answer.headers['x-kept']).toBe('yes');
    } finally {
      await open.close();
      await named.close();
    }
  });

  it('drops the upstream Access-Control-* headers on both proxies', async () => {
    for (const res of [
      await fetch(`${explorer.url}mock/central/api/svc/v3/images/list`, { method: 'POST' }),
      await forwardTo(explorer, `127.0.0.1:${cors.port}`),
    ]) {
      expect(res.status).toBe(200);
      expect([...res.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
      await res.arrayBuffer();
    }
  });

  it('sends plain-text errors with X-Content-Type-Options: nosniff', async () => {
    const answers = [
      await fetch(`${explorer.url}mock/nosuch/<script>`),
      await fetch(`${explorer.url}forward/http/a_b..c/x`, { headers: { [FORWARD_HEADER]: 'verify' } }),
      await fetch(`${explorer.url}nope.html`),
      await fetch(`${explorer.url}index.html`, { method: 'POST' }),
    ];
    for (const res of answers) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      await res.arrayBuffer();
    }
  });
});

describe("the forwarder's reach on this machine", () => {
  const spellings = (port) => [
    `127.0.0.1:${port}`,
    `127.1:${port}`,
    `0x7f.1:${port}`,
    `2130706433:${port}`,
    `0177.0.0.1:${port}`,
    `[::1]:${port}`,
    `[::ffff:127.0.0.1]:${port}`,
    `0.0.0.0:${port}`,
    `localhost:${port}`,
  ];

  it('refuses every spelling of a loopback target other than the mocks and the local svc', async () => {
    const other = await startCorsUpstream();
    try {
      for (const target of spellings(other.port)) {
        const res = await forwardTo(explorer, target);
        expect(res.status, target).toBe(403);
        expect(await res.text(), target).toMatch(/address of this machine.*--allow-loopback/s);
      }
      expect(other.received).toEqual([]);
      // The mocks stay reachable (the page's "real endpoint" may be a mock's port).
      const mock = await forwardTo(explorer, `127.0.0.1:${cors.port}`);
      expect(mock.status).toBe(200);
      await mock.arrayBuffer();
    } finally {
      await other.close();
    }
  });

  it("refuses the machine's own interface addresses like loopback", async () => {
    const own = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal)
      .map((a) => (a.family === 'IPv6' ? `[${a.address.replace(/%.*$/, '')}]` : a.address));
    expect(own.length, 'this machine has a non-loopback interface to test with').toBeGreaterThan(0);
    for (const address of own) {
      const res = await forwardTo(explorer, `${address}:${cors.port + 1}`);
      expect(res.status, address).toBe(403);
      expect(await res.text(), address).toMatch(/address of this machine/);
    }
  });

  it('reaches them with allowLoopback', async () => {
    const other = await startCorsUpstream();
    const open = await startExplorer({ dir, allowLoopback: true });
    try {
      for (const target of [`127.0.0.1:${other.port}`, `0x7f.1:${other.port}`, `localhost:${other.port}`]) {
        const res = await forwardTo(open, target);
        expect(res.status, target).toBe(200);
        await res.arrayBuffer();
      }
      expect(other.received).toHaveLength(3);
    } finally {
      await open.close();
      await other.close();
    }
  });
});
