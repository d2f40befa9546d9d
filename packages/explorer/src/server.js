// startExplorer: one HTTP server that routes each request, by one decoded and normalised path, to
// the static files, the mock and local svc proxies, the forwarder or the live-reload events.

import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { rootCertificates } from 'node:tls';
import { forwardRequest, isControlPath, isThisMachine } from './forwarder.js';
import { createReloadEvents, EVENTS_PATH } from './live-reload.js';
import { proxyToLocal, proxyToMock } from './mock-proxy.js';
import { createRelay, sendText } from './relay.js';
import { basePathOf, withLocalServer, withMockServer, withoutOwnServers } from './servers.js';
import { createStaticFiles } from './static-files.js';

/** Path of the page's server description; the build writes a static one (`forward: false`). */
export const SERVER_INFO_PATH = '/explorer-server.json';

/**
 * @typedef {object} RunningExplorer
 * @property {string} url   the page, e.g. `http://127.0.0.1:43123/`
 * @property {number} port  the TCP port the server listens on
 * @property {boolean} forward  whether `/forward/...` is served
 * @property {(what: string) => void} reload  tells every open page to reload (with `liveReload`; a no-op otherwise)
 * @property {(list: import('./live-reload.js').DevProblem[]) => void} problems  tells every open page
 *   (and every page opened later) what the spec's last save broke, shown at the top of the page;
 *   `[]` takes it away (with `liveReload`; a no-op otherwise)
 * @property {() => Promise<void>} close  stops the server and drops open connections
 */

/** True for an address of this machine only (`127.0.0.1`, `::1`, `localhost`). */
function isLoopback(host) {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Serves a built explorer folder (`packages/explorer/dist`, made by `npm run build -w @svc/explorer`)
 * over HTTP, with same-origin proxies to the local mocks and local svc, and a forwarder to real
 * endpoints. What each route does is in the package README ("Serve").
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
 * @param {{ url: string, ca?: string | Buffer }} [options.simulator] the local svc (`startSimulator`'s
 *   `url` and `ca`): `/local/<production path>` goes to it, trusting `ca`, and it becomes every
 *   spec's first server
 * @param {boolean} [options.forward] serve `/forward/...`; by default on when `host` is a loopback
 *   address and off otherwise (the forwarder would let anyone who reaches the port use it)
 * @param {boolean} [options.insecureTls] never verify the certificates of forwarded https
 *   endpoints (default `false`: only when the page asks, per request)
 * @param {string | Buffer | Array<string | Buffer>} [options.ca] extra CA certificates (PEM) to
 *   trust for forwarded https endpoints, beside Node's own
 * @param {boolean} [options.allowLoopback] let the forwarder reach any port of this machine; by
 *   default it refuses this machine's addresses (any spelling, and names that resolve to them)
 *   except the ports of `mocks` and `simulator`
 * @param {boolean} [options.liveReload] serve the live-reload events and add their script to the
 *   page (`npm run dev`); `reload()` of the result then reloads every open page, `problems()` shows
 *   what the last save broke in them
 * @returns {Promise<RunningExplorer>}
 * @throws {Error} when `dir` is not a built explorer (run `npm run build -w @svc/explorer`), when a
 *   mock or simulator URL is not an `http:`/`https:` URL, a mock names an API without
 *   `specs/<api>.json` in `dir`, or when the server cannot listen (e.g. `EADDRINUSE`)
 */
export async function startExplorer(
  {
    dir,
    host = '127.0.0.1',
    port = 0,
    mocks = {},
    stripBasePath = true,
    simulator,
    forward,
    insecureTls = false,
    ca,
    allowLoopback = false,
    liveReload = false,
  } = /** @type {any} */ ({}),
) {
  if (typeof dir !== 'string' || dir === '')
    throw new TypeError('startExplorer: `dir` (the built explorer folder) is required');
  const root = resolve(dir);
  if (!existsSync(join(root, 'index.html'))) {
    throw new Error(
      `startExplorer: ${root} is not a built explorer (no index.html); run \`npm run build -w @svc/explorer\` first`,
    );
  }

  /** @type {Map<string, import('./mock-proxy.js').MockUpstream>} */
  const upstreams = new Map();
  for (const [api, origin] of Object.entries(mocks ?? {})) {
    if (origin === undefined || origin === null || origin === '') continue;
    const target = httpUrl(`mocks.${api}`, origin);
    const specFile = join(root, 'specs', `${api}.json`);
    if (!existsSync(specFile)) {
      throw new Error(
        `startExplorer: mocks.${api} is set but ${specFile} does not exist (is "${api}" an API of the build?)`,
      );
    }
    const basePath = stripBasePath ? basePathOf(JSON.parse(readFileSync(specFile, 'utf8'))) : '';
    upstreams.set(api, { target, basePath });
  }
  const local = simulator ? { url: httpUrl('simulator.url', simulator.url), ca: simulator.ca } : undefined;

  // The forwarder may reach these ports of this machine: the upstreams started beside the explorer.
  const localPorts = new Set(
    [...[...upstreams.values()].map((u) => u.target), ...(local ? [local.url] : [])]
      .filter((url) => isThisMachine(url.hostname) || url.hostname === 'localhost')
      .map((url) => Number(url.port || (url.protocol === 'https:' ? 443 : 80))),
  );
  const loopback = isLoopback(host);
  const forwarding = forward ?? loopback;
  const trusted = ca === undefined ? undefined : [...rootCertificates, ...(Array.isArray(ca) ? ca : [ca])];
  /** @type {number} */
  let boundPort = 0;
  let origin = '';
  const allowedHosts = () =>
    new Set([`127.0.0.1:${boundPort}`, `localhost:${boundPort}`, `[::1]:${boundPort}`, `${host}:${boundPort}`]);
  const info = JSON.stringify({
    server: 'startExplorer',
    forward: forwarding,
    insecureTls: Boolean(insecureTls),
    mocks: [...upstreams.keys()],
    localSvc: Boolean(local),
    // Where the local svc itself answers: the origin of the sample image its examples use.
    localSvcUrl: local ? local.url.origin : null,
  });

  const relay = createRelay();
  const events = createReloadEvents();
  const serveStatic = createStaticFiles({
    root,
    liveReload,
    spec(api, document) {
      const basePath = basePathOf(document);
      const mocked = upstreams.has(api);
      // The control API is the local svc's alone: its own `https://{host}:{port}/_svc` would go
      // through the forwarder, which never sends `/_svc/` on.
      let served = isControlPath(basePath) && (mocked || local) ? withoutOwnServers(document) : document;
      if (mocked) served = withMockServer(served, api, basePath);
      if (local) served = withLocalServer(served, local.url.origin, basePath);
      return served;
    },
  });

  const server = createServer((req, res) => {
    try {
      route(req, res);
    } catch (error) {
      // A bug or a peer's oddity costs one request, never the server.
      if (res.headersSent) res.destroy();
      else sendText(res, 500, `The explorer server failed on this request: ${error.code ?? error.message}\n`);
    }
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  // Node's 5 s keep-alive ends a pooled connection while a client told `timeout=5` may be sending
  // on it (a script polling the dev server between rebuilds met ECONNRESET at load 25): 65 s, as
  // the simulator and load balancers use.
  server.keepAliveTimeout = 65_000;

  /** @type {import('node:http').RequestListener} */
  function route(req, res) {
    const request = parseTarget(req.url ?? '/');
    if (!request) return sendText(res, 400, 'Bad request path\n');
    const { segments, raw, query, authority } = request;
    const first = segments[1];
    const isProxy =
      first === 'mock' ||
      first === 'local' ||
      (forwarding && first === 'forward') ||
      (liveReload && request.path === EVENTS_PATH);
    if (isProxy && loopback) {
      // DNS rebinding: a page of another name that resolves to this address must not reach the proxies.
      const allowed = allowedHosts();
      const names = [
        String(req.headers.host ?? '').toLowerCase(),
        ...(authority === undefined ? [] : [authority.toLowerCase()]),
      ];
      if (!names.every((name) => allowed.has(name))) {
        return sendText(res, 403, `Host "${authority ?? req.headers.host ?? ''}" is not this explorer's address\n`);
      }
    }
    const rest = (from) => (raw.length > from ? `/${raw.slice(from).join('/')}` : '');
    if (first === 'mock' && segments.length > 2)
      return proxyToMock(relay, req, res, { api: segments[2], rest: rest(3), query }, upstreams);
    if (first === 'local' && local) return proxyToLocal(relay, req, res, { rest: rest(2), query }, local);
    if (first === 'local')
      return sendText(res, 404, 'No local svc runs beside this explorer (npm run serve starts one)\n');
    if (first === 'forward' && forwarding) {
      return forwardRequest(
        relay,
        req,
        res,
        { scheme: raw[2] ?? '', authority: raw[3] ?? '', rest: rest(4), query },
        { insecureTls, ca: trusted, allowLoopback, localPorts },
      );
    }
    if (liveReload && request.path === EVENTS_PATH) return events.serve(req, res);
    if (request.path === SERVER_INFO_PATH && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(info),
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : info);
      return;
    }
    if (request.path === undefined) return sendText(res, 404, 'Not found\n');
    return serveStatic(req, res, request.path);
  }

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
  origin = `http://${urlHost}:${address.port}`;
  return {
    url: `${origin}/`,
    port: address.port,
    forward: forwarding,
    reload: (what) => events.reload(what),
    problems: (list) => events.problems(list),
    close: () =>
      new Promise((resolvePromise) => {
        events.close();
        server.close(() => resolvePromise(undefined));
        server.closeAllConnections();
      }),
  };
}

/** @returns {URL} `value` as an http(s) URL; throws naming `field` otherwise */
function httpUrl(field, value) {
  let url;
  try {
    url = new URL(String(value));
  } catch {
    throw new Error(`startExplorer: ${field} = ${JSON.stringify(value)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`startExplorer: ${field} = ${JSON.stringify(value)} is not an http(s) URL`);
  }
  return url;
}

/**
 * The one normalisation of a request target, used for the host check and for routing: parsed
 * as a URL (dot segments resolved, `%2e%2e` included), split into segments, each decoded once.
 * @param {string} target `req.url`: origin-form (`/a/b?q`) or absolute-form (`http://h/a/b?q`)
 * @returns {{ segments: string[], raw: string[], query: string, path: string | undefined, authority: string | undefined } | undefined}
 *   `segments` decoded, `raw` as received (percent-encoded); `path` the decoded path, `undefined`
 *   when a segment decodes to `/`, `\` or NUL (never a file); `authority` of an absolute-form
 *   target; `undefined` for a target that is not a path or URL
 */
export function parseTarget(target) {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(target);
  if (!absolute && !target.startsWith('/')) return undefined;
  let url;
  try {
    // Origin-form is appended to a base, not resolved against it: `//other/x` is a path here.
    url = new URL(absolute ? target : `http://explorer.invalid${target}`);
  } catch {
    return undefined;
  }
  const raw = url.pathname.split('/');
  let segments;
  try {
    segments = raw.map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
  const unsafe = segments.some((segment) => /[/\\\0]/.test(segment));
  return {
    segments,
    raw,
    query: url.search,
    path: unsafe ? undefined : segments.join('/'),
    authority: absolute ? url.host : undefined,
  };
}
