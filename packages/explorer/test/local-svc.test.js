// The local svc beside the explorer: every spec's first server, at its own address; the page's
// `/local/<production path>` goes to it over HTTPS, trusting its own certificate. A stand-in HTTPS
// server plays it.

import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '@svc/simulator';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FORWARD_HEADER, LOCAL_SERVER_DESCRIPTION, startExplorer } from '../src/index.js';
import { loopbackCertificate } from './support/certificate.js';

/** An HTTPS server with its own self-signed certificate that records what it gets. */
async function startStandIn() {
  const pems = await loopbackCertificate();
  const received = [];
  const server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      res.end('{"entities":[],"metadata":{"total_matches":0}}');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `https://127.0.0.1:${server.address().port}`,
    port: server.address().port,
    ca: pems.cert,
    received,
    close: () =>
      new Promise((r) => {
        server.close(r);
        server.closeAllConnections();
      }),
  };
}

let dir;
let local;
let explorer;

beforeAll(async () => {
  dir = inject('explorerDist'); // built once for all the test files
  local = await startStandIn();
  explorer = await startExplorer({
    dir,
    mocks: { central: 'http://127.0.0.1:9' },
    simulator: { url: local.url, ca: local.ca },
  });
});

afterAll(async () => {
  await explorer?.close();
  await local?.close();
});

describe('local svc', () => {
  it('says so at /explorer-server.json', async () => {
    expect(await (await fetch(`${explorer.url}explorer-server.json`)).json()).toMatchObject({
      localSvc: true,
      mocks: ['central'],
    });
  });

  it('is the first server of every spec, at its own address and the production base path, before the mock', async () => {
    // The service's own URL, which the samples show and which works without the explorer; the
    // page sends through /local/ (below).
    const central = await (await fetch(`${explorer.url}specs/central.json`)).json();
    expect(central.servers.slice(0, 2)).toEqual([
      { url: `${local.url}/api/svc/v3`, description: LOCAL_SERVER_DESCRIPTION },
      { url: '/mock/central/api/svc/v3', description: 'Prism mock (this machine)' },
    ]);
    expect(central.servers[2].url).toBe('https://{host}:{port}/api/svc/v3');
    const element = await (await fetch(`${explorer.url}specs/element.json`)).json();
    expect(element.servers[0]).toEqual({ url: `${local.url}/api/svc`, description: LOCAL_SERVER_DESCRIPTION });
    expect(element.servers[1].url).toBe('https://{host}:{port}/api/svc');
    // Whatever name the browser reaches the explorer by.
    const viaLocalhost = await new Promise((resolve, reject) => {
      request(`${explorer.url}specs/objects.json`, { headers: { host: `localhost:${explorer.port}` } }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(JSON.parse(text)));
      })
        .on('error', reject)
        .end();
    });
    expect(viaLocalhost.servers[0].url).toBe(`${local.url}/oss/api/svc/v3`);
  });

  it("offers the control API on the local svc and its mock only, never the spec's own host to type", async () => {
    // its own server would go through the forwarder, which never sends /_svc/ on (robustness.test.js)
    const control = await (await fetch(`${explorer.url}specs/control.json`)).json();
    expect(control.servers).toEqual([{ url: `${local.url}/_svc`, description: LOCAL_SERVER_DESCRIPTION }]);
    const mocked = await startExplorer({ dir, mocks: { control: 'http://127.0.0.1:9' } });
    try {
      const served = await (await fetch(`${mocked.url}specs/control.json`)).json();
      expect(served.servers).toEqual([{ url: '/mock/control/_svc', description: 'Prism mock (this machine)' }]);
      // with neither, the spec's own stays: a page with nothing else to offer
      const bare = await startExplorer({ dir });
      try {
        const own = await (await fetch(`${bare.url}specs/control.json`)).json();
        expect(own.servers.map((s) => s.url)).toEqual(['https://{host}:{port}/_svc']);
      } finally {
        await bare.close();
      }
    } finally {
      await mocked.close();
    }
  });

  it('proxies /local/<production path> to it over verified TLS, as it came', async () => {
    local.received.length = 0;
    const auth = `Basic ${Buffer.from('admin:secret').toString('base64')}`;
    const res = await fetch(`${explorer.url}local/api/svc/v3/images/list?offset=0&q=a%20b`, {
      method: 'POST',
      headers: {
        authorization: auth,
        'content-type': 'application/json',
        cookie: 'x=1',
        'proxy-authorization': 'Basic cHJveHk6cA==',
      },
      body: '{"kind":"image"}',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(await res.json()).toEqual({ entities: [], metadata: { total_matches: 0 } });
    const [got] = local.received;
    expect(`${got.method} ${got.url}`).toBe('POST /api/svc/v3/images/list?offset=0&q=a%20b');
    expect(got.headers.authorization).toBe(auth);
    expect(got.headers.cookie).toBeUndefined();
    expect(got.headers['proxy-authorization']).toBeUndefined(); // a credential for this hop only
    expect(got.headers.host).toBe(`127.0.0.1:${local.port}`);
    expect(got.body).toBe('{"kind":"image"}');
  });

  it('lets the forwarder reach its port on this machine', async () => {
    local.received.length = 0;
    const res = await fetch(`${explorer.url}forward/https/127.0.0.1:${local.port}/api/svc/v3/tasks/list`, {
      method: 'POST',
      headers: { [FORWARD_HEADER]: 'insecure' },
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(local.received.map((r) => r.url)).toEqual(['/api/svc/v3/tasks/list']);
  });

  it('refuses a foreign Host on /local/', async () => {
    const status = await new Promise((resolve, reject) => {
      request(
        `${explorer.url}local/api/svc/v3/images/list`,
        { method: 'POST', headers: { host: 'evil.example' } },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      )
        .on('error', reject)
        .end();
    });
    expect(status).toBe(403);
  });

  it('answers 502 when its certificate is not the one given, and 404 without a local svc', async () => {
    const untrusting = await startExplorer({ dir, simulator: { url: local.url } });
    const without = await startExplorer({ dir });
    try {
      const res = await fetch(`${untrusting.url}local/api/svc/v3/images/list`, { method: 'POST' });
      expect(res.status).toBe(502);
      expect(await res.text()).toMatch(/local svc.*did not answer.*certificate/i);
      const none = await fetch(`${without.url}local/api/svc/v3/images/list`, { method: 'POST' });
      expect(none.status).toBe(404);
      await none.arrayBuffer();
      expect((await (await fetch(`${without.url}explorer-server.json`)).json()).localSvc).toBe(false);
      const spec = await (await fetch(`${without.url}specs/central.json`)).json();
      expect(spec.servers.map((s) => s.description)).not.toContain(LOCAL_SERVER_DESCRIPTION);
    } finally {
      await untrusting.close();
      await without.close();
    }
  });

  it('rejects a simulator URL that is not http(s)', async () => {
    await expect(startExplorer({ dir, simulator: { url: 'ftp://127.0.0.1' } })).rejects.toThrow(
      /simulator\.url.*http\(s\)/,
    );
  });
});

describe('the real local svc (@svc/simulator)', () => {
  it('answers through /local/ with its own certificate trusted, and its 401 does not prompt', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'explorer-sim-'));
    const simulator = await startSimulator({ port: 0, dataDir, password: 'secret', taskSeconds: 0 });
    const withSim = await startExplorer({ dir, simulator: { url: simulator.url, ca: simulator.ca } });
    try {
      expect(simulator.url).toMatch(/^https:/);
      const auth = `Basic ${Buffer.from(`${simulator.user}:secret`).toString('base64')}`;
      const list = await fetch(`${withSim.url}local/api/svc/v3/images/list`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'image' }),
      });
      expect(list.status).toBe(200);
      expect(Array.isArray((await list.json()).entities)).toBe(true);
      const denied = await fetch(`${withSim.url}local/api/svc/v3/images/list`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(denied.status).toBe(401);
      expect(denied.headers.get('www-authenticate')).toBeNull();
      expect(denied.headers.get('x-upstream-www-authenticate')).toMatch(/^Basic /);
      await denied.arrayBuffer();
    } finally {
      await withSim.close();
      await simulator.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
