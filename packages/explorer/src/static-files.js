// The built folder over HTTP: serve-static (ETag, Last-Modified, ranges, conditional GET) behind
// compression (brotli, gzip), long caching for fingerprinted names, the specs with the servers
// of this machine in front, and the page with the live-reload script when asked.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { constants as zlib } from 'node:zlib';
import compression from 'compression';
import fresh from 'fresh';
import serveStatic from 'serve-static';
import { injectReload } from './live-reload.js';
import { sendText } from './relay.js';

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

/**
 * A fingerprinted file name, as the build writes them: `swagger-ui-bundle.3f9a0c1d2b.js`
 * (the content's hash before the extension). Such a file never changes, so browsers keep it.
 */
export const FINGERPRINTED = /\.[0-9a-f]{10}\.[a-z0-9]+$/;

/** `Cache-Control` of fingerprinted files (one year, never revalidated) and of the others. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * @typedef {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, path: string) => void} StaticHandler
 *   answers a GET/HEAD of `path` (decoded, normalised, without `..`), `405` for other methods, `404` for a missing file
 */

/**
 * The static file handler of `root`.
 * @param {object} options
 * @param {string} options.root  the built folder (absolute)
 * @param {(api: string, document: any, req: import('node:http').IncomingMessage) => any} options.spec
 *   the served copy of `specs/<api>.json` (returns `document` itself when nothing changes)
 * @param {boolean} [options.liveReload] add the live-reload script to the page (and never cache it)
 * @returns {StaticHandler}
 */
export function createStaticFiles({ root, spec, liveReload = false }) {
  const compress = compression({
    // Brotli 5 instead of the library's 4: a tenth fewer bytes for the page's 1.8 MB of scripts,
    // about 50 ms more once per browser (the big files are kept for a year).
    brotli: { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } },
    // A range of a compressed body is not the range asked for: ranges go uncompressed.
    filter: (req, res) => !req.headers.range && compression.filter(req, res),
  });
  const serve = serveStatic(root, {
    index: ['index.html'],
    redirect: false,
    fallthrough: true,
    dotfiles: 'ignore',
    setHeaders(res, file) {
      res.setHeader('content-type', CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream');
      res.setHeader('cache-control', FINGERPRINTED.test(file) ? IMMUTABLE : REVALIDATE);
      res.setHeader('x-content-type-options', 'nosniff');
    },
  });

  return (req, res, path) => {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendText(res, 405, 'Method not allowed\n', { allow: 'GET, HEAD' });
    const notFound = () => sendText(res, 404, 'Not found\n');
    compress(req, /** @type {any} */ (res), () => {
      const specFile = /^\/specs\/([^/]+)\.json$/.exec(path);
      if (specFile) return serveSpec(req, res, root, specFile[1], spec, () => serve(req, res, notFound));
      if (liveReload && (path === '/' || path === '/index.html')) return servePage(req, res, root, notFound);
      serve(req, res, notFound);
    });
  };
}

/** Serves `specs/<api>.json` as `spec` makes it, with an ETag of its content; `next` when unchanged. */
function serveSpec(req, res, root, api, spec, next) {
  let document;
  try {
    document = JSON.parse(readFileSync(join(root, 'specs', `${api}.json`), 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return sendText(res, 404, 'Not found\n');
    // the code, not an fs message: that one carries the local path
    return sendText(res, 500, `Cannot read /specs/${api}.json: ${error.code ?? error.message}\n`);
  }
  const served = spec(api, document, req);
  if (served === document) return next();
  sendBody(req, res, `${JSON.stringify(served, null, 2)}\n`, CONTENT_TYPES['.json'], REVALIDATE);
}

/** Serves `index.html` with the live-reload script. */
function servePage(req, res, root, notFound) {
  let html;
  try {
    html = readFileSync(join(root, 'index.html'), 'utf8');
  } catch {
    return notFound();
  }
  sendBody(req, res, injectReload(html), CONTENT_TYPES['.html'], 'no-store');
}

/**
 * Sends a body made here, with an ETag of its content and `304` when the browser has it. The ETag
 * is weak because compression sends other bytes under the same tag (as serve-static's are).
 */
function sendBody(req, res, body, type, cacheControl) {
  const etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const headers = { 'content-type': type, 'cache-control': cacheControl, etag, 'x-content-type-options': 'nosniff' };
  if (fresh(req.headers, { etag })) {
    res.writeHead(304, headers);
    return res.end();
  }
  res.writeHead(200, { ...headers, 'content-length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}
