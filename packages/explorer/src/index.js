// Serves the built API explorer and proxies "Try it out" requests to local mocks.
// Node built-ins only.
import { createServer, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { existsSync, readFileSync, statSync, createReadStream } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';

/** Content types of the files of the built folder. */
export const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** Description of the server entry inserted in front of a spec's servers. */
export const MOCK_SERVER_DESCRIPTION = 'Prism mock (this machine)';

/** Headers that belong to one connection and are not forwarded (RFC 9110 section 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * The base path of the first server of an OpenAPI document: `https://{host}:{port}/api/svc/v3`
 * -> `/api/svc/v3`; `''` when there is no server or it is at the root.
 * @param {any} document an OpenAPI 3.x document
 * @returns {string} a path starting with `/` without a trailing `/`, or `''`
 */
export function basePathOf(document) {
  const url = document?.servers?.[0]?.url;
  if (typeof url !== 'string') return '';
  const path = url.replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/]*/, '').replace(/[?#].*$/, '');
  const normalised = path.startsWith('/') ? path : `/${path}`;
  return normalised.replace(/\/+$/, '');
}

/**
 * A copy of `document` whose first server is the explorer's mock proxy for `api`:
 * `{ url: '/mock/<api>' + <base path of the first server>, description: 'Prism mock (this machine)' }`.
 * The other servers stay selectable after it.
 * @param {any} document an OpenAPI 3.x document (not modified)
 * @param {string} api the API name (`central`)
 * @returns {any}
 */
export function withMockServer(document, api) {
  const servers = Array.isArray(document.servers) ? document.servers : [];
  return {
    ...document,
    servers: [{ url: `/mock/${api}${basePathOf(document)}`, description: MOCK_SERVER_DESCRIPTION }, ...servers],
  };
}

/**
 * @typedef {object} RunningExplorer
 * @property {string} url   the page, e.g. `http://127.0.0.1:43123/`
 * @property {number} port  the TCP port the server listens on
 * @property {() => Promise<void>} close  stops the server and drops open connections
 */

/**
 * Serves a built explorer folder (`packages/explorer/dist`, made by `npm run build -w @svc/explorer`)
 * over HTTP, with a same-origin proxy to local mocks.
 *
 * - `GET`/`HEAD` of a file of `dir` serves it with its content type (`/` is `index.html`);
 *   anything else is `404` (`405` for other methods).
 * - `GET /specs/<api>.json` when `mocks[api]` is set serves the spec with a first server
 *   `{ url: '/mock/<api>/<base path>', description: 'Prism mock (this machine)' }`, so that
 *   "Try it out" calls the mock by default; the real servers stay selectable.
 * - `/mock/<api>/<path>` is forwarded (method, headers, body, query) to `mocks[api]`. Prism 5
 *   ignores the servers' base path and serves the document's paths as they are
 *   (`POST /images/list`, not `/api/svc/v3/images/list`), so by default the spec's base path is
 *   removed from `<path>` before forwarding (`stripBasePath: false` keeps it). A
 *   `WWW-Authenticate` header of the mock's answer is renamed `X-Mock-WWW-Authenticate`:
 *   otherwise a 401 on this same-origin page would open the browser's own login dialog
 *   instead of showing the response. An unreachable mock answers `502`, an unknown API `404`.
 *
 * @param {object} options
 * @param {string} options.dir   the built folder (must contain `index.html`)
 * @param {string} [options.host] address to listen on; `127.0.0.1` (this machine only) by default
 * @param {number} [options.port] port to listen on; `0` (a free port) by default
 * @param {Record<string, string>} [options.mocks]
 *   mock origin by API name, e.g. `{ central: 'http://127.0.0.1:43121' }` (a path after the
 *   origin is kept as a prefix)
 * @param {boolean} [options.stripBasePath] remove the spec's base path before forwarding to a
 *   mock (default `true`, right for Prism)
 * @returns {Promise<RunningExplorer>}
 * @throws {Error} when `dir` is not a built explorer (run `npm run build -w @svc/explorer`), when a
 *   mock URL is not an `http:`/`https:` URL or names an API without `specs/<api>.json` in `dir`,
 *   or when the server cannot listen (e.g. `EADDRINUSE`)
 */
export async function startExplorer({ dir, host = '127.0.0.1', port = 0, mocks = {}, stripBasePath = true } = /** @type {any} */ ({})) {
  if (typeof dir !== 'string' || dir === '') throw new TypeError('startExplorer: `dir` (the built explorer folder) is required');
  const root = resolve(dir);
  if (!existsSync(join(root, 'index.html'))) {
    throw new Error(
      `startExplorer: ${root} is not a built explorer (no index.html); run \`npm run build -w @svc/explorer\` first`,
    );
  }

  /** @type {Map<string, { target: URL, basePath: string }>} */
  const upstreams = new Map();
  for (const [api, origin] of Object.entries(mocks ?? {})) {
    if (origin === undefined || origin === null || origin === '') continue;
    let target;
    try {
      target = new URL(String(origin));
    } catch {
      throw new Error(`startExplorer: mocks.${api} = ${JSON.stringify(origin)} is not a URL`);
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw new Error(`startExplorer: mocks.${api} = ${JSON.stringify(origin)} is not an http(s) URL`);
    }
    const specFile = join(root, 'specs', `${api}.json`);
    if (!existsSync(specFile)) {
      throw new Error(`startExplorer: mocks.${api} is set but ${specFile} does not exist (is "${api}" an API of the build?)`);
    }
    const basePath = stripBasePath ? basePathOf(JSON.parse(readFileSync(specFile, 'utf8'))) : '';
    upstreams.set(api, { target, basePath });
  }

  const server = createServer((req, res) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://explorer.invalid').pathname);
    } catch {
      return sendText(res, 400, 'Bad request path\n');
    }
    const mock = /^\/mock\/([^/]+)(\/.*)?$/.exec(pathname);
    if (mock) return proxy(req, res, mock[1], upstreams);
    return serveStatic(req, res, root, pathname, upstreams);
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolvePromise(undefined);
    });
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}/`,
    port: address.port,
    close: () =>
      new Promise((resolvePromise) => {
        server.close(() => resolvePromise(undefined));
        server.closeAllConnections();
      }),
  };
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {string} text
 */
function sendText(res, status, text, headers = {}) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} root
 * @param {string} pathname decoded request path
 * @param {Map<string, { target: URL, basePath: string }>} upstreams
 */
function serveStatic(req, res, root, pathname, upstreams) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendText(res, 405, 'Method not allowed\n', { allow: 'GET, HEAD' });
  }
  const relative = pathname.endsWith('/') ? `${pathname}index.html` : pathname;
  const file = resolve(root, `.${relative}`);
  if (pathname.includes('\0') || (file !== root && !file.startsWith(root + sep))) return sendText(res, 404, 'Not found\n');
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return sendText(res, 404, 'Not found\n');
  }
  if (!stat.isFile()) return sendText(res, 404, 'Not found\n');

  const headers = {
    'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  };
  const spec = /^\/specs\/([^/]+)\.json$/.exec(pathname);
  if (spec && upstreams.has(spec[1])) {
    let body;
    try {
      body = `${JSON.stringify(withMockServer(JSON.parse(readFileSync(file, 'utf8')), spec[1]), null, 2)}\n`;
    } catch (error) {
      return sendText(res, 500, `Cannot read ${pathname}: ${error.message}\n`);
    }
    res.writeHead(200, { ...headers, 'content-length': Buffer.byteLength(body) });
    return res.end(req.method === 'HEAD' ? undefined : body);
  }
  res.writeHead(200, { ...headers, 'content-length': stat.size });
  if (req.method === 'HEAD') return res.end();
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}

/**
 * Forwards a `/mock/<api>/...` request to the mock of `api`.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} api
 * @param {Map<string, { target: URL, basePath: string }>} upstreams
 */
function proxy(req, res, api, upstreams) {
  const upstream = upstreams.get(api);
  if (!upstream) {
    return sendText(res, 404, `No mock is configured for API "${api}" (known: ${[...upstreams.keys()].join(', ') || 'none'})\n`);
  }
  // Work on the raw (still percent-encoded) path so that encoded characters are forwarded unchanged.
  const raw = req.url ?? '/';
  const queryAt = raw.indexOf('?');
  const rawPath = queryAt === -1 ? raw : raw.slice(0, queryAt);
  const query = queryAt === -1 ? '' : raw.slice(queryAt);
  let rest = rawPath.replace(/^\/mock\/[^/]+/, '') || '/';
  const { target, basePath } = upstream;
  if (basePath && (rest === basePath || rest.startsWith(`${basePath}/`))) rest = rest.slice(basePath.length) || '/';
  const prefix = target.pathname.replace(/\/+$/, '');

  /** @type {import('node:http').OutgoingHttpHeaders} */
  const headers = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
  }
  headers.host = target.host;

  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const outgoing = send(
    {
      protocol: target.protocol,
      hostname: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port || undefined,
      method: req.method,
      path: `${prefix}${rest}${query}`,
      headers,
    },
    (incoming) => {
      /** @type {import('node:http').OutgoingHttpHeaders} */
      const answer = {};
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (HOP_BY_HOP.has(name) || value === undefined) continue;
        answer[name === 'www-authenticate' ? 'x-mock-www-authenticate' : name] = value;
      }
      res.writeHead(incoming.statusCode ?? 502, answer);
      incoming.pipe(res);
      incoming.on('error', () => res.destroy());
    },
  );
  outgoing.on('error', (error) => {
    if (res.headersSent) return res.destroy();
    sendText(res, 502, `The mock of API "${api}" at ${target.origin} did not answer: ${error.message}\n`);
  });
  req.pipe(outgoing);
  res.on('close', () => {
    if (!res.writableFinished) outgoing.destroy();
  });
}
