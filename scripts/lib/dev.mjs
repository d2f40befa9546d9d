// Pieces of `npm run dev`: which APIs a saved file affects, and a small live-reload front for the
// explorer (a proxy that adds an EventSource script to HTML pages and serves the events), so
// the explorer package itself is not changed for development.
import { request, createServer } from 'node:http';
import { relative, sep } from 'node:path';

/** Path of the server-sent events stream of the reload front. */
export const EVENTS_PATH = '/__dev/events';

/**
 * The APIs whose bundle a change of `files` can alter. A file in an API's own folder
 * (`spec/central/...`) affects that API; any other file under `spec/` (`spec/common/...`) may be
 * referenced by every API, so it affects all of them.
 * @param {string[]} files    absolute paths of changed files
 * @param {{ name: string, root: string }[]} apiList  from `@svc/oas/apis` (absolute roots)
 * @param {string} specDir    absolute path of `spec/`
 * @returns {string[]} API names, in the order of `apiList`
 */
export function affectedApis(files, apiList, specDir) {
  const folders = new Map(apiList.map((a) => [relative(specDir, a.root).split(sep)[0], a.name]));
  const hit = new Set();
  for (const file of files) {
    const rel = relative(specDir, file);
    if (rel.startsWith('..')) continue;
    const own = folders.get(rel.split(sep)[0]);
    if (own && rel.includes(sep)) hit.add(own);
    else apiList.forEach((a) => hit.add(a.name));
  }
  return apiList.map((a) => a.name).filter((n) => hit.has(n));
}

/**
 * Adds the live-reload script to an HTML page: before `</body>`, or at the end.
 * @param {string} html
 * @returns {string}
 */
export function injectReload(html) {
  const script = `<script>new EventSource(${JSON.stringify(EVENTS_PATH)}).addEventListener('reload', () => location.reload());</script>`;
  return html.includes('</body>') ? html.replace('</body>', `${script}</body>`) : `${html}${script}`;
}

/**
 * @typedef {object} ReloadFront
 * @property {string} url   e.g. `http://127.0.0.1:8080/`
 * @property {number} port
 * @property {(what: string) => void} reload  tells every open page to reload (`what` is logged by the page's devtools only)
 * @property {() => Promise<void>} close
 */

/**
 * Starts the reload front: proxies every request to `upstream` (the explorer), adds the
 * reload script to `text/html` answers, and serves `EVENTS_PATH` as server-sent events.
 * @param {object} options
 * @param {string} options.upstream  origin of the explorer, e.g. `http://127.0.0.1:41234`
 * @param {number} [options.port]    default 0 (a free port)
 * @param {string} [options.host]    default `127.0.0.1`
 * @returns {Promise<ReloadFront>}
 * @throws {Error} when it cannot listen (e.g. `EADDRINUSE`)
 */
export async function startReloadFront({ upstream, port = 0, host = '127.0.0.1' }) {
  const target = new URL(upstream);
  const clients = new Set();
  const server = createServer((req, res) => {
    if (req.url === EVENTS_PATH) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(': connected\n\n');
      clients.add(res);
      req.on('close', () => clients.delete(res));
      return;
    }
    const headers = { ...req.headers, host: target.host };
    delete headers['accept-encoding']; // HTML must come back plain to be edited
    const out = request({ hostname: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (up) => {
      const type = String(up.headers['content-type'] ?? '');
      if (!type.startsWith('text/html') || req.method !== 'GET') {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        return;
      }
      const chunks = [];
      up.on('data', (c) => chunks.push(c));
      up.on('end', () => {
        const body = injectReload(Buffer.concat(chunks).toString('utf8'));
        const h = { ...up.headers, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' };
        delete h['transfer-encoding'];
        res.writeHead(up.statusCode ?? 200, h).end(body);
      });
    });
    out.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`explorer not reachable: ${e.message}\n`);
    });
    req.pipe(out);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const bound = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  return {
    url: `http://${host}:${bound}/`,
    port: bound,
    reload(what) {
      for (const res of clients) res.write(`event: reload\ndata: ${JSON.stringify(what)}\n\n`);
    },
    close: () =>
      new Promise((resolve) => {
        for (const res of clients) res.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Calls `fn` once `waitMs` after the last of a burst of calls, with every argument of the burst.
 * @template T
 * @param {(items: T[]) => void} fn
 * @param {number} waitMs
 * @returns {(item: T) => void}
 */
export function debounceCollect(fn, waitMs) {
  let items = [];
  let timer;
  return (item) => {
    items.push(item);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const batch = items;
      items = [];
      fn(batch);
    }, waitMs);
  };
}
