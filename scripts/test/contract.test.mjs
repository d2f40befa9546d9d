import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { serverBasePath } from '@svc/oas';
import { apis } from '@svc/oas/apis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOnlyOperations, violationsOf } from '../lib/contract-live.mjs';
import { runCommand } from './support/run.mjs';

const SCRIPT = fileURLToPath(new URL('../contract.mjs', import.meta.url));
const central = /** @type {import('@svc/oas/apis').ApiEntry} */ (apis().find((a) => a.name === 'central'));
const doc = JSON.parse(readFileSync(central.bundleJson, 'utf8'));
const base = serverBasePath(doc.servers[0].url);
const USER = 'auditor';
const PASSWORD = 'n0t-printed-S3cret';

const deref = (v) =>
  v?.$ref
    ? deref(
        v.$ref
          .slice(2)
          .split('/')
          .reduce((n, k) => n?.[k], doc),
      )
    : v;

/** The first example of an operation's 2xx JSON response, from the bundle. */
function successExample(op) {
  const [status, res] = /** @type {[string, any]} */ (Object.entries(op.responses).find(([s]) => /^2/.test(s)));
  const media = deref(res).content['application/json'];
  return { status: Number(status), body: structuredClone(deref(Object.values(media.examples)[0]).value) };
}

/**
 * A stand-in for a real central server: every read-only operation answers its spec example,
 * except GET /images/{uuid}, which sends `api_version` as a number (the spec says string). The
 * first POST /tasks/list has its connection reset, as a server closing an idle keep-alive one.
 */
function fakeServer(tls) {
  const seen = [];
  let reset = false;
  const routes = readOnlyOperations(doc).map((o) => ({
    ...o,
    re: new RegExp(`^${base}${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  const server = (tls ? (h) => createTlsServer(tls, h) : createServer)((req, res) => {
    seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
    const url = new URL(req.url, 'http://x');
    const route = routes.find((r) => r.method.toUpperCase() === req.method && r.re.test(url.pathname));
    req.resume();
    if (route?.operationId === 'tasks_list' && !reset) {
      reset = true;
      req.socket.destroy();
      return;
    }
    if (!route) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    const { status, body } = successExample(route.op);
    if (route.operationId === 'images_get') body.api_version = 3.1;
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  return { server, seen };
}

const run = (args, env = {}) =>
  runCommand(process.execPath, [SCRIPT, ...args], { env: { ...process.env, SVC_PASSWORD: PASSWORD, ...env } });

describe('readOnlyOperations', () => {
  it('keeps lists, gets and polls, drops changes and the binary download', () => {
    const ids = readOnlyOperations(doc).map((o) => o.operationId);
    expect(ids).toEqual(
      expect.arrayContaining(['images_list', 'images_get', 'tasks_poll', 'tasks_get', 'clusters_list']),
    );
    for (const id of ['images_create', 'images_update', 'images_delete', 'images_upload_file', 'images_download_file'])
      expect(ids).not.toContain(id);
    // lists first: they yield the identifiers the gets use
    expect(ids.indexOf('images_list')).toBeLessThan(ids.indexOf('images_get'));
  });
});

describe('violationsOf', () => {
  it('names where and which field', () => {
    expect(
      violationsOf([
        { location: ['response', 'body', 'metadata', 'uuid'], severity: 'Error', message: 'must be string' },
      ]),
    ).toEqual([{ where: 'response', field: 'body metadata.uuid', message: 'must be string', severity: 'Error' }]);
  });
});

describe('npm run contract', () => {
  let fake;
  let origin;
  beforeAll(async () => {
    fake = fakeServer();
    await new Promise((r) => fake.server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (fake.server.address()).port}`;
  });
  afterAll(() => new Promise((r) => fake.server.close(r)));

  it('reports the one operation the server answers wrongly, by operation and field, and no other', async () => {
    const { code, out } = await run(['--target', origin, '--user', USER, '--api', 'central']);
    expect(code, out).toBe(1);
    expect(out).toMatch(/central images_get GET \/images\/\{uuid\} -> 500: 1 violation\(s\)/);
    expect(out).toMatch(/Error response body api_version: .*must be string/);
    expect(out).toMatch(/central images_list POST \/images\/list -> 200: conforms/);
    // the call whose connection was reset was made once more
    expect(out).toMatch(/central tasks_list POST \/tasks\/list -> 200: conforms/);
    expect(out).toMatch(/contract: 1 violation\(s\)$/m);
    // every call went through the proxy to the target's base path, with the credentials
    expect(fake.seen.length).toBe(readOnlyOperations(doc).length + 1);
    expect(fake.seen.every((s) => s.url.startsWith(`${base}/`))).toBe(true);
    expect(fake.seen[0].authorization).toBe(`Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`);
    // the get used the identifier the list returned
    const listed = successExample(doc.paths['/images/list'].post).body.entities[0].metadata.uuid;
    expect(fake.seen.map((s) => s.url)).toContain(`${base}/images/${listed}`);
    // never the password, not even encoded
    expect(out).not.toContain(PASSWORD);
    expect(out).not.toContain(Buffer.from(`${USER}:${PASSWORD}`).toString('base64'));
  });

  it('refuses to start without the password variable, naming it', async () => {
    const { code, out } = await run(['--target', origin, '--user', USER], { SVC_PASSWORD: '' });
    expect(code).toBe(2);
    expect(out).toMatch(/environment variable SVC_PASSWORD, which is empty or not set/);
  });

  it('refuses a target with a path or credentials, naming the option', async () => {
    expect((await run(['--target', `${origin}/api/svc/v3`, '--user', USER])).out).toMatch(
      /--target is the origin only/,
    );
    expect((await run(['--target', `http://u:p@127.0.0.1:1`, '--user', USER])).out).toMatch(
      /--target must not carry credentials/,
    );
    expect((await run(['--user', USER])).out).toMatch(/--target is required/);
  });
});

describe('npm run contract against a self-signed HTTPS target', () => {
  let fake;
  let origin;
  beforeAll(async () => {
    // selfsigned, as the client package (which declares it) resolves it
    const { generate } = createRequire(fileURLToPath(new URL('../../packages/client/package.json', import.meta.url)))(
      'selfsigned',
    );
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    fake = fakeServer({ key: pems.private, cert: pems.cert });
    await new Promise((r) => fake.server.listen(0, '127.0.0.1', r));
    origin = `https://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (fake.server.address()).port}`;
  });
  afterAll(() => new Promise((r) => fake.server.close(r)));

  it('does not count an unverifiable certificate as conforming', async () => {
    const { code, out } = await run(['--target', origin, '--user', USER, '--api', 'central']);
    expect(code, out).toBe(1);
    expect(out).toMatch(/central images_list POST \/images\/list -> \d+: NOT CHECKED/);
    expect(out).not.toMatch(/conforms/);
    expect(fake.seen).toHaveLength(0);
  });

  it('with --insecure: warns, reaches the target and still reports the wrong answer', async () => {
    const { code, out } = await run(['--target', origin, '--user', USER, '--api', 'central', '--insecure']);
    expect(code, out).toBe(1);
    expect(out).toMatch(/WARNING --insecure/);
    expect(out).toMatch(/central images_get GET \/images\/\{uuid\} -> 500: 1 violation\(s\)/);
    expect(out).toMatch(/contract: 1 violation\(s\)$/m);
    expect(out).not.toContain(PASSWORD);
  });
});
