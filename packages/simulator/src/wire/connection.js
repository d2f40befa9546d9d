// The connection: what only a socket has. Node's server settings (limits.js), `100 Continue` once
// a request is accepted, an answer to every request (malformed ones included), timeouts, lingering
// after an answer sent before its body was read, a request fully sent and then half-closed
// answered (RFC 9112, 9.6), and the writing of an answer, whose stream is owned here from then on:
// end, error, a client that leaves and a server that closes all give it back.
import { pipeline as streamPipeline } from 'node:stream';
import { byteBudget } from '../budget.js';
import { HttpError } from '../errors.js';
import {
  BATCH_MEMORY_LIMIT,
  HEADER_LIMIT,
  HEADERS_TIMEOUT_MS,
  IDLE_TIMEOUT_MS,
  JSON_BODY_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  LINGER_BYTES,
  LINGER_MS,
  UPLOAD_IDLE_TIMEOUT_MS,
  URL_LIMIT,
} from '../limits.js';
import { requestBody } from './body.js';
import { createPipeline, piecesOf } from './pipeline.js';
import { urlTooLong } from './route.js';

// as index.js: an ES import of node:http would load undici and node:http2 with it
const { STATUS_CODES } = process.getBuiltinModule('node:http');

/** How often Node checks the headers timeout, in ms (its default, 30 s, would let a 20 s limit run to 50). */
const TIMEOUT_CHECK_MS = 1_000;

/** The most bytes of an answer in pieces written at once, in bytes. */
const WRITE_PIECE = 64 * 1024;

/**
 * @typedef {Omit<import('./pipeline.js').PipelineOptions, 'bodyMs' | 'uploadIdleMs'> & {
 *   timeouts?: Partial<Timeouts> }} ListenerOptions
 */

/**
 * @typedef {object} Timeouts  in ms
 * @property {number} headersMs  a request's line and headers (HEADERS_TIMEOUT_MS)
 * @property {number} bodyMs  a JSON body, whole (JSON_BODY_TIMEOUT_MS)
 * @property {number} idleMs  a connection with nothing to do (IDLE_TIMEOUT_MS)
 * @property {number} uploadIdleMs  an upload's body, between two bytes (UPLOAD_IDLE_TIMEOUT_MS)
 */

/**
 * @typedef {object} Served  what a server holds, for the leak check
 * @property {() => number} cacheBytes  the pipeline's caches, in bytes
 * @property {() => number} heldBytes  the batch budget's reservations, in bytes
 * @property {() => number} parkedBytes  what batches waiting on a long poll keep of their answers, in bytes
 * @property {() => number} streams  answers' streams not yet given back
 * @property {() => { drained: Promise<void>, resume: () => void }} pause  holds new requests until `resume`;
 *   `drained` once those of the served APIs in flight are answered (pipeline.js)
 */

/**
 * Serves the APIs on `server` (node:http or node:https, not listening yet): its request handlers,
 * timeouts and limits (limits.js), and an answer to every request it cannot parse.
 * @param {import('node:http').Server} server
 * @param {ListenerOptions} o
 * @returns {Served}
 */
export function serve(server, o) {
  /** @type {Timeouts} */
  const timeouts = {
    headersMs: HEADERS_TIMEOUT_MS,
    bodyMs: JSON_BODY_TIMEOUT_MS,
    idleMs: IDLE_TIMEOUT_MS,
    uploadIdleMs: UPLOAD_IDLE_TIMEOUT_MS,
    ...o.timeouts,
  };
  const pipeline = createPipeline({ ...o, bodyMs: timeouts.bodyMs, uploadIdleMs: timeouts.uploadIdleMs });
  const connections = createConnections(pipeline, timeouts);
  // read at each connection (Node's option of createServer, settable after it)
  /** @type {any} */ (server).maxHeaderSize = HEADER_LIMIT;
  server.headersTimeout = timeouts.headersMs;
  // Node's requestTimeout runs until the whole body is in, so it would cut a long upload: bodies
  // are bounded per kind instead (JSON_BODY_TIMEOUT_MS, the upload's idle timeout)
  server.requestTimeout = 0;
  server.timeout = timeouts.idleMs;
  // Node's 5 s keep-alive closes a pooled connection while a client, told `timeout=5`, may still be
  // reusing it: a POST then meets a reset it may not retry (seen on Node 22 under load). 65 s, as
  // load balancers use, puts that race past any pause of a test or a polling script.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  /** @type {any} */ (server).connectionsCheckingInterval = TIMEOUT_CHECK_MS;
  // A client's FIN after a whole request does not withdraw it (RFC 9112, 9.6): the answer is sent,
  // then the connection closes. Node's http.Server reads this property at each FIN (its default
  // ends the connection unanswered); the socket level's allowHalfOpen is given at creation (index.js).
  /** @type {any} */ (server).httpAllowHalfOpen = true;
  server.on('request', (req, res) => connections.handle(req, res, false));
  // `Expect: 100-continue`: the 100 is sent once the request is accepted, never before its credentials
  server.on('checkContinue', (req, res) => connections.handle(req, res, true));
  server.on('clientError', connections.clientError);
  server.on('timeout', connections.idle);
  return {
    cacheBytes: pipeline.cacheBytes,
    heldBytes: () => connections.budget.held(),
    parkedBytes: () => connections.budget.parked(),
    streams: () => connections.streams(),
    pause: pipeline.pause,
  };
}

/**
 * The handlers of a server's connections.
 * @param {ReturnType<typeof createPipeline>} pipeline
 * @param {Timeouts} timeouts
 */
function createConnections(pipeline, timeouts) {
  /** The bytes of answers built whole before they are sent (a batch's) held at once. */
  const budget = byteBudget(BATCH_MEMORY_LIMIT);
  /** Connections that close after their answer: a request behind it is not answered. */
  const closing = new WeakSet();
  /** Connections answered by `clientError`, past their request's own answer. */
  const answeredRaw = new WeakSet();
  /**
   * Connection -> the answer of the request it handled last (for the idle timeout and parse
   * errors); in flight while neither finished nor destroyed.
   */
  const answering = new WeakMap();
  /** Answers' streams being written. */
  let streaming = 0;

  /** A request from a connection: the pipeline's answer, written. */
  async function handle(req, res, expectContinue) {
    const socket = req.socket;
    // a request pipelined behind an answer that closes the connection
    if (closing.has(socket)) {
      res.destroy();
      return;
    }
    answering.set(socket, res);
    let gone;
    const goneOnce = () => (gone ??= goneSignal(req, res));
    let continued = !expectContinue;
    const body = requestBody(req, {
      deadlineMs: timeouts.bodyMs,
      proceed() {
        if (continued) return;
        continued = true;
        res.writeContinue();
      },
    });
    const pending = pipeline.answer({
      method: (req.method ?? 'GET').toLowerCase(),
      url: req.url ?? '/',
      headers: req.headers,
      origin: originOf(req),
      gone: goneOnce,
      body,
      hold: (bytes) => hold(bytes, res, goneOnce()),
    });
    // an answer from the headers alone is written in this tick (see pipeline.answer)
    const answer = pending instanceof Promise ? await pending : pending;
    if (socket.destroyed || res.destroyed || res.headersSent) {
      // nobody to answer (the client went away), or an answer was half-written when the handler
      // failed: nothing more can be said
      answer.stream?.destroy();
      if (res.headersSent && answer.failed) res.destroy();
      return;
    }
    send(req, res, answer, body.taken());
  }

  /** Takes bytes of the budget until this answer is written out (handed to the kernel) or cut. */
  async function hold(bytes, res, signal) {
    const lease = await budget.take(bytes, signal);
    if (res.destroyed || res.writableFinished) lease.release();
    else res.once('close', lease.release);
    return lease;
  }

  /**
   * Writes an answer on the wire. A request whose body was not all read closes its connection after it.
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {import('./pipeline.js').Answered} answer
   * @param {boolean} bodyTaken  every declared byte of the body is read, though the parser may
   *   not have ended the request yet
   */
  function send(req, res, answer, bodyTaken) {
    if (answeredRaw.has(req.socket)) {
      answer.stream?.destroy();
      return;
    }
    if (answer.close || (!req.complete && !bodyTaken)) closeAfter(req, res);
    if (answer.stream) {
      res.writeHead(answer.status, answer.headers);
      streaming++;
      // end, a read error, a client that leaves, a server that closes: each destroys both
      streamPipeline(answer.stream, res, () => {
        streaming--;
      });
      return;
    }
    const pieces = answer.bytes ? [answer.bytes] : piecesOf(answer);
    const length = pieces.reduce((n, p) => n + p.length, 0);
    res.writeHead(answer.status, {
      ...(length && !answer.bytes ? { 'content-type': 'application/json' } : {}),
      'content-length': length,
      ...answer.headers,
    });
    if (pieces.length > 1) writePieces(res, pieces);
    else res.end(pieces[0]);
  }

  /**
   * Closes the connection once this answer is sent, the body unread. The answer says
   * `Connection: close`; after it, what the client still sends is read and dropped for at most
   * LINGER_MS and LINGER_BYTES (a close with unread bytes resets the connection, and a client
   * still sending its body may then lose the answer), and the connection closes as soon as the
   * client closes its side.
   */
  function closeAfter(req, res) {
    const socket = req.socket;
    res.setHeader('connection', 'close');
    if (closing.has(socket)) return;
    closing.add(socket);
    let dropped = 0;
    req.on('data', (chunk) => {
      dropped += chunk.length;
      if (dropped > LINGER_BYTES) socket.destroy();
    });
    req.on('error', () => {});
    // Node closes a `Connection: close` connection with destroySoon() once the answer is out:
    // here, our side ends (FIN) and the connection lingers
    socket.destroySoon = () => linger(socket);
  }

  /**
   * A request Node's parser refuses, or a header timeout: answered (414, 431, 400, 408) with
   * `Connection: close`, then closed (lingering); a connection error is only closed.
   * @param {Error & { code?: string, reason?: string, rawPacket?: Buffer }} error
   * @param {import('node:net').Socket} socket
   */
  function clientError(error, socket) {
    // answered and closing already: the parser refuses each further chunk the client sends while
    // the connection lingers; destroying it now would reset the answer away
    if (closing.has(socket)) return;
    const last = answering.get(socket);
    const halfWritten = last?.headersSent && !last.writableFinished;
    if (!socket.writable || halfWritten || !/^(HPE_|ERR_HTTP_)/.test(error.code ?? '')) {
      socket.destroy();
      return;
    }
    closing.add(socket);
    answeredRaw.add(socket);
    const known = parseErrorOf(error, timeouts.headersMs);
    const body = JSON.stringify(pipeline.errorBody(known));
    socket.end(
      `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    linger(socket);
  }

  /**
   * A connection silent for IDLE_TIMEOUT_MS (or its keep-alive time): closed when it has nothing to
   * do, or when its answer has started and the client stopped reading it. One waiting on its answer
   * (a long poll) or sending a body is bounded by those limits instead.
   * @param {import('node:net').Socket} socket
   */
  function idle(socket) {
    const res = answering.get(socket);
    if (res && !res.headersSent && !res.destroyed) return;
    socket.destroy();
  }

  return { handle, clientError, idle, budget, streams: () => streaming };
}

/**
 * Ends our side of a connection (if not ended already) and destroys it when the client ends its
 * side, or after LINGER_MS.
 */
function linger(socket) {
  if (socket.writable) socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // (a client that half-closed already: its socket closes once our side is sent, by itself)
  socket.once('end', () => socket.destroy());
}

/**
 * Writes an answer's pieces as the connection takes them, at most WRITE_PIECE bytes at a time:
 * one large write is copied and encrypted whole (a batch's 8 MiB at once, on each connection:
 * 1 GB of RSS under 100 batches).
 * @param {import('node:http').ServerResponse} res
 * @param {Buffer[]} pieces
 */
function writePieces(res, pieces) {
  let at = 0;
  let offset = 0;
  const more = () => {
    while (at < pieces.length) {
      const piece = pieces[at];
      const end = Math.min(offset + WRITE_PIECE, piece.length);
      const taken = res.write(piece.subarray(offset, end));
      if (end === piece.length) [at, offset] = [at + 1, 0];
      else offset = end;
      if (!taken) return void res.once('drain', more);
    }
    res.end();
  };
  more();
}

/**
 * The answer to a parse error or a header timeout.
 * @param {Error & { code?: string, reason?: string, rawPacket?: Buffer }} error
 * @param {number} headersMs
 * @returns {HttpError}
 */
function parseErrorOf(error, headersMs) {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new HttpError(
      408,
      'REQUEST_TIMEOUT',
      `The request line and headers did not arrive within ${headersMs / 1000} s`,
    );
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    // 414 only when the bytes at hand show the request line itself past the limit: the parser
    // says nothing of where it was, and a chunk without a line's start may as well be a header's
    if (error.rawPacket && requestLineTooLong(error.rawPacket)) return urlTooLong();
    return new HttpError(
      431,
      'INVALID_REQUEST',
      `The request line and headers are larger than the limit of ${HEADER_LIMIT} bytes`,
    );
  }
  if (error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW')
    return new HttpError(413, 'INVALID_REQUEST', 'The chunk extensions of the request body are too large');
  const reason = (error.reason ?? error.message ?? '').replace(/^HPE_[A-Z_]+:/, '');
  return new HttpError(400, 'INVALID_REQUEST', `The request is not valid HTTP/1.1: ${reason}`);
}

/**
 * Whether a chunk that overflowed the head's limit starts with a request line whose target is
 * longer than URL_LIMIT, ended or not.
 * @param {Buffer} chunk
 */
function requestLineTooLong(chunk) {
  const text = chunk
    .subarray(0, URL_LIMIT + 64)
    .toString('latin1')
    .replace(/^(\r\n)+/, '');
  const target = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ ([^ \r\n]*)/.exec(text)?.[1];
  return target !== undefined && target.length > URL_LIMIT;
}

/** An AbortSignal aborted when the client closes the connection before the answer; no listener outlives the request. */
function goneSignal(req, res) {
  const controller = new AbortController();
  const socket = req.socket;
  if (socket.destroyed) {
    controller.abort();
    return controller.signal;
  }
  const onClose = () => controller.abort();
  socket.once('close', onClose);
  res.once('close', () => socket.off('close', onClose));
  return controller.signal;
}

/** The origin the client used (for `retrieval_uri_list`). */
function originOf(req) {
  const scheme = req.socket.encrypted ? 'https' : 'http';
  return `${scheme}://${req.headers.host ?? 'localhost'}`;
}
