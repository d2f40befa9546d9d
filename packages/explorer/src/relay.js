// What both proxies share: sending a request upstream with http-proxy-3 and writing the answer
// back safely (a peer's status or header that Node refuses becomes a 502, never a crash).
import { createProxyServer } from 'http-proxy-3';

/** Request header the page sets on every forwarded request (see forwarder.js). */
export const FORWARD_HEADER = 'x-svc-explorer-forward';

/** Request headers of the browser that must not reach an upstream. */
const BROWSER_ONLY = new Set(['origin', 'referer', 'cookie', 'expect', FORWARD_HEADER]);

/** Methods whose bodies Node's client does not chunk: a Transfer-Encoding body there is refused. */
const UNFRAMED = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/** Headers that belong to one connection and are not relayed (RFC 9110 section 7.6.1). */
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
 * The header names a `Connection` header lists (lower case): they are for this hop only.
 * @param {string | string[] | undefined} value
 * @returns {Set<string>}
 */
export function connectionOptions(value) {
  return new Set(
    [value ?? []]
      .flat()
      .flatMap((v) => String(v).split(','))
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
}

/**
 * Answers with a plain-text body. `nosniff` because the text may echo request input.
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {string} text
 * @param {Record<string, string>} [headers] extra headers
 */
export function sendText(res, status, text, headers = {}) {
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/**
 * The headers of an upstream answer as the browser gets them: without hop-by-hop headers (those
 * its Connection names too) and
 * `Access-Control-*` headers (CORS of the upstream must not open this origin to other pages),
 * `WWW-Authenticate` and `Set-Cookie` renamed `X-Upstream-*` (no browser login dialog, no
 * cookie of one endpoint sent to another).
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @returns {import('node:http').OutgoingHttpHeaders}
 */
export function answerHeaders(headers) {
  /** @type {import('node:http').OutgoingHttpHeaders} */
  const answer = {};
  const named = connectionOptions(headers.connection);
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name) || name.startsWith('access-control-')) continue;
    if (name === 'www-authenticate' || name === 'set-cookie') answer[`x-upstream-${name}`] = value;
    else answer[name] = value;
  }
  return answer;
}

/**
 * The text of a failed relay: `<who> did not answer: <reason> (<code>)`, or `<who> answered what
 * cannot be passed on: <reason>` when the upstream's answer was the trouble.
 * @param {string} who  e.g. `The mock of API "central" at http://127.0.0.1:4010`
 * @param {Error & { code?: string, unrelayable?: boolean }} error  as given to a `failure` callback
 * @returns {string}
 */
export function failureText(who, error) {
  if (error.unrelayable) return `${who} answered what cannot be passed on: ${error.message}\n`;
  return `${who} did not answer: ${error.message}${error.code ? ` (${error.code})` : ''}\n`;
}

/**
 * @typedef {object} Relay
 * @property {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse,
 *   to: { target: URL, tls?: { secure: boolean, ca?: Array<string | Buffer> }, agent?: import('node:http').Agent,
 *     idleMs?: number, failure: (error: Error & { code?: string, unrelayable?: boolean }) => [number, string] }) => void} send
 *   sends `req` to `target` (origin, path and query) and streams the answer to `res`; when the
 *   upstream cannot be reached or answers what cannot be relayed, `failure` gives the status and text
 */

/**
 * A relay over one http-proxy-3 server. The answer is written here, not by the library, so that a
 * status or header Node refuses (`HTTP/1.1 099 Weird`), or a `101 Switching Protocols` to a
 * request that asked for no upgrade, becomes a 502 with the reason.
 * @returns {Relay}
 */
export function createRelay() {
  const proxy = createProxyServer({ selfHandleResponse: true, ignorePath: true, changeOrigin: true, xfwd: false });
  /** What each request in flight needs in the library's events. */
  /** @type {WeakMap<import('node:http').IncomingMessage, { fail: (error: Error) => void, idleMs?: number }>} */
  const inFlight = new WeakMap();

  proxy.on('proxyReq', (proxyReq, req) => {
    const { fail, idleMs } = inFlight.get(req) ?? {};
    if (idleMs)
      proxyReq.setTimeout(idleMs, () => proxyReq.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    proxyReq.on('upgrade', (_answer, socket) => {
      socket.destroy();
      fail?.(
        Object.assign(new Error('101 Switching Protocols to a request that asked for no protocol change'), {
          code: 'EUPGRADE',
          unrelayable: true,
        }),
      );
    });
  });
  proxy.on('proxyRes', (proxyRes, req, res) => {
    try {
      res.writeHead(proxyRes.statusCode ?? 502, answerHeaders(proxyRes.headers));
    } catch (error) {
      proxyRes.destroy();
      inFlight.get(req)?.fail(
        Object.assign(new Error(`Node refuses to send it on (${error.message})`), {
          code: error.code,
          unrelayable: true,
        }),
      );
      return;
    }
    proxyRes.on('error', () => res.destroy());
    proxyRes.pipe(res);
  });

  return {
    send(req, res, { target, tls, agent, idleMs, failure }) {
      // Node sends no framing for a GET, HEAD, DELETE, OPTIONS or TRACE body without Content-Length
      // (and http-proxy-3 sets `Content-Length: 0` on DELETE and OPTIONS): a chunked body there would
      // reach the upstream unframed, as a second request (request smuggling). Refused instead.
      if (req.headers['transfer-encoding'] !== undefined && UNFRAMED.has(String(req.method))) {
        req.resume();
        return sendText(
          res,
          400,
          `A ${req.method} request with a Transfer-Encoding body is not forwarded: send the body with Content-Length, or none\n`,
          { connection: 'close' },
        );
      }
      // The headers the incoming Connection names belong to that connection too (RFC 9110 7.6.1).
      const named = connectionOptions(req.headers.connection);
      for (const name of Object.keys(req.headers)) {
        if (BROWSER_ONLY.has(name) || HOP_BY_HOP.has(name) || named.has(name) || name.startsWith('sec-'))
          delete req.headers[name];
      }
      let failed = false;
      const fail = (error) => {
        if (failed) return;
        failed = true;
        if (res.headersSent) return res.destroy();
        const [status, text] = failure(error);
        sendText(res, status, text);
      };
      inFlight.set(req, { fail, idleMs });
      proxy.web(
        req,
        res,
        // http-proxy-3 types `ca` as one string; Node's TLS (which gets it) takes the array too.
        {
          target,
          ...(tls ? { secure: tls.secure, ca: /** @type {string} */ (/** @type {unknown} */ (tls.ca)) } : {}),
          ...(agent ? { agent } : {}),
        },
        fail,
      );
    },
  };
}
