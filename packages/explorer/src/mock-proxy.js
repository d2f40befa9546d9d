// Same-origin proxies to the upstreams started beside the explorer: `/mock/<api>/...` to the
// Prism mock of that API, `/local/...` to the local svc (the simulator).
import { failureText, sendText } from './relay.js';

/**
 * @typedef {object} MockUpstream
 * @property {URL} target     the mock's URL (a path after the origin is kept as a prefix)
 * @property {string} basePath the spec's base path, removed before forwarding (`''`: keep the path)
 */

/**
 * Forwards a `/mock/<api>/<rest>` request to the mock of `api`: `<prefix><rest without the base path><query>`.
 * Prism 5 serves the document's paths without the servers' base path.
 * @param {import('./relay.js').Relay} relay
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {{ api: string, rest: string, query: string }} request  `rest` percent-encoded as received
 * @param {Map<string, MockUpstream>} upstreams
 */
export function proxyToMock(relay, req, res, { api, rest, query }, upstreams) {
  const upstream = upstreams.get(api);
  if (!upstream) {
    return sendText(
      res,
      404,
      `No mock is configured for API "${api}" (known: ${[...upstreams.keys()].join(', ') || 'none'})\n`,
    );
  }
  const { target, basePath } = upstream;
  let path = rest || '/';
  if (basePath && (path === basePath || path.startsWith(`${basePath}/`))) path = path.slice(basePath.length) || '/';
  relay.send(req, res, {
    target: new URL(`${target.origin}${target.pathname.replace(/\/+$/, '')}${path}${query}`),
    failure: (error) => [502, failureText(`The mock of API "${api}" at ${target.origin}`, error)],
  });
}

/**
 * Forwards a `/local/<production path>` request to the local svc, trusting its certificate `ca`.
 * @param {import('./relay.js').Relay} relay
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {{ rest: string, query: string }} request  `rest` percent-encoded as received
 * @param {{ url: URL, ca?: string | Buffer }} simulator
 */
export function proxyToLocal(relay, req, res, { rest, query }, simulator) {
  const { url, ca } = simulator;
  relay.send(req, res, {
    target: new URL(`${url.origin}${rest || '/'}${query}`),
    tls: { secure: true, ...(ca ? { ca: [ca] } : {}) },
    failure: (error) => [502, failureText(`The local svc at ${url.origin}`, error)],
  });
}
