// The request pipeline, the same for every API and for every sub-request of a batch: base path ->
// API, route and validation (from the bundle, through openapi-backend), the one body reader (size,
// depth and time limits), the operation's handler from the API's adapter, and the one error mapper.
// It never asks which API it serves: each adapter brings its error body and validation status.
// The wire (`serve`) adds what only a connection has: the limits of its framing, basic auth from
// the headers alone (before any byte of the body is read), faults, `100 Continue` once the request
// is accepted, timeouts, and an answer to every request, malformed ones included.
import { timingSafeEqual } from 'node:crypto';
import { HTTP_METHODS, isReadOnly, mediaKind } from '@svc/oas';
import { byteBudget } from './budget.js';
import { percentDecode } from './decode.js';
import { DomainError } from './domain/errors.js';
import { HttpError, toHttpError } from './errors.js';
import {
  BATCH_MEMORY_LIMIT,
  HEADER_LIMIT,
  HEADERS_TIMEOUT_MS,
  IDLE_TIMEOUT_MS,
  JSON_BODY_LIMIT,
  JSON_BODY_TIMEOUT_MS,
  JSON_DEPTH_LIMIT,
  KEEP_ALIVE_TIMEOUT_MS,
  LINGER_BYTES,
  LINGER_MS,
  UPLOAD_IDLE_TIMEOUT_MS,
  URL_LIMIT,
} from './limits.js';

export { HttpError } from './errors.js';
export { JSON_BODY_LIMIT, JSON_DEPTH_LIMIT } from './limits.js';

// as index.js: an ES import of node:http would load undici and node:http2 with it
const { STATUS_CODES } = process.getBuiltinModule('node:http');

/** How often Node checks the headers timeout, in ms (its default, 30 s, would let a 20 s limit run to 50). */
const TIMEOUT_CHECK_MS = 1_000;

/**
 * @typedef {object} Context  what a handler gets
 * @property {import('./domain/index.js').Domain} domain
 * @property {import('./bundles.js').LoadedApi} api
 * @property {any} operation       the operation of the bundle
 * @property {string} operationId
 * @property {Record<string, string>} params  path parameters, percent-decoded
 * @property {Record<string, string | string[]>} query
 * @property {import('node:http').IncomingHttpHeaders} headers
 * @property {any} body            the parsed JSON body (undefined for none or a binary one)
 * @property {import('node:http').IncomingMessage | undefined} req  the request, from which a binary body is
 *   read (undefined in a batch, which takes no binary body)
 * @property {number} uploadIdleMs  how long a binary body may be silent before the upload is abandoned, in ms
 * @property {string} origin       the origin the client used, e.g. `https://127.0.0.1:9440`
 * @property {string} user         the basic-auth user
 * @property {() => AbortSignal} gone  aborted when the client goes away (for long polls)
 * @property {((bytes: number) => Promise<import('./budget.js').Lease>) | undefined} hold  takes `bytes` (an
 *   answer's most) of the budget of answers held at once (BATCH_MEMORY_LIMIT), waiting for them;
 *   they are given back once the answer is written out (undefined in a batch's sub-request)
 * @property {(sub: { method: string, path: string, body?: any }) => Promise<{ status: number, json: Buffer[] }>} dispatch
 *   runs a sub-request of a batch through the same pipeline (already authenticated): its status and
 *   its answer as JSON text in pieces (none: no body)
 */

/**
 * @typedef {object} Answer  what a handler resolves (one of `json`, `body`, `stream`, or none of them)
 * @property {number} status
 * @property {Record<string, string>} [headers]
 * @property {string | Buffer | Buffer[]} [json]  the body as JSON text, whole or in pieces (sent as it is)
 * @property {any} [body]    the body as a value, sent as JSON
 * @property {import('node:stream').Readable} [stream]  the body as bytes (with its own headers)
 */

/** The most bytes of an answer in pieces written at once, in bytes. */
const WRITE_PIECE = 64 * 1024;

/** The body production sends with a 401: an HTML page, not JSON. */
const UNAUTHORIZED_PAGE =
  '<html><head><title>Error 401 Unauthorized</title></head><body><h2>HTTP ERROR 401</h2></body></html>';

/** `/requestBody/spec/name` + missing `x` -> `spec.name.x`; parameters keep their name. */
function fieldOf(error) {
  const parts = error.instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (error.keyword === 'required' && error.params?.missingProperty) parts.push(error.params.missingProperty);
  if (error.keyword === 'additionalProperties' && error.params?.additionalProperty)
    parts.push(error.params.additionalProperty);
  const [where, ...rest] = parts;
  if (where === 'requestBody') return rest.length ? rest.join('.') : 'body';
  return rest.length ? `${rest.join('.')} (${where})` : (where ?? 'request');
}

/** Validation errors -> one answer (the API's validation status) naming every field and its rule. */
function validationError(status, errors) {
  /** @type {Record<string, string>} */
  const details = {};
  for (const e of errors) {
    const field = fieldOf(e);
    if (details[field]) continue; // one rule per field: the first Ajv reports
    details[field] =
      e.keyword === 'enum'
        ? `${e.message}: ${e.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
        : e.message;
  }
  const text = Object.entries(details)
    .map(([f, m]) => `${f}: ${m}`)
    .join('; ');
  return new HttpError(status, 'INVALID_REQUEST', `Request could not be processed: ${text}`, details);
}

const requiredBody = (api) =>
  validationError(api.adapter.validationStatus, [
    { instancePath: '/requestBody', keyword: 'required', params: {}, message: 'a JSON request body is required' },
  ]);

const tooLarge = (limit) =>
  new HttpError(413, 'INVALID_REQUEST', `The request body is larger than the limit of ${limit} bytes`);

/**
 * Whether a parsed JSON value nests deeper than `limit` (walked with a stack of its own, so any depth is safe).
 * @param {unknown} value
 * @param {number} limit
 */
function deeperThan(value, limit) {
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
    // a body whole at hand never gets here (bodyAtHand)
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
 * A body whose declared bytes are all in the request's buffer already (a small body comes with
 * its headers): taken at once, without readBody's listeners and timer. The caller has refused a
 * declared length over its limit already.
 * @param {import('node:http').IncomingMessage} req
 * @returns {Buffer | undefined} undefined while some of it is still to come (or chunked)
 */
function bodyAtHand(req) {
  const declared = Number(req.headers['content-length']);
  if (req.readableLength !== declared) return undefined;
  const bytes = req.read() ?? Buffer.alloc(0);
  // the parser ends the request after its last byte: flowing, it then ends and closes as one read whole does
  if (!req.complete) req.resume();
  return bytes;
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
function parseJson(text) {
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

const tooDeep = () =>
  new HttpError(400, 'INVALID_REQUEST', `The request body nests deeper than ${JSON_DEPTH_LIMIT} levels`);

/**
 * What an operation's request body is: JSON, bytes (`application/octet-stream`, an upload) or none.
 * @returns {'json' | 'binary' | 'none'}
 */
function bodyKind(operation) {
  const content = operation.requestBody?.content ?? {};
  return content['application/octet-stream'] ? 'binary' : content['application/json'] ? 'json' : 'none';
}

const mediaType = (header) => (header ?? '').split(';')[0].trim().toLowerCase();
/** `/api/svc//v3/batch` -> `/api/svc/v3/batch`, as production's gateway reads it. */
const collapseSlashes = (pathname) => pathname.replace(/\/{2,}/g, '/');
/**
 * The query as an object; a repeated key (`entityUuids=a&entityUuids=b`, form style) becomes an array.
 * @param {URLSearchParams} searchParams
 * @returns {Record<string, string | string[]>}
 */
function queryOf(searchParams) {
  /** @type {Record<string, string | string[]>} */
  const query = {};
  for (const [key, value] of searchParams) query[key] = key in query ? [query[key], value].flat() : value;
  return query;
}
/** The 401 of an API without its own (the element-level API's): production's HTML page. */
const unauthorizedPage = () => ({ type: 'text/html;charset=utf-8', body: UNAUTHORIZED_PAGE });

/** An answer's JSON text in pieces (none: no body). */
function piecesOf(answer) {
  if (answer.json !== undefined)
    return typeof answer.json === 'string'
      ? [Buffer.from(answer.json)]
      : Array.isArray(answer.json)
        ? answer.json
        : [answer.json];
  return answer.body === undefined ? [] : [Buffer.from(JSON.stringify(answer.body))];
}

/** Bounded memo of a pure function's results (cleared whole when full: the keys are few in use). */
function memo(size) {
  const map = new Map();
  return {
    get: (key) => map.get(key),
    set(key, value) {
      if (map.size >= size) map.clear();
      map.set(key, value);
    },
  };
}

/** Bodies up to this many bytes have their validation remembered (a polling client's list body is some 50). */
const REMEMBERED_BODY = 4096;
/** Request targets up to this many bytes have their parts remembered (a polling client's are some 40). */
const REMEMBERED_TARGET = 512;

/**
 * The parts of a request target (`/api/svc//v3/images?x=1`) as the pipeline reads them.
 * @typedef {object} Target
 * @property {string} pathname  percent-encoded, dot segments resolved (WHATWG URL), repeated slashes collapsed
 * @property {string} rawPathname  as WHATWG URL gives it, repeated slashes kept (files are served at exact paths)
 * @property {string} search    `?x=1`, or ''
 * @property {Readonly<Record<string, string | string[]>>} query  see queryOf (shared: never changed)
 */

/**
 * @param {string} raw  a request target
 * @returns {Target}
 */
function parseTarget(raw) {
  const url = new URL(raw, 'http://local');
  return {
    pathname: collapseSlashes(url.pathname),
    rawPathname: url.pathname,
    search: url.search,
    query: Object.freeze(queryOf(url.searchParams)),
  };
}

/**
 * @typedef {object} ListenerOptions
 * @property {(import('./bundles.js').LoadedApi & { adapter: import('./apis/index.js').Adapter })[]} apis
 * @property {import('./domain/index.js').Domain} domain
 * @property {string} user
 * @property {string} password
 * @property {import('./faults.js').Faults} faults
 * @property {string[]} secrets  never echoed in an answer (the data directory, the password)
 * @property {Record<string, { type: string, bytes: Buffer }>} [files]  path -> a file served without
 *   authentication (GET and HEAD), e.g. the sample image
 * @property {Partial<Timeouts>} [timeouts]  each in ms; default: those of limits.js
 * @property {(api: string, operationId: string, status: number, body: any) => any} [tamper]
 *   changes a JSON answer before it is sent (tests of the contract check only)
 */

/**
 * @typedef {object} Timeouts  in ms
 * @property {number} headersMs  a request's line and headers (HEADERS_TIMEOUT_MS)
 * @property {number} bodyMs  a JSON body, whole (JSON_BODY_TIMEOUT_MS)
 * @property {number} idleMs  a connection with nothing to do (IDLE_TIMEOUT_MS)
 * @property {number} uploadIdleMs  an upload's body, between two bytes (UPLOAD_IDLE_TIMEOUT_MS)
 */

/**
 * Serves the APIs on `server` (node:http or node:https, not listening yet): its request handlers,
 * timeouts and limits (limits.js), and an answer to every request it cannot parse.
 * @param {import('node:http').Server} server
 * @param {ListenerOptions} o
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
  const { handle, clientError, idle } = createPipeline(o, timeouts);
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
  server.on('request', (req, res) => handle(req, res, false));
  // `Expect: 100-continue`: the 100 is sent once the request is accepted, never before its credentials
  server.on('checkContinue', (req, res) => handle(req, res, true));
  server.on('clientError', clientError);
  server.on('timeout', idle);
}

/**
 * The pipeline and the handlers of a server's events.
 * @param {ListenerOptions} o
 * @param {Timeouts} timeouts
 */
function createPipeline({ apis, domain, user, password, faults, secrets, files = {}, tamper }, timeouts) {
  const mounts = apis
    .flatMap((api) => api.basePaths.map((base) => ({ base, prefix: `${base}/`, api })))
    .sort((a, b) => b.base.length - a.base.length);
  const expected = Buffer.from(Buffer.from(`${user}:${password}`).toString('base64'));
  /** The bytes of answers built whole before they are sent (a batch's) held at once. */
  const answerBudget = byteBudget(BATCH_MEMORY_LIMIT);
  /** Connections that close after their answer: a request behind it is not answered. */
  const closing = new WeakSet();
  /** Connections answered by `clientError`, past their request's own answer. */
  const answeredRaw = new WeakSet();
  /**
   * Connection -> the answer of the request it handled last (for the idle timeout and parse
   * errors); in flight while neither finished nor destroyed.
   */
  const answering = new WeakMap();
  /**
   * `api method path` -> the operation the router matches, its path parameters and the kind of
   * its body (pure functions of the three and the bundle).
   */
  const routes = memo(1024);
  /** A request target's text -> its parts (`parseTarget`, a pure function). */
  const targets = memo(1024);
  /** @param {string} raw  not longer than URL_LIMIT */
  function targetOf(raw) {
    let target = targets.get(raw);
    if (!target) {
      target = parseTarget(raw);
      if (raw.length <= REMEMBERED_TARGET) targets.set(raw, target);
    }
    return target;
  }
  /** operation, path, query and body text -> the body passed validation (see `validate`). */
  const validated = memo(256);
  /**
   * API, operation, origin, path, query and body text -> the answer's bytes and the generation of
   * the documents they were read from (adapter `cachedAnswers`)
   * @type {ReturnType<typeof memo>}
   */
  const answers = memo(64);

  /** RFC 9110: the scheme is case-insensitive; the credentials are compared in constant time. */
  function authorized(header = '') {
    // `Basic <credentials>` as clients send it, without the regular expression its other forms need
    const plain = header.startsWith('Basic ') && header.indexOf(' ', 6) === -1;
    const match = plain ? undefined : /^(\S+)\s+(\S+)\s*$/.exec(header);
    if (!plain && match?.[1].toLowerCase() !== 'basic') return false;
    const given = Buffer.from(plain ? header.slice(6) : /** @type {RegExpExecArray} */ (match)[2]);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The answer to an error: the API's words for the domain's, the one mapper for anything else. */
  const answerOf = (error, api) =>
    error instanceof DomainError ? (api ?? apis[0]).adapter.mapError(error) : toHttpError(error, secrets);

  const mountOf = (pathname) => mounts.find((m) => pathname === m.base || pathname.startsWith(m.prefix));
  const noApiAt = (pathname) =>
    new HttpError(
      404,
      'ENTITY_NOT_FOUND',
      `No API is served at ${pathname}; the base paths are ${mounts.map((m) => m.base).join(', ')}`,
    );

  /**
   * The operation a request names, its path parameters and the kind of its body.
   * @returns {{ operation: any, params: Readonly<Record<string, string>>, kind: 'json' | 'binary' | 'none' }}
   * @throws {HttpError} 405 (with Allow) or 404 when there is none; 400 for a malformed escape in a path parameter
   */
  function routeOf(api, request) {
    const key = `${api.name} ${request.method} ${request.path}`;
    let route = routes.get(key);
    if (route === undefined) {
      const operation = api.backend.router.matchOperation(request);
      // a malformed escape throws here, and is not remembered
      route = operation
        ? { operation, params: Object.freeze(pathParams(operation, request.path)), kind: bodyKind(operation) }
        : null;
      routes.set(key, route);
    }
    if (route) return route;
    const allowed = HTTP_METHODS.filter((m) => api.backend.router.matchOperation({ ...request, method: m }));
    throw allowed.length
      ? new HttpError(
          405,
          'INVALID_REQUEST',
          `${request.method.toUpperCase()} is not an operation of ${request.path}`,
          undefined,
          { allow: allowed.map((m) => m.toUpperCase()).join(', ') },
        )
      : new HttpError(404, 'ENTITY_NOT_FOUND', `No operation at ${request.path}`);
  }

  /**
   * Validates a request against its operation. A valid result is remembered for a small body of
   * an operation whose only parameters are in its path: openapi-backend's validation is then a
   * function of the path, the query and the body's text alone (headers are not read; the body's
   * media type is always given as application/json), so the same text is valid again.
   * @param {{ method: string, path: string, query: any, search: string, headers: any, body: any }} request
   * @param {boolean} json  the operation takes a JSON body
   * @param {string | false} key  the request's key (see `run`; false: not remembered)
   * @throws {HttpError} the API's validation status, naming each field and its rule
   */
  function validate(api, operation, request, json, key) {
    const remembered = (operation.parameters ?? []).every((p) => p.in === 'path') && key;
    if (remembered && validated.get(remembered)) return;
    // the validator checks a body only under exactly this media type (a charset would skip it)
    if (json) request.headers = { ...request.headers, 'content-type': 'application/json' };
    const result = api.backend.validator.validateRequest(request, operation);
    if (!result.valid) throw validationError(api.adapter.validationStatus, result.errors ?? []);
    if (remembered) validated.set(remembered, true);
  }

  /**
   * @typedef {object} Incoming  a request as the pipeline takes it
   * @property {string} method    lower case
   * @property {Target} target
   * @property {import('node:http').IncomingHttpHeaders} headers
   * @property {string} origin
   * @property {() => AbortSignal} gone
   * @property {{ req: import('node:http').IncomingMessage, proceed: () => void, bodyTaken: boolean,
   *   dispatch: (sub: { method: string, path: string, body?: any }) => Promise<{ status: number, json: Buffer[] }>,
   *   hold: (bytes: number) => Promise<import('./budget.js').Lease> }} [wire]
   *   a request from a connection: its body is read from `req`, `proceed` sends `100 Continue` when
   *   asked for (once the request is accepted, before its body is read), `bodyTaken` is set once
   *   every declared byte of the body is read (the parser may not have ended the request yet),
   *   `hold` takes bytes of the answer budget until this answer is written out
   * @property {any} [value]  a batch's sub-request: its body, parsed already (undefined: none)
   */

  /**
   * The pipeline: route, body, a cached answer (adapter `cachedAnswers`), validation, handler,
   * error mapping. Never throws.
   * @param {Incoming} r
   * @returns {Promise<Answer & { api?: any, operationId?: string, failed?: boolean }>}
   */
  async function run(r) {
    let api;
    let operationId;
    try {
      const { pathname, query, search } = r.target;
      const mount = mountOf(pathname);
      if (!mount) throw noApiAt(pathname);
      api = mount.api;
      const path = pathname.slice(mount.base.length) || '/';
      const request = { method: r.method, path, headers: r.headers, query, search, body: undefined };
      const { operation, params, kind } = routeOf(api, request);
      operationId = operation.operationId;
      const { wire } = r;
      if (!wire) {
        if (kind === 'binary')
          throw new HttpError(
            400,
            'INVALID_REQUEST',
            `${operationId} takes a binary body and cannot be part of a batch`,
          );
        if (operationId === 'batch_create')
          throw new HttpError(400, 'INVALID_REQUEST', 'a batch cannot contain a batch');
      } else {
        await faults.delay();
        // only calls that clients retry (GET/HEAD and x-svc-idempotent POSTs) get the 503/429 faults
        if (isReadOnly({ method: r.method, operation })) {
          const fault = faults.httpFault();
          if (fault)
            throw new HttpError(fault.status, fault.reason, fault.message, undefined, {
              'retry-after': String(fault.retryAfterSeconds),
            });
        }
      }
      const text = await textOf(r, operation, kind);
      // what the checks below read of a request with a small body (their results are remembered)
      const key =
        (text ?? '').length <= REMEMBERED_BODY && `${api.name} ${operationId} ${path} ${search} ${text ?? ''}`;
      // the same request again, the documents its answer reads unchanged: the same bytes, whose
      // request passed every check that follows (a function of what the key holds)
      const generationOf = api.adapter.cachedAnswers?.[operationId];
      const generation = generationOf?.(domain);
      const answerKey = generationOf && key && `${r.origin} ${key}`;
      if (answerKey) {
        const known = answers.get(answerKey);
        if (known?.generation === generation) return { status: 200, json: known.json, api, operationId };
      }
      const body = kind === 'json' ? parsedBody(r, operation, text, api) : undefined;
      if (kind === 'json') request.body = body;
      validate(api, operation, request, kind === 'json', key);
      const handler = api.adapter.handlers[operationId];
      if (!handler) throw new HttpError(501, 'INTERNAL_ERROR', `${operationId} is not simulated yet`);
      // a binary body is the handler's to read
      if (kind === 'binary') wire?.proceed();
      const answer = await handler({
        domain,
        api,
        operation,
        operationId,
        params,
        query,
        headers: r.headers,
        body,
        req: wire?.req,
        uploadIdleMs: timeouts.uploadIdleMs,
        origin: r.origin,
        user,
        gone: r.gone,
        hold: wire?.hold,
        dispatch: wire
          ? wire.dispatch
          : () => {
              throw new HttpError(400, 'INVALID_REQUEST', 'a batch cannot contain a batch');
            },
      });
      if (answerKey && answer.status === 200 && Buffer.isBuffer(answer.json))
        answers.set(answerKey, { generation, json: answer.json });
      return { ...answer, api, operationId };
    } catch (error) {
      const known = answerOf(error, api);
      // a defect of ours, unless the client went away (its body then ends early: nobody to tell)
      if (!(error instanceof HttpError) && known.status === 500 && !r.wire?.req.socket.destroyed)
        console.error(`simulator: ${operationId ?? 'request'}: ${known.message}`);
      const body = (api ?? apis[0]).adapter.errorBody(known, operationId);
      return { status: known.status, headers: known.headers, body, api, operationId, failed: true };
    }
  }

  /**
   * A request's body text, checked before the operation's validation: from the wire, its media
   * type, its declared size (before a byte is read), then its bytes within the size limit and the
   * body timeout; from a batch, the sub-request's value (size). A body sent to an operation that
   * takes none is read and dropped (within the same limits); a binary one is left to the handler.
   * @param {Incoming} r
   * @param {any} operation
   * @param {'json' | 'binary' | 'none'} kind  bodyKind(operation)
   * @returns {Promise<string | undefined>}  the JSON as received (undefined: no body, or not a JSON operation)
   * @throws {HttpError} 415, 413, 408
   */
  async function textOf(r, operation, kind) {
    const { operationId } = operation;
    const content = operation.requestBody?.content ?? {};
    let text;
    if (r.wire) {
      const { req } = r.wire;
      const type = mediaType(req.headers['content-type']);
      const declared = Number(req.headers['content-length'] ?? 0);
      const hasBody = declared > 0 || req.headers['transfer-encoding'] !== undefined;
      if (kind === 'binary') {
        // `*/*` next to it: production stores the bytes whatever the Content-Type (v0.8 upload)
        if (type !== 'application/octet-stream' && !content['*/*'])
          throw new HttpError(
            415,
            'UNSUPPORTED_MEDIA_TYPE_ERROR',
            `Content-Type must be application/octet-stream for ${operationId}, not "${type || 'none'}"`,
          );
        return undefined;
      }
      if (kind === 'json' && hasBody && type !== 'application/json' && mediaKind(type) !== 'json')
        throw new HttpError(
          415,
          'UNSUPPORTED_MEDIA_TYPE_ERROR',
          `Content-Type must be application/json for ${operationId}, not "${type || 'none'}"`,
        );
      // refused on what it declares, before a byte of it is read
      if (declared > JSON_BODY_LIMIT) throw tooLarge(JSON_BODY_LIMIT);
      if (hasBody) {
        r.wire.proceed();
        let bytes = bodyAtHand(req);
        if (bytes) r.wire.bodyTaken = true;
        else
          bytes = await readBody(req, {
            limit: JSON_BODY_LIMIT,
            deadlineMs: timeouts.bodyMs,
            keep: kind === 'json',
          });
        if (kind === 'json') text = bytes.toString('utf8');
      }
    } else if (r.value !== undefined) {
      text = JSON.stringify(r.value);
      if (Buffer.byteLength(text) > JSON_BODY_LIMIT) throw tooLarge(JSON_BODY_LIMIT);
    }
    return kind === 'json' ? text : undefined;
  }

  /**
   * A JSON operation's body from its text (textOf): parsed (the wire's) and within the depth limit.
   * @param {Incoming} r
   * @param {any} operation
   * @param {string | undefined} text
   * @param {any} api
   * @returns {any} undefined: none
   * @throws {HttpError} 400 (not JSON, too deep), or the API's validation status when a required body is missing
   */
  function parsedBody(r, operation, text, api) {
    const body = text === undefined ? undefined : r.wire ? parseJson(text) : r.value;
    if (!r.wire && deeperThan(body, JSON_DEPTH_LIMIT)) throw tooDeep();
    if (body === undefined && operation.requestBody?.required) throw requiredBody(api);
    return body;
  }

  /**
   * Runs one sub-request of a batch through the pipeline (already authenticated by the batch).
   * `path` may carry production's base path (`/api/nutanix/v3/...`), repeated slashes and no
   * leading slash.
   * @param {{ method: string, path: string, body?: any }} sub
   * @param {{ origin: string, gone: () => AbortSignal }} from  the batch request's
   * @returns {Promise<{ status: number, json: Buffer[] }>} the status, and the answer or the API's
   *   error body as JSON text in pieces (none: no body)
   */
  async function dispatch(sub, from) {
    const target = targetOf(`/${sub.path}`.replace(/^\/+/, '/'));
    const answer = await run({
      method: sub.method.toLowerCase(),
      target: { ...target, pathname: target.pathname.replace(/^(\/oss)?\/api\/nutanix\//, '$1/api/svc/') },
      headers: { 'content-type': 'application/json' },
      origin: from.origin,
      gone: from.gone,
      value: sub.body,
    });
    answer.stream?.destroy();
    return { status: answer.status, json: piecesOf(answer) };
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
   * Ends our side of a connection (if not ended already) and destroys it when the client ends its
   * side, or after LINGER_MS.
   */
  function linger(socket) {
    if (socket.writable) socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.once('end', () => socket.destroy());
  }

  /**
   * Writes an answer on the wire. A request whose body was not all read closes its connection after it.
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {Answer & { api?: any, operationId?: string }} answer
   * @param {boolean} [bodyTaken]  every declared byte of the body is read, though the parser may
   *   not have ended the request yet
   */
  function send(req, res, answer, bodyTaken = false) {
    if (res.destroyed || res.headersSent || answeredRaw.has(req.socket)) return;
    if (!req.complete && !bodyTaken) closeAfter(req, res);
    if (answer.stream) {
      res.writeHead(answer.status, answer.headers);
      answer.stream.pipe(res);
      return;
    }
    let pieces = piecesOf(answer);
    if (tamper && pieces.length && answer.api) {
      const value = JSON.parse(Buffer.concat(pieces).toString('utf8'));
      pieces = [Buffer.from(JSON.stringify(tamper(answer.api.name, answer.operationId, answer.status, value)))];
    }
    const length = pieces.reduce((n, p) => n + p.length, 0);
    res.writeHead(answer.status, {
      ...(length ? { 'content-type': 'application/json' } : {}),
      'content-length': length,
      ...answer.headers,
    });
    if (pieces.length > 1) writePieces(res, pieces);
    else res.end(pieces[0]);
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

  /** A request from a connection: the framing's limits, credentials, then the pipeline. */
  async function handle(req, res, expectContinue) {
    const socket = req.socket;
    // a request pipelined behind an answer that closes the connection
    if (closing.has(socket)) {
      res.destroy();
      return;
    }
    answering.set(socket, res);
    const raw = req.url ?? '/';
    if (raw.length > URL_LIMIT) {
      const error = urlTooLong();
      closeAfter(req, res);
      // worded by the API the path names (not remembered: the target is too long)
      const mount = mountOf(parseTarget(raw).pathname);
      send(req, res, { status: error.status, body: (mount?.api ?? apis[0]).adapter.errorBody(error) });
      return;
    }
    const target = targetOf(raw);
    const method = (req.method ?? 'GET').toLowerCase();
    const mount = mountOf(target.pathname);
    const file = files[target.rawPathname];
    if (file && (method === 'get' || method === 'head')) {
      if (!req.complete) closeAfter(req, res);
      res.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length });
      res.end(method === 'head' ? undefined : file.bytes);
      return;
    }
    if (!authorized(req.headers.authorization)) {
      // from the headers alone: nothing of the body is read, and the connection closes after it
      // (the API's own 401: the v3 gateway's JSON body; the element API's HTML page)
      const page = (mount?.api.adapter.unauthorized ?? unauthorizedPage)();
      closeAfter(req, res);
      res.writeHead(401, {
        'content-type': page.type,
        'content-length': Buffer.byteLength(page.body),
        'www-authenticate': 'Basic realm="Intent Gateway Login Required"',
      });
      res.end(page.body);
      return;
    }
    const origin = originOf(req);
    let gone;
    const goneOnce = () => (gone ??= goneSignal(req, res));
    let continued = !expectContinue;
    const wire = {
      req,
      bodyTaken: false,
      proceed() {
        if (continued) return;
        continued = true;
        res.writeContinue();
      },
      dispatch: (sub) => dispatch(sub, { origin, gone: goneOnce }),
      async hold(bytes) {
        const lease = await answerBudget.take(bytes, goneOnce());
        // written out (handed to the kernel) or cut: either way no longer ours to hold
        if (res.destroyed || res.writableFinished) lease.release();
        else res.once('close', lease.release);
        return lease;
      },
    };
    const answer = await run({ method, target, headers: req.headers, origin, gone: goneOnce, wire });
    if (socket.destroyed || res.destroyed) return; // the client went away: nobody to answer
    if (res.headersSent) {
      // an answer was half-written when the handler failed: nothing more can be said
      if (answer.failed) res.destroy();
      return;
    }
    send(req, res, answer, wire.bodyTaken);
  }

  const urlTooLong = () =>
    new HttpError(414, 'INVALID_REQUEST', `The request target is longer than the limit of ${URL_LIMIT} bytes`);

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
    const known = parseErrorOf(error);
    const body = JSON.stringify(apis[0].adapter.errorBody(known));
    socket.end(
      `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    linger(socket);
  }

  /**
   * The answer to a parse error or a header timeout.
   * @param {Error & { code?: string, reason?: string, rawPacket?: Buffer }} error
   * @returns {HttpError}
   */
  function parseErrorOf(error) {
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
      return new HttpError(
        408,
        'REQUEST_TIMEOUT',
        `The request line and headers did not arrive within ${timeouts.headersMs / 1000} s`,
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

  return { handle, clientError, idle };
}

/** An AbortSignal aborted when the client closes the connection before the answer; no listener outlives the request. */
function goneSignal(req, res) {
  const controller = new AbortController();
  const socket = req.socket;
  const onClose = () => controller.abort();
  socket.once('close', onClose);
  res.once('close', () => socket.off('close', onClose));
  return controller.signal;
}

const templates = new WeakMap();
/**
 * The path parameters of a matched operation (`/images/{uuid}` on `/images/ab-12` -> `{ uuid: 'ab-12' }`), percent-decoded.
 * @throws {HttpError} 400 naming the parameter when an escape is malformed
 */
function pathParams(operation, path) {
  let template = templates.get(operation);
  if (!template) {
    const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const source = operation.path
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('([^/]+)');
    template = { names, re: new RegExp(`^${source}/?$`) };
    templates.set(operation, template);
  }
  const match = template.re.exec(path);
  return Object.fromEntries(
    template.names.map((name, i) => [name, percentDecode(match?.[i + 1] ?? '', `path parameter ${name}`)]),
  );
}

/** The origin the client used (for `retrieval_uri_list`). */
function originOf(req) {
  const scheme = req.socket.encrypted ? 'https' : 'http';
  return `${scheme}://${req.headers.host ?? 'localhost'}`;
}
