// Cross-origin calls from a browser page (`--cors <origin>`, off by default): a page of a named
// origin (Swagger UI or Scalar served elsewhere, a test page) may call the local svc. A preflight
// (OPTIONS with Access-Control-Request-Method) is answered without credentials, as the Fetch
// standard has browsers send it; every answer to a named origin carries the headers that let the
// page read it. Any other origin gets no CORS header: its browser keeps the answer from the page.

/**
 * Whether a text is an origin as a browser sends it: an http(s) scheme, a host and a port, nothing else.
 * @param {string} text
 */
export function isOrigin(text) {
  try {
    const url = new URL(text);
    return /^https?:$/.test(url.protocol) && url.origin === text;
  } catch {
    return false;
  }
}

/** The headers a page may read beside the CORS-safelisted ones. */
const EXPOSED = 'retry-after, location, content-disposition, www-authenticate';
/** How long a browser may keep a preflight's answer, in seconds. */
const MAX_AGE_SECONDS = 600;

/**
 * @typedef {object} Cors
 * @property {(method: string, headers: import('node:http').IncomingHttpHeaders) => import('./pipeline.js').Answer | undefined} preflight
 *   the answer to a preflight (204 for a named origin, 403 naming the rule for another), undefined
 *   for any other request
 * @property {(headers: import('node:http').IncomingHttpHeaders) => Record<string, string> | undefined} headers
 *   what an answer to this request adds, undefined when its origin is not named
 */

/**
 * @param {string[]} origins  the origins allowed, as a browser sends them (`http://127.0.0.1:8000`);
 *   empty: CORS off
 * @returns {Cors | undefined} undefined when off
 */
export function createCors(origins) {
  if (!origins.length) return undefined;
  const allowed = new Set(origins);
  const allows = (origin) => typeof origin === 'string' && allowed.has(origin);
  return {
    preflight(method, headers) {
      if (method !== 'options' || !headers['access-control-request-method'] || headers.origin === undefined)
        return undefined;
      if (!allows(headers.origin))
        return {
          status: 403,
          headers: { 'content-type': 'text/plain; charset=utf-8', vary: 'Origin' },
          bytes: Buffer.from(
            'This origin is not one the local svc takes cross-origin calls from: start it with --cors naming it.\n',
          ),
        };
      return {
        status: 204,
        headers: {
          'access-control-allow-origin': String(headers.origin),
          'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE',
          // what the page asked to send (Authorization, Content-Type, the X-Svc-* headers)
          'access-control-allow-headers': String(headers['access-control-request-headers'] ?? ''),
          'access-control-max-age': String(MAX_AGE_SECONDS),
          vary: 'Origin, Access-Control-Request-Headers',
        },
      };
    },
    headers(requestHeaders) {
      if (!allows(requestHeaders.origin)) return undefined;
      return {
        'access-control-allow-origin': String(requestHeaders.origin),
        'access-control-expose-headers': EXPOSED,
        vary: 'Origin',
      };
    },
  };
}
