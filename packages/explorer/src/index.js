// Serves the built API explorer, proxies "Try it out" requests to local mocks and forwards them
// to real endpoints that the user names. Node built-ins, and @svc/oas for the servers' base paths.
import { createServer, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { existsSync, readFileSync, statSync, createReadStream } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { serverBasePath } from '@svc/oas';

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

/** Path of the page's server description; the build writes a static one (`forward: false`). */
export const SERVER_INFO_PATH = '/explorer-server.json';

/**
 * Request header the page sets on every forwarded request. Its value says how to treat the
 * endpoint's certificate: `verify` (default) or `insecure` (the user ticked "self-signed").
 * A page of another origin cannot send it without a CORS preflight, which this server refuses.
 */
export const FORWARD_HEADER = 'x-svc-explorer-forward';

/** How long a forwarded request may stay silent (no bytes either way) before it fails (ms). */
const FORWARD_IDLE_TIMEOUT = 120_000;

/** Request headers of the browser that must not reach an upstream. */
const BROWSER_ONLY = new Set(['origin', 'referer', 'cookie', FORWARD_HEADER]);

/** TLS error codes that mean "the certificate is not trusted". */
const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

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
  return serverBasePath(document?.servers?.[0]?.url);
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
 * @property {boolean} forward  whether `/forward/...` is served
 * @property {() => Promise<void>} close  stops the server and drops open connections
 */

/** True for an address of this machine only (`127.0.0.1`, `::1`, `localhost`). */
function isLoopback(host) {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Serves a built explorer folder (`packages/explorer/dist`, made by `npm run build -w @svc/explorer`)
 * over HTTP, with a same-origin proxy to local mocks and a forwarder to real endpoints.
 *
 * - `GET`/`HEAD` of a file of `dir` serves it with its content type (`/` is `index.html`);
 *   anything else is `404` (`405` for other methods).
 * - `GET /explorer-server.json` tells the page what this server offers
 *   (`{ server: 'startExplorer', forward, insecureTls, mocks }`); a plain static server serves the
 *   build's file instead, which says `forward: false`.
 * - `GET /specs/<api>.json` when `mocks[api]` is set serves the spec with a first server
 *   `{ url: '/mock/<api>/<base path>', description: 'Prism mock (this machine)' }`, so that
 *   "Try it out" calls the mock by default; the real servers stay selectable.
 * - `/mock/<api>/<path>` is forwarded (method, headers, body, query) to `mocks[api]`. Prism 5
 *   ignores the servers' base path and serves the document's paths as they are
 *   (`POST /images/list`, not `/api/svc/v3/images/list`), so by default the spec's base path is
 *   removed from `<path>` before forwarding (`stripBasePath: false` keeps it). An unreachable
 *   mock answers `502`, an unknown API `404`.
 * - `/forward/<http|https>/<host>[:<port>]/<path>` (when `forward` is on) sends the request to
 *   `<scheme>://<host>:<port>/<path>`: the page uses it for a real endpoint, which then needs
 *   no CORS and may have a certificate the browser does not trust. It goes only to the host the
 *   path names. The request must carry `X-Svc-Explorer-Forward: verify|insecure` (the page sets
 *   it; a page of another origin cannot without a CORS preflight, which is refused). The
 *   certificate of an https endpoint is verified against Node's CAs plus `ca`, unless the
 *   header says `insecure` (the user ticked "self-signed certificate") or `insecureTls` is set.
 *   An untrusted certificate, a refused connection or a silent endpoint answer `502`/`504` with
 *   the reason in the body.
 * - On both proxies `Origin`, `Referer` and `Cookie` of the browser are not passed on; a
 *   `WWW-Authenticate` header of the answer is renamed `X-Upstream-WWW-Authenticate`
 *   (otherwise a 401 on this same-origin page would open the browser's own login dialog instead
 *   of showing the response), and `Set-Cookie` is renamed `X-Upstream-Set-Cookie` (so that a
 *   session cookie of one endpoint is never sent to another).
 * - While it listens on a loopback address, `/mock/` and `/forward/` answer only requests whose
 *   `Host` is that loopback address (a web page cannot reach them by DNS rebinding).
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
 * @param {boolean} [options.forward] serve `/forward/...`; by default on when `host` is a loopback
 *   address and off otherwise (the forwarder would let anyone who reaches the port use it)
 * @param {boolean} [options.insecureTls] never verify the certificates of forwarded https
 *   endpoints (default `false`: only when the page asks, per request)
 * @param {string | Buffer | Array<string | Buffer>} [options.ca] extra CA certificates (PEM) to
 *   trust for forwarded https endpoints, beside Node's own
 * @returns {Promise<RunningExplorer>}
 * @throws {Error} when `dir` is not a built explorer (run `npm run build -w @svc/explorer`), when a
 *   mock URL is not an `http:`/`https:` URL or names an API without `specs/<api>.json` in `dir`,
 *   or when the server cannot listen (e.g. `EADDRINUSE`)
 */
export async function startExplorer({
  dir,
  host = '127.0.0.1',
  port = 0,
  mocks = {},
  stripBasePath = true,
  forward,
  insecureTls = false,
  ca,
} = /** @type {any} */ ({})) {
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

  const loopback = isLoopback(host);
  const forwarding = forward ?? loopback;
  const trusted = ca === undefined ? undefined : [...rootCertificates, ...(Array.isArray(ca) ? ca : [ca])];
  /** @type {number} */
  let boundPort = 0;
  const allowedHosts = () => new Set([`127.0.0.1:${boundPort}`, `localhost:${boundPort}`, `[::1]:${boundPort}`, `${host}:${boundPort}`]);
  const info = JSON.stringify({ server: 'startExplorer', forward: forwarding, insecureTls: Boolean(insecureTls), mocks: [...upstreams.keys()] });

  const server = createServer((req, res) => {
    const raw = req.url ?? '/';
    const proxied = /^\/(mock|forward)\//.test(raw);
    if (proxied && loopback && !allowedHosts().has(String(req.headers.host ?? '').toLowerCase())) {
      return sendText(res, 403, `Host "${req.headers.host ?? ''}" is not this explorer's address\n`);
    }
    if (forwarding && raw.startsWith('/forward/')) return forwardRequest(req, res, { insecureTls, ca: trusted });
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(raw, 'http://explorer.invalid').pathname);
    } catch {
      return sendText(res, 400, 'Bad request path\n');
    }
    const mock = /^\/mock\/([^/]+)(\/.*)?$/.exec(pathname);
    if (mock) return proxyToMock(req, res, mock[1], upstreams);
    if (pathname === SERVER_INFO_PATH && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(200, { 'content-type': CONTENT_TYPES['.json'], 'content-length': Buffer.byteLength(info), 'cache-control': 'no-store' });
      return res.end(req.method === 'HEAD' ? undefined : info);
    }
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
  boundPort = address.port;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}/`,
    port: address.port,
    forward: forwarding,
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
function proxyToMock(req, res, api, upstreams) {
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
  pipe(req, res, {
    target,
    path: `${prefix}${rest}${query}`,
    failure: (error) => [502, `The mock of API "${api}" at ${target.origin} did not answer: ${error.message}\n`],
  });
}

/**
 * Forwards a `/forward/<scheme>/<host>[:<port>]/<path>` request to that endpoint.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {{ insecureTls: boolean, ca: Array<string | Buffer> | undefined }} tls
 */
function forwardRequest(req, res, { insecureTls, ca }) {
  const raw = req.url ?? '/';
  const match = /^\/forward\/(https?)\/([^/?#]+)([^?#]*)(\?[^#]*)?$/.exec(raw);
  if (!match) return sendText(res, 400, 'Use /forward/<http|https>/<host>[:<port>]/<path>\n');
  const [, scheme, authority, path, query = ''] = match;
  let target;
  try {
    if (/[%@\\]/.test(authority)) throw new Error('bad host');
    target = new URL(`${scheme}://${authority}/`);
    const hostname = target.hostname.replace(/^\[|\]$/g, '');
    if (!hostname || (!isIP(hostname) && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(hostname))) {
      throw new Error('bad host');
    }
  } catch {
    return sendText(res, 400, `"${authority}" is not a host name or address with an optional port\n`);
  }
  const mode = String(req.headers[FORWARD_HEADER] ?? '');
  if (mode !== 'verify' && mode !== 'insecure') {
    return sendText(res, 400, `Requests to /forward/ come from the explorer page, which sets the ${FORWARD_HEADER} header (verify or insecure)\n`);
  }
  const skipVerification = insecureTls || mode === 'insecure';
  pipe(req, res, {
    target,
    path: `${path || '/'}${query}`,
    tls: { rejectUnauthorized: !skipVerification, ...(ca ? { ca } : {}) },
    timeout: FORWARD_IDLE_TIMEOUT,
    failure: (error) => {
      const code = /** @type {any} */ (error).code;
      if (UNTRUSTED_CERTIFICATE.has(code)) {
        return [
          502,
          `The certificate of ${target.origin} is not trusted (${code}: ${error.message}).\n` +
            'If this endpoint uses a self-signed certificate, tick "Self-signed certificate" next to the servers and try again.\n',
        ];
      }
      if (code === 'ETIMEDOUT') return [504, `${target.origin} did not answer within ${FORWARD_IDLE_TIMEOUT / 1000} s\n`];
      return [502, `${target.origin} did not answer: ${error.message}${code ? ` (${code})` : ''}\n`];
    },
  });
}

/**
 * Sends `req` to `target` + `path` and streams the answer back.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {{ target: URL, path: string, tls?: object, timeout?: number,
 *   failure: (error: Error) => [number, string] }} options
 */
function pipe(req, res, { target, path, tls = {}, timeout, failure }) {
  /** @type {import('node:http').OutgoingHttpHeaders} */
  const headers = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (HOP_BY_HOP.has(name) || BROWSER_ONLY.has(name) || name.startsWith('sec-') || value === undefined) continue;
    headers[name] = value;
  }
  headers.host = target.host;

  const https = target.protocol === 'https:';
  const send = https ? httpsRequest : httpRequest;
  const outgoing = send(
    {
      protocol: target.protocol,
      hostname: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port || undefined,
      method: req.method,
      path,
      headers,
      ...(https ? tls : {}),
      ...(timeout ? { timeout } : {}),
    },
    (incoming) => {
      /** @type {import('node:http').OutgoingHttpHeaders} */
      const answer = {};
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (HOP_BY_HOP.has(name) || value === undefined) continue;
        if (name === 'www-authenticate' || name === 'set-cookie') answer[`x-upstream-${name}`] = value;
        else answer[name] = value;
      }
      res.writeHead(incoming.statusCode ?? 502, answer);
      incoming.pipe(res);
      incoming.on('error', () => res.destroy());
    },
  );
  outgoing.on('timeout', () => outgoing.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
  outgoing.on('error', (error) => {
    if (res.headersSent) return res.destroy();
    const [status, text] = failure(error);
    sendText(res, status, text);
  });
  req.pipe(outgoing);
  res.on('close', () => {
    if (!res.writableFinished) outgoing.destroy();
  });
}
