// `/forward/<http|https>/<host>[:<port>]/<path>`: "Try it out" against a real endpoint, which then
// needs no CORS and may have a certificate the browser does not trust.
import { isIP } from 'node:net';
import { FORWARD_HEADER, sendText } from './relay.js';

/** How long a forwarded request may stay silent (no bytes either way) before it fails (ms). */
export const FORWARD_IDLE_TIMEOUT = 120_000;

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

const HOST_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i;

/**
 * Forwards a `/forward/<scheme>/<authority><rest>` request to that endpoint.
 * @param {import('./relay.js').Relay} relay
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {{ scheme: string, authority: string, rest: string, query: string }} request  as received (percent-encoded)
 * @param {{ insecureTls: boolean, ca: Array<string | Buffer> | undefined }} options
 *   `ca`: the CAs to trust (Node's plus the user's), `undefined` for Node's own
 */
export function forwardRequest(relay, req, res, { scheme, authority, rest, query }, { insecureTls, ca }) {
  if (scheme !== 'http' && scheme !== 'https') return sendText(res, 400, 'Use /forward/<http|https>/<host>[:<port>]/<path>\n');
  let target;
  try {
    if (!authority || /[%@\\]/.test(authority)) throw new Error('bad host');
    target = new URL(`${scheme}://${authority}${rest || '/'}${query}`);
    const hostname = target.hostname.replace(/^\[|\]$/g, '');
    if (!hostname || (!isIP(hostname) && !HOST_NAME.test(hostname))) throw new Error('bad host');
  } catch {
    return sendText(res, 400, `"${authority}" is not a host name or address with an optional port\n`);
  }
  const mode = String(req.headers[FORWARD_HEADER] ?? '');
  if (mode !== 'verify' && mode !== 'insecure') {
    return sendText(res, 400, `Requests to /forward/ come from the explorer page, which sets the ${FORWARD_HEADER} header (verify or insecure)\n`);
  }
  relay.send(req, res, {
    target,
    tls: { secure: !(insecureTls || mode === 'insecure'), ...(ca ? { ca } : {}) },
    idleMs: FORWARD_IDLE_TIMEOUT,
    failure: (error) => {
      const { code } = error;
      if (code && UNTRUSTED_CERTIFICATE.has(code)) {
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
