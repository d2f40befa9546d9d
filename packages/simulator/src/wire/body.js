// A request's body as the pipeline takes it: its media type and declared size at once, its bytes
// only when asked (after `100 Continue`, when the client waits for it), within the size and time
// limits of limits.js; JSON parsed within the depth limit. The one place that reads a request.

import { HttpError } from '../errors.js';
import { JSON_DEPTH_LIMIT } from '../limits.js';

/**
 * @typedef {object} BodySource  a body not yet read
 * @property {string} type      media type, lower case, without parameters ('' when none is given)
 * @property {number} declared  the declared length in bytes (0 when none)
 * @property {boolean} present  a body is sent: a declared length above 0, or a transfer coding
 * @property {(o: { limit: number, keep: boolean }) => Promise<Buffer>} read  its bytes whole, up to `limit`
 *   within the body deadline (`keep` false: read and dropped, an empty Buffer back)
 * @property {() => import('node:stream').Readable} stream  its bytes as they come (an upload); the reader
 *   owns them from then on
 * @property {() => boolean} taken  every declared byte is read, though the parser may not have ended the
 *   request yet
 */

export const tooLarge = (limit) =>
  new HttpError(413, 'INVALID_REQUEST', `The request body is larger than the limit of ${limit} bytes`);

export const tooDeep = () =>
  new HttpError(400, 'INVALID_REQUEST', `The request body nests deeper than ${JSON_DEPTH_LIMIT} levels`);

export const mediaType = (header) => (header ?? '').split(';')[0].trim().toLowerCase();

/**
 * The body of a request from a connection.
 * @param {import('node:http').IncomingMessage} req
 * @param {{ deadlineMs: number, proceed: () => void }} o  `deadlineMs`: a body read whole arrives within it;
 *   `proceed`: sends `100 Continue` when the client waits for it (called before the first byte is read)
 * @returns {BodySource}
 */
export function requestBody(req, { deadlineMs, proceed }) {
  const declared = Number(req.headers['content-length'] ?? 0) || 0;
  let taken = false;
  return {
    type: mediaType(req.headers['content-type']),
    declared,
    present: declared > 0 || req.headers['transfer-encoding'] !== undefined,
    async read({ limit, keep }) {
      proceed();
      const whole = bodyAtHand(req, declared);
      if (whole) {
        taken = true;
        return whole;
      }
      return readBody(req, { limit, deadlineMs, keep });
    },
    stream() {
      proceed();
      return req;
    },
    taken: () => taken,
  };
}

/**
 * A body whose declared bytes are all in the request's buffer already (a small body comes with
 * its headers): taken at once, without readBody's listeners and timer. The caller has refused a
 * declared length over its limit already.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} declared
 * @returns {Buffer | undefined} undefined while some of it is still to come (or chunked)
 */
function bodyAtHand(req, declared) {
  if (req.readableLength !== declared || req.headers['content-length'] === undefined) return undefined;
  const bytes = req.read() ?? Buffer.alloc(0);
  // the parser ends the request after its last byte: flowing, it then ends and closes as one read whole does
  if (!req.complete) req.resume();
  return bytes;
}

/**
 * The one body reader: up to `limit` bytes, whole within `deadlineMs`.
 * @param {import('node:http').IncomingMessage} req
 * @param {{ limit: number, deadlineMs: number, keep: boolean }} o  `keep` false: the bytes are dropped
 * @returns {Promise<Buffer>} the body (empty when not kept)
 * @throws {HttpError} 413 over the limit, 408 past the deadline; the request's error when the connection goes
 */
function readBody(req, { limit, deadlineMs, keep }) {
  // listeners, not `for await`: leaving that loop early would destroy the request, and the socket with it
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    const stop = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const fail = (error) => {
      stop();
      req.pause();
      reject(error);
    };
    const onData = (chunk) => {
      size += chunk.length;
      if (size > limit) fail(tooLarge(limit));
      else if (keep) chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error) => fail(error);
    const onClose = () => fail(new Error('the connection closed before the end of the body'));
    const timer = setTimeout(
      () =>
        fail(
          new HttpError(408, 'REQUEST_TIMEOUT', `The request body did not arrive whole within ${deadlineMs / 1000} s`),
        ),
      deadlineMs,
    );
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
    req.once('close', onClose);
  });
}

/**
 * Whether a parsed JSON value nests deeper than `limit` (walked with a stack of its own, so any depth is safe).
 * @param {unknown} value
 * @param {number} limit
 */
export function deeperThan(value, limit) {
  const stack = [[value, 1]];
  while (stack.length) {
    const [v, depth] = /** @type {[any, number]} */ (stack.pop());
    if (v === null || typeof v !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(v))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Whether a JSON text may nest deeper than `limit`: each level opens with a `{` or a `[`, so a
 * text with no more of them than `limit` (those inside strings counted too) cannot.
 * @param {string} text
 * @param {number} limit
 */
function mayNestDeeperThan(text, limit) {
  let opened = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === 0x7b || c === 0x5b) && ++opened > limit) return true;
  }
  return false;
}

/**
 * Parses a JSON body's text, within JSON_DEPTH_LIMIT levels.
 * @param {string} text
 * @returns {unknown} undefined when blank
 * @throws {HttpError} 400 when it is not JSON or nests too deep
 */
export function parseJson(text) {
  if (text.trim() === '') return undefined;
  let body;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, 'INVALID_REQUEST', `The request body is not valid JSON: ${e.message}`);
  }
  if (mayNestDeeperThan(text, JSON_DEPTH_LIMIT) && deeperThan(body, JSON_DEPTH_LIMIT)) throw tooDeep();
  return body;
}
