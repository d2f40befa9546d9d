import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { build } from '../scripts/build.mjs';
import { basePathOf, FORWARD_HEADER, SERVER_INFO_PATH, startExplorer, withMockServer } from '../src/index.js';

const auth = `Basic ${Buffer.from('admin:secret').toString('base64')}`;

/** A fake upstream that records the requests it gets and answers with a fixed body. */
async function startFakeUpstream() {
  const received = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
      if (req.url?.includes('deny')) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="test"', 'content-type': 'text/plain' });
        return res.end('no');
      }
      res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'fake' });
      res.end(JSON.stringify({ entities: [] }));
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((r) => {
        server.close(r);
        server.closeAllConnections();
      }),
  };
}

/** The name under which the build wrote `name` (`swagger-ui-bundle.js` -> `swagger-ui-bundle.<hash>.js`). */
function asset(name) {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = [name.slice(0, dot), name.slice(dot)];
  const hashed = (file) =>
    file.startsWith(`${stem}.`) &&
    file.endsWith(ext) &&
    /^[0-9a-f]{10}$/.test(file.slice(stem.length + 1, -ext.length));
  return readdirSync(dir).find(hashed) ?? name;
}

let dir;
let upstream;
let explorer;
let plain;

beforeAll(async () => {
  dir = inject('explorerDist'); // built once for all the test files
  upstream = await startFakeUpstream();
  explorer = await startExplorer({ dir, mocks: { central: upstream.url } });
  plain = await startExplorer({ dir });
});

afterAll(async () => {
  await explorer?.close();
  await plain?.close();
  await upstream?.close();
});

describe('build', () => {
  it('writes the page, the initialiser and one spec per API', () => {
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(html).toMatch(/src="\.\/swagger-ui-bundle\.[0-9a-f]{10}\.js"/);
    // Swagger UI's standalone preset is not loaded: the page has a top bar of its own.
    expect(html).not.toContain('swagger-ui-standalone-preset');
    expect(html).toMatch(/href="\.\/swagger-ui\.[0-9a-f]{10}\.css"/);
    expect(html).not.toMatch(/https?:\/\//); // nothing from a CDN
    // (Swagger UI's options, which the minified script spells its own way, are checked in
    // Chromium: browser.test.js)
    const js = readFileSync(join(dir, 'explorer.js'), 'utf8');
    expect(js).not.toContain('localStorage.setItem');
    expect(js).toContain('{"api":"central","name":"central API (v3)","url":"./specs/central.json"}');
    const spec = JSON.parse(readFileSync(join(dir, 'specs', 'central.json'), 'utf8'));
    expect(spec.openapi).toMatch(/^3\.1/);
    // A plain static server serves this copy: no forwarder behind it.
    expect(JSON.parse(readFileSync(join(dir, 'explorer-server.json'), 'utf8'))).toMatchObject({ forward: false });
  });

  it('serves every API with its path-level parameters inlined and no build-time samples', () => {
    for (const api of ['central', 'element', 'objects']) {
      const spec = JSON.parse(readFileSync(join(dir, 'specs', `${api}.json`), 'utf8'));
      let operations = 0;
      for (const [path, item] of Object.entries(spec.paths)) {
        for (const method of ['get', 'put', 'post', 'delete', 'patch']) {
          if (!item[method]) continue;
          operations++;
          // The page makes its code samples live from the form (src/page/samples.js).
          expect(item[method]['x-codeSamples'], `${api} ${method} ${path}`).toBeUndefined();
        }
        // Path-level parameters are inlined (Swagger UI shows a bare $ref as a nameless "any").
        for (const parameter of item.parameters ?? []) {
          expect(parameter.$ref, `${api} ${path}`).toBeUndefined();
          expect(parameter.schema?.$ref, `${api} ${path}`).toBeUndefined();
        }
      }
      expect(operations, api).toBeGreaterThan(3);
    }
  });

  it('lists every API in the top-bar selector', async () => {
    const other = mkdtempSync(join(tmpdir(), 'explorer-multi-'));
    try {
      const central = join(dir, 'specs', 'central.json');
      const element = join(other, 'element.json');
      const doc = JSON.parse(readFileSync(central, 'utf8'));
      writeFileSync(
        element,
        JSON.stringify({ ...doc, info: { ...doc.info, title: 'svc element API (v0.8 and v2.0)' } }),
      );
      const out = join(other, 'out');
      const result = await build({
        outDir: out,
        apis: [
          { name: 'central', bundleJson: central },
          { name: 'element', bundleJson: element },
        ],
      });
      expect(result.apis.map((a) => a.displayName)).toEqual(['central API (v3)', 'element API (v0.8 and v2.0)']);
      const js = readFileSync(join(out, 'explorer.js'), 'utf8');
      expect(js).toContain('{"api":"element","name":"element API (v0.8 and v2.0)","url":"./specs/element.json"}');
      await expect(
        build({ outDir: out, apis: [{ name: 'objects', bundleJson: join(other, 'missing.json') }] }),
      ).rejects.toThrow(/npm run bundle/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('takes the base path of the first server', () => {
    expect(basePathOf({ servers: [{ url: 'https://{host}:{port}/api/svc/v3' }] })).toBe('/api/svc/v3');
    expect(basePathOf({ servers: [{ url: '/api/x/' }] })).toBe('/api/x');
    expect(basePathOf({ servers: [{ url: 'http://h' }] })).toBe('');
    expect(basePathOf({})).toBe('');
    const doc = { servers: [{ url: 'https://{host}/api/svc/v3' }] };
    expect(withMockServer(doc, 'central').servers[0].url).toBe('/mock/central/api/svc/v3');
    expect(doc.servers).toHaveLength(1);
  });
});

describe('static files', () => {
  it.each([
    ['', 'text/html; charset=utf-8'],
    ['index.html', 'text/html; charset=utf-8'],
    ['explorer.js', 'text/javascript; charset=utf-8'],
    ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
    ['swagger-ui.css', 'text/css; charset=utf-8'],
    ['favicon.svg', 'image/svg+xml'],
    ['specs/central.json', 'application/json; charset=utf-8'],
  ])('serves /%s as %s', async (name, type) => {
    const path = asset(name);
    const res = await fetch(`${explorer.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBeGreaterThan(0);
    if (!path.startsWith('specs/')) expect(body.equals(readFileSync(join(dir, path || 'index.html')))).toBe(true);
  });

  it('answers 404 for unknown files and paths outside the folder', async () => {
    for (const path of ['nope.js', 'specs/unknown.json', '..%2F..%2Fpackage.json', '%2e%2e/%2e%2e/package.json']) {
      const res = await fetch(`${explorer.url}${path}`);
      expect(res.status, path).toBe(404);
      await res.arrayBuffer();
    }
  });

  it("keeps an idle connection 65 s, past a pooling client's 4 s, so that a reused one is not reset", async () => {
    const res = await fetch(explorer.url);
    await res.arrayBuffer();
    expect(res.headers.get('keep-alive')).toBe('timeout=65');
  });

  it('answers 405 to other methods than GET and HEAD', async () => {
    const res = await fetch(`${explorer.url}index.html`, { method: 'POST', body: 'x' });
    expect(res.status).toBe(405);
    await res.arrayBuffer();
  });

  it('serves the spec with the mock server first when a mock is set', async () => {
    const spec = await (await fetch(`${explorer.url}specs/central.json`)).json();
    expect(spec.servers[0]).toEqual({ url: '/mock/central/api/svc/v3', description: 'Prism mock (this machine)' });
    expect(spec.servers[1].url).toBe('https://{host}:{port}/api/svc/v3');
    expect(spec.servers[1].variables.host.default).toBeDefined();
  });

  it('serves the spec unchanged without a mock', async () => {
    const spec = await (await fetch(`${plain.url}specs/central.json`)).json();
    expect(spec.servers[0].url).toBe('https://{host}:{port}/api/svc/v3');
    expect(spec.servers.map((s) => s.description)).not.toContain('Prism mock (this machine)');
  });
});

describe('mock proxy', () => {
  it('forwards method, path without the base path, query, headers and body', async () => {
    upstream.received.length = 0;
    const res = await fetch(`${explorer.url}mock/central/api/svc/v3/images/list?offset=2&q=a%20b`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json', 'x-custom': 'yes' },
      body: JSON.stringify({ kind: 'image', length: 5 }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-upstream')).toBe('fake');
    expect(await res.json()).toEqual({ entities: [] });
    expect(upstream.received).toHaveLength(1);
    const [got] = upstream.received;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/images/list?offset=2&q=a%20b');
    expect(got.headers.authorization).toBe(auth);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-custom']).toBe('yes');
    expect(got.headers.host).toBe(new URL(upstream.url).host);
    expect(JSON.parse(got.body)).toEqual({ kind: 'image', length: 5 });
  });

  it('forwards other methods and paths outside the base path as they are', async () => {
    upstream.received.length = 0;
    const del = await fetch(`${explorer.url}mock/central/api/svc/v3/images/0b6f`, { method: 'DELETE' });
    expect(del.status).toBe(201);
    const other = await fetch(`${explorer.url}mock/central/health`);
    expect(other.status).toBe(201);
    expect(upstream.received.map((r) => `${r.method} ${r.url}`)).toEqual(['DELETE /images/0b6f', 'GET /health']);
  });

  it('keeps the base path with stripBasePath: false', async () => {
    const keep = await startExplorer({ dir, mocks: { central: upstream.url }, stripBasePath: false });
    try {
      upstream.received.length = 0;
      const res = await fetch(`${keep.url}mock/central/api/svc/v3/tasks/list`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(201);
      expect(upstream.received[0].url).toBe('/api/svc/v3/tasks/list');
    } finally {
      await keep.close();
    }
  });

  it('renames WWW-Authenticate so that the browser does not prompt', async () => {
    const res = await fetch(`${explorer.url}mock/central/api/svc/v3/deny`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(res.headers.get('x-upstream-www-authenticate')).toBe('Basic realm="test"');
    expect(await res.text()).toBe('no');
  });

  it('answers 404 for an API without mock and 502 for a mock that is down', async () => {
    const unknown = await fetch(`${explorer.url}mock/element/api/x`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('No mock is configured for API "element"');

    const dead = await startFakeUpstream();
    const deadUrl = dead.url;
    await dead.close();
    const broken = await startExplorer({ dir, mocks: { central: deadUrl } });
    try {
      const res = await fetch(`${broken.url}mock/central/api/svc/v3/images/list`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(502);
      expect(await res.text()).toContain('did not answer');
    } finally {
      await broken.close();
    }
  });
});

describe('startExplorer errors', () => {
  it('explains a missing built folder', async () => {
    await expect(startExplorer({ dir: join(dir, 'missing') })).rejects.toThrow(/npm run build -w @svc\/explorer/);
  });

  it('rejects bad mock settings', async () => {
    await expect(startExplorer({ dir, mocks: { central: 'not a url' } })).rejects.toThrow(/not a URL/);
    await expect(startExplorer({ dir, mocks: { central: 'ftp://127.0.0.1' } })).rejects.toThrow(/http\(s\)/);
    await expect(startExplorer({ dir, mocks: { nosuch: upstream.url } })).rejects.toThrow(/specs\/nosuch\.json/);
  });

  it('listens on 127.0.0.1 by default', () => {
    expect(new URL(explorer.url).hostname).toBe('127.0.0.1');
    expect(explorer.port).toBe(Number(new URL(explorer.url).port));
  });
});

describe('forwarder to real endpoints', () => {
  it('says what it offers at /explorer-server.json', async () => {
    const info = await (await fetch(`${explorer.url}${SERVER_INFO_PATH.slice(1)}`)).json();
    expect(info).toEqual({
      server: 'startExplorer',
      forward: true,
      insecureTls: false,
      mocks: ['central'],
      localSvc: false,
      localSvcUrl: null,
    });
    const off = await startExplorer({ dir, forward: false });
    try {
      expect((await (await fetch(`${off.url}${SERVER_INFO_PATH.slice(1)}`)).json()).forward).toBe(false);
      // Without the forwarder, /forward/ is just a missing file.
      const res = await fetch(`${off.url}forward/http/127.0.0.1:1/x`, { headers: { [FORWARD_HEADER]: 'verify' } });
      expect(res.status).toBe(404);
      await res.arrayBuffer();
    } finally {
      await off.close();
    }
  });

  it('sends the request to the named host and port, without the browser-only headers', async () => {
    upstream.received.length = 0;
    const { port } = new URL(upstream.url);
    const res = await fetch(`${explorer.url}forward/http/127.0.0.1:${port}/api/svc/v3/images/list?x=1`, {
      method: 'POST',
      headers: {
        [FORWARD_HEADER]: 'verify',
        authorization: auth,
        cookie: 'session=1',
        'content-type': 'application/json',
      },
      body: '{"kind":"image"}',
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ entities: [] });
    const [got] = upstream.received;
    expect(`${got.method} ${got.url}`).toBe('POST /api/svc/v3/images/list?x=1');
    expect(got.headers.authorization).toBe(auth);
    expect(got.headers.cookie).toBeUndefined();
    expect(got.headers[FORWARD_HEADER]).toBeUndefined();
    expect(got.headers.host).toBe(`127.0.0.1:${port}`);
    expect(got.body).toBe('{"kind":"image"}');
  });

  it('refuses requests that do not come from the page, bad hosts and other Host headers', async () => {
    const { port } = new URL(upstream.url);
    const noHeader = await fetch(`${explorer.url}forward/http/127.0.0.1:${port}/x`);
    expect(noHeader.status).toBe(400);
    expect(await noHeader.text()).toContain(FORWARD_HEADER);
    for (const bad of ['user@127.0.0.1', 'exa%6dple.com', 'a_b..c']) {
      const res = await fetch(`${explorer.url}forward/http/${bad}/x`, { headers: { [FORWARD_HEADER]: 'verify' } });
      expect(res.status, bad).toBe(400);
      expect(await res.text()).toMatch(/not a host name/);
    }
    const shape = await fetch(`${explorer.url}forward/gopher/h/x`, { headers: { [FORWARD_HEADER]: 'verify' } });
    expect(shape.status).toBe(400);
    await shape.arrayBuffer();
    // DNS rebinding: a page of another name that resolves to 127.0.0.1 cannot use the proxies.
    const { request } = await import('node:http');
    const status = await new Promise((resolve, reject) => {
      request(
        `${explorer.url}forward/http/127.0.0.1:${port}/x`,
        { headers: { host: 'evil.example:80', [FORWARD_HEADER]: 'verify' } },
        (r) => {
          r.resume();
          resolve(r.statusCode);
        },
      )
        .on('error', reject)
        .end();
    });
    expect(status).toBe(403);
  });

  it('answers 502 with the reason when the endpoint does not answer', async () => {
    const dead = await startFakeUpstream();
    const { port } = new URL(dead.url);
    await dead.close();
    // A port of this machine: only with allowLoopback (see robustness.test.js).
    const open = await startExplorer({ dir, allowLoopback: true });
    try {
      const res = await fetch(`${open.url}forward/http/127.0.0.1:${port}/x`, {
        headers: { [FORWARD_HEADER]: 'verify' },
      });
      expect(res.status).toBe(502);
      expect(await res.text()).toMatch(/did not answer.*ECONNREFUSED/);
    } finally {
      await open.close();
    }
  });
});
