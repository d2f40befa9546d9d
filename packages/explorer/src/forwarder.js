// `/forward/<http|https>/<host>[:<port>]/<path>`: "Try it out" against a real endpoint, which then
// needs no CORS and may have a certificate the browser does not trust.
import { lookup } from 'node:dns';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { FORWARD_HEADER, failureText, sendText } from './relay.js';

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

/** This machine: loopback and "this host" addresses (IPv4-mapped IPv6 spellings included). */
const THIS_MACHINE = new BlockList();
THIS_MACHINE.addSubnet('127.0.0.0', 8, 'ipv4');
THIS_MACHINE.addSubnet('0.0.0.0', 8, 'ipv4');
THIS_MACHINE.addAddress('::1', 'ipv6');
THIS_MACHINE.addAddress('::', 'ipv6');

/**
 * The addresses of this machine's own interfaces (`os.networkInterfaces()`, read at each check:
 * an interface may come and go), as a BlockList: a request to one reaches this machine as surely
 * as one to 127.0.0.1.
 * @returns {BlockList}
 */
function interfaceAddresses() {
  const list = new BlockList();
  for (const entry of Object.values(networkInterfaces()).flat()) {
    if (!entry) continue;
    const ip = entry.address.replace(/%.*$/, '');
    if (isIP(ip)) list.addAddress(ip, entry.family === 'IPv6' ? 'ipv6' : 'ipv4');
  }
  return list;
}

/**
 * Whether `address` (an IP address, brackets allowed) is this machine: `127.0.0.0/8`,
 * `0.0.0.0/8`, `::1`, `::`, every address of its network interfaces, and their IPv4-mapped IPv6
 * forms.
 * @param {string} address
 * @returns {boolean}
 */
export function isThisMachine(address) {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 0) return false;
  const type = family === 6 ? 'ipv6' : 'ipv4';
  return THIS_MACHINE.check(ip, type) || interfaceAddresses().check(ip, type);
}

/** The error of a refused target of this machine (code `ELOOPBACK`). */
const loopbackError = (what) => Object.assign(new Error(`${what}, an address of this machine`), { code: 'ELOOPBACK' });

/**
 * `dns.lookup` that fails with `ELOOPBACK` when a name resolves to this machine, so that the
 * check holds for the address actually connected to (a DNS answer cannot change in between).
 * @type {import('node:net').LookupFunction}
 */
const lookupNotThisMachine = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const local = addresses.find((a) => isThisMachine(a.address));
    if (local) return callback(loopbackError(`${hostname} (${local.address})`), '', 0);
    if (options.all) return /** @type {any} */ (callback)(null, addresses);
    return callback(null, addresses[0].address, addresses[0].family);
  });
};

/**
 * The local svc's control API: `/_svc/...` on the local svc's own origin (reset, clock, faults).
 * Never a real endpoint's path: a page that sends one there is mistaken, and an endpoint that
 * answered it could be told to do what only a local svc should.
 */
export const CONTROL_PREFIX = '/_svc/';

/**
 * Whether a forwarded path is the local svc's control API: its first non-empty segment, decoded,
 * is `_svc` in any case (`/_svc/reset`, `//_svc`, `/%5Fsvc/`, `/x/../_svc`: the path is normalised
 * as the endpoint would).
 * @param {string} path the path after the authority, percent-encoded as received
 * @returns {boolean}
 */
export function isControlPath(path) {
  let segments;
  try {
    // appended, not resolved: `//_svc` is a path here, not an authority
    segments = new URL(`http://endpoint.invalid${path.startsWith('/') ? path : `/${path}`}`).pathname
      .split('/')
      .map(decodeURIComponent);
  } catch {
    return false;
  }
  return segments.find((segment) => segment !== '')?.toLowerCase() === '_svc';
}

const HOST_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i;

/**
 * Forwards a `/forward/<scheme>/<authority><rest>` request to that endpoint.
 * @param {import('./relay.js').Relay} relay
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {{ scheme: string, authority: string, rest: string, query: string }} request  as received (percent-encoded)
 * @param {{ insecureTls: boolean, ca: Array<string | Buffer> | undefined, allowLoopback: boolean, localPorts: Set<number> }} options
 *   `ca`: the CAs to trust (Node's plus the user's), `undefined` for Node's own; targets on this
 *   machine are refused (`403`) unless `allowLoopback` or their port is in `localPorts` (the
 *   mocks and the local svc)
 */
export function forwardRequest(
  relay,
  req,
  res,
  { scheme, authority, rest, query },
  { insecureTls, ca, allowLoopback, localPorts },
) {
  if (scheme !== 'http' && scheme !== 'https')
    return sendText(res, 400, 'Use /forward/<http|https>/<host>[:<port>]/<path>\n');
  let target;
  try {
    if (!authority || /[%@\\]/.test(authority)) throw new Error('bad host');
    target = new URL(`${scheme}://${authority}${rest || '/'}${query}`);
    const hostname = target.hostname.replace(/^\[|\]$/g, '');
    if (!hostname || (!isIP(hostname) && !HOST_NAME.test(hostname))) throw new Error('bad host');
  } catch {
    return sendText(res, 400, `"${authority}" is not a host name or address with an optional port\n`);
  }
  if (isControlPath(rest)) {
    req.resume();
    return sendText(
      res,
      403,
      `${CONTROL_PREFIX} paths are the control API of the local svc (reset, clock, faults): they are never forwarded to a real endpoint. Send them to the local svc itself.\n`,
    );
  }
  const mode = String(req.headers[FORWARD_HEADER] ?? '');
  if (mode !== 'verify' && mode !== 'insecure') {
    return sendText(
      res,
      400,
      `Requests to /forward/ come from the explorer page, which sets the ${FORWARD_HEADER} header (verify or insecure)\n`,
    );
  }
  const port = Number(target.port || (scheme === 'https' ? 443 : 80));
  const checkLoopback = !allowLoopback && !localPorts.has(port);
  if (checkLoopback && isThisMachine(target.hostname)) {
    return sendText(res, 403, refusal(loopbackError(target.hostname)));
  }
  const Agent = scheme === 'https' ? HttpsAgent : HttpAgent;
  relay.send(req, res, {
    target,
    ...(checkLoopback ? { agent: new Agent({ lookup: lookupNotThisMachine }) } : {}),
    tls: { secure: !(insecureTls || mode === 'insecure'), ...(ca ? { ca } : {}) },
    idleMs: FORWARD_IDLE_TIMEOUT,
    failure: (error) => {
      const { code } = error;
      if (code === 'ELOOPBACK') return [403, refusal(error)];
      if (code && UNTRUSTED_CERTIFICATE.has(code)) {
        return [
          502,
          `The certificate of ${target.origin} is not trusted (${code}: ${error.message}).\n` +
            'If this endpoint uses a self-signed certificate, tick "Self-signed certificate" next to the servers and try again.\n',
        ];
      }
      if (code === 'ETIMEDOUT')
        return [504, `${target.origin} did not answer within ${FORWARD_IDLE_TIMEOUT / 1000} s\n`];
      return [502, failureText(target.origin, error)];
    },
  });
}

/** Why a target of this machine is refused, and how to allow it. */
function refusal(error) {
  return (
    `The forwarder does not reach ${error.message}: on this machine it reaches only the mocks and the local svc ` +
    'started with the explorer. To try another local server, start it with allowLoopback (npm run serve -- --allow-loopback).\n'
  );
}
