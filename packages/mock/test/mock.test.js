import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onFreePort, startMock, startPrism } from '../src/index.js';

// Each test waits on Prism's own signals (listening, exit); the limit ends a hang (see
// vitest.config.js): a test took 77 s at the most in `npm test` beside a CPU hog at load 20.
const HANG = 300_000;

const bundle = fileURLToPath(new URL('../../../dist/central.yaml', import.meta.url));
const auth = { Authorization: `Basic ${Buffer.from('admin:mock').toString('base64')}` };

describe('startMock', () => {
  const started = [];
  afterAll(() => Promise.all(started.map((m) => m.close())));

  it(
    'serves the bundle on 127.0.0.1 and stops on close',
    async () => {
      const mock = await startMock({ document: bundle });
      started.push(mock);
      expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${mock.url}/tasks/7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60`, { headers: auth });
      expect(res.status).toBe(200);
      expect((await res.json()).status).toBe('RUNNING');
      await mock.close();
      await expect(
        fetch(`${mock.url}/tasks/7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60`, { headers: auth }),
      ).rejects.toThrow();
    },
    HANG,
  );

  it('names the missing document', async () => {
    await expect(startMock({ document: '/nonexistent/api.yaml' })).rejects.toThrow(
      /prism mock: document "\/nonexistent\/api.yaml" does not exist/,
    );
  });

  it(
    'ends Prism when the process that started it is killed with SIGKILL (no handler of its own runs)',
    async () => {
      const { spawn } = await import('node:child_process');
      const index = new URL('../src/index.js', import.meta.url).href;
      const script = `const m = await (await import(${JSON.stringify(index)})).startMock({ document: ${JSON.stringify(bundle)} }); console.log(m.url);`;
      const parent = spawn(process.execPath, ['--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let url = '';
      for await (const chunk of parent.stdout) {
        url += chunk;
        if (url.includes('\n')) break;
      }
      url = url.trim();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${url}/tasks/7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60`, { headers: auth })).status).toBe(200);
      parent.kill('SIGKILL');
      // Bounded: Prism must stop listening within 10 s. Probed with bare TCP connections: an HTTP
      // request would make Prism log to its closed stdout and die of that instead.
      const { connect } = await import('node:net');
      const { port } = new URL(url);
      const refused = () =>
        new Promise((resolve) => {
          const socket = connect(Number(port), '127.0.0.1');
          socket.once('connect', () => {
            socket.destroy();
            resolve(false);
          });
          socket.once('error', () => resolve(true));
        });
      let gone = false;
      for (let i = 0; i < 100 && !gone; i++) {
        await new Promise((r) => setTimeout(r, 100));
        gone = await refused();
      }
      expect(gone, `Prism at ${url} outlived its parent`).toBe(true);
    },
    HANG,
  );
});

describe('startPrism', () => {
  it(
    'runs several mocks in one process: each closes alone, and reload reads its document again',
    async () => {
      const work = mkdtempSync(join(tmpdir(), 'svc-mock-'));
      const objects = join(work, 'objects.yaml');
      const original = readFileSync(fileURLToPath(new URL('../../../dist/objects.yaml', import.meta.url)), 'utf8');
      writeFileSync(objects, original);
      const prism = startPrism();
      try {
        const [central, store] = await Promise.all([
          prism.mock({ document: bundle }),
          prism.mock({ document: objects }),
        ]);
        const groups = () => fetch(`${store.url}/groups`, { method: 'POST', body: '{}' }).then((r) => r.status);
        expect(await groups()).toBe(401);

        // The document now asks for no credentials; Prism reads it again only on reload.
        expect(original).toMatch(/^security:\n {2}- basicAuth: \[\]$/m);
        writeFileSync(`${objects}.tmp`, original.replace(/^security:\n {2}- basicAuth: \[\]$/m, 'security: []'));
        renameSync(`${objects}.tmp`, objects);
        expect(await groups()).toBe(401);
        await store.reload();
        expect(await groups()).not.toBe(401);

        // A document Prism cannot read fails the reload; the next good one serves again.
        const good = readFileSync(objects, 'utf8');
        writeFileSync(objects, 'openapi: [3.1');
        await expect(store.reload()).rejects.toThrow();
        writeFileSync(objects, good);
        await store.reload();
        expect(await groups()).not.toBe(401);

        // A path Prism itself dies of gets a 400, and the other mocks of the process live on.
        const malformed = await fetch(`${central.url}/images/%E0%A4%A`, { headers: auth });
        expect(malformed.status).toBe(400);
        expect((await malformed.json()).detail).toMatch(/malformed percent-encoding/);
        expect(await groups()).not.toBe(401);

        await store.close();
        await expect(groups()).rejects.toThrow();
        const task = await fetch(`${central.url}/tasks/7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60`, { headers: auth });
        expect(task.status).toBe(200);
        await prism.close();
        await expect(
          fetch(`${central.url}/tasks/7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60`, { headers: auth }),
        ).rejects.toThrow();
        await expect(prism.mock({ document: bundle })).rejects.toThrow(/Prism exited/);
      } finally {
        await prism.close();
        rmSync(work, { recursive: true, force: true });
      }
    },
    HANG,
  );
});

describe('a Prism process with several servers', () => {
  /** @type {import('../src/index.js').PrismProcess} */
  let prism;
  beforeAll(() => {
    prism = startPrism();
  });
  afterAll(() => prism?.close());

  it(
    'reports a port that is taken, and goes on serving',
    async () => {
      // A plain listener holds the port: one Prism start fewer than taking it with a mock.
      const { createServer } = await import('node:net');
      const holder = createServer();
      await new Promise((resolve) => holder.listen(0, '127.0.0.1', () => resolve(undefined)));
      const { port } = /** @type {import('node:net').AddressInfo} */ (holder.address());
      try {
        await expect(prism.mock({ document: bundle, port })).rejects.toThrow(
          new RegExp(`prism mock: Prism did not listen on port ${port}: .*EADDRINUSE`),
        );
      } finally {
        holder.close();
      }
      const mock = await prism.mock({ document: bundle });
      const res = await fetch(`${mock.url}/tasks/7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60`, { headers: auth });
      expect(res.status).toBe(200);
    },
    HANG,
  );

  it(
    'proxies to the upstream and turns an answer that breaks the spec into a violation',
    async () => {
      const { createServer } = await import('node:http');
      // The upstream answers GET /tasks/{uuid} with a status the task schema does not allow.
      const upstream = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ uuid: '7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60', status: 'DONE' }));
      });
      await new Promise((resolve) => upstream.listen(0, '127.0.0.1', () => resolve(undefined)));
      const proxy = await prism.proxy({
        document: bundle,
        upstream: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (upstream.address()).port}/api/svc/v3`,
      });
      try {
        const res = await fetch(`${proxy.url}/tasks/7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60`, { headers: auth });
        expect(res.status).toBe(500);
        expect(res.headers.get('sl-violations')).toMatch(/status/);
      } finally {
        await proxy.close();
        upstream.close();
      }
    },
    HANG,
  );

  it(
    'generates x-faker values in a dynamic mock (faker loads on first use)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mock-faker-'));
      const document = join(dir, 'faker.json');
      const schema = {
        type: 'object',
        required: ['email'],
        properties: { email: { type: 'string', 'x-faker': 'internet.email' } },
        additionalProperties: false,
      };
      writeFileSync(
        document,
        JSON.stringify({
          openapi: '3.1.0',
          info: { title: 'faker', version: '1' },
          paths: {
            '/person': {
              get: { responses: { 200: { description: 'a person', content: { 'application/json': { schema } } } } },
            },
          },
        }),
      );
      const mock = await prism.mock({ document, dynamic: true });
      try {
        const { email } = await (await fetch(`${mock.url}/person`)).json();
        expect(email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
      } finally {
        await mock.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    HANG,
  );

  it(
    "closes a mock whose process is ending (Ctrl-C reaches the whole group): no 'Channel closed'",
    async () => {
      const own = startPrism();
      const mock = await own.mock({ document: bundle });
      const ending = own.close(); // the process is signalled; its exit is not seen yet
      await expect(mock.close()).resolves.toBeUndefined();
      await ending;
      await expect(
        fetch(`${mock.url}/tasks/7f3c2a1e-5b4d-4e8f-9a6c-1d2b3e4f5a60`, { headers: auth }),
      ).rejects.toThrow();
    },
    HANG,
  );

  it('names the missing document', async () => {
    await expect(prism.proxy({ document: '/nonexistent/api.yaml', upstream: 'http://127.0.0.1:1' })).rejects.toThrow(
      /prism proxy: document "\/nonexistent\/api.yaml" does not exist/,
    );
  });
});

describe('onFreePort', () => {
  const inUse = (port) =>
    Promise.reject(new Error(`Prism exited: listen EADDRINUSE: address already in use 127.0.0.1:${port}`));
  it('tries a new free port when the picked one was taken meanwhile', async () => {
    const ports = [5001, 5002];
    const tried = [];
    const result = await onFreePort(
      undefined,
      (p) => {
        tried.push(p);
        return p === 5001 ? inUse(p) : Promise.resolve(`on ${p}`);
      },
      async () => /** @type {number} */ (ports.shift()),
    );
    expect(result).toBe('on 5002');
    expect(tried).toEqual([5001, 5002]);
  });
  it('gives up after three taken ports, and never retries a port the caller chose or another error', async () => {
    let n = 5000;
    await expect(onFreePort(undefined, inUse, async () => ++n)).rejects.toThrow(/EADDRINUSE.*5003/);
    const tried = [];
    await expect(
      onFreePort(4010, (p) => {
        tried.push(p);
        return inUse(p);
      }),
    ).rejects.toThrow(/EADDRINUSE/);
    await expect(
      onFreePort(
        undefined,
        () => Promise.reject(new Error('bad document')),
        async () => 5100,
      ),
    ).rejects.toThrow('bad document');
    expect(tried).toEqual([4010]);
  });
});
