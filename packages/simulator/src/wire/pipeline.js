// The request pipeline, the same for every API and for every sub-request of a batch: base path ->
// API, credentials (from the headers alone, before a byte of the body is read), route and
// validation (from the bundle, through openapi-backend), the body (body.js), a reused answer
// (answer-cache.js), the operation's handler from the API's adapter, and the one error mapper.
// It never asks which API it serves (each adapter brings its error body and validation status),
// and it never sees a connection: a request comes with its body not yet read (body.js), and the
// answer goes back as a value for connection.js to write.
import { timingSafeEqual } from 'node:crypto';
import { isReadOnly, mediaKind } from '@svc/oas';
import { DomainError } from '../domain/errors.js';
import { HttpError, toHttpError } from '../errors.js';
import { JSON_BODY_LIMIT, JSON_DEPTH_LIMIT, URL_LIMIT } from '../limits.js';
import { createAnswerCache } from './answer-cache.js';
import { deeperThan, parseJson, tooDeep, tooLarge } from './body.js';
import { createCors } from './cors.js';
import { createGate } from './gate.js';
import { lenientNotes } from './lenient.js';
import { createRouter, parseTarget, urlTooLong } from './route.js';
import { createValidator, requiredBody } from './validation.js';

/** Bodies up to this many bytes have their validation remembered (a polling client's list body is some 50). */
const REMEMBERED_BODY = 4096;

/** The body production sends with a 401: an HTML page, not JSON. */
const UNAUTHORIZED_PAGE =
  '<html><head><title>Error 401 Unauthorized</title></head><body><h2>HTTP ERROR 401</h2></body></html>';

/**
 * @typedef {object} Context  what a handler gets
 * @property {import('../domain/index.js').Domain} domain
 * @property {import('../bundles.js').LoadedApi} api
 * @property {any} operation       the operation of the bundle
 * @property {string} operationId
 * @property {Record<string, string>} params  path parameters, percent-decoded
 * @property {Record<string, string | string[]>} query
 * @property {import('node:http').IncomingHttpHeaders} headers
 * @property {any} body            the parsed JSON body (undefined for none or a binary one)
 * @property {import('node:stream').Readable | undefined} bytes  a binary body's bytes as they come (an
 *   upload; undefined otherwise, and in a batch, which takes no binary body)
 * @property {number} uploadIdleMs  how long a binary body may be silent before the upload is abandoned, in ms
 * @property {string} origin       the origin the client used, e.g. `https://127.0.0.1:9440`
 * @property {string} user         the basic-auth user
 * @property {() => AbortSignal} gone  aborted when the client goes away (for long polls)
 * @property {<T>(wait: () => Promise<T>) => Promise<T>} idle  runs a wait (a long poll) holding no memory
 *   meant for work: a batch's reservation is given back while it waits, and taken again after
 * @property {((bytes: number) => Promise<import('../budget.js').Lease>) | undefined} hold  takes `bytes` (an
 *   answer's most) of the budget of answers held at once (BATCH_MEMORY_LIMIT), waiting for them;
 *   they are given back once the answer is written out or the client leaves (undefined in a sub-request)
 * @property {(sub: { method: string, path: string, body?: any },
 *   o?: { idle?: <T>(wait: () => Promise<T>) => Promise<T> }) => Promise<{ status: number, json: Buffer[] }>} dispatch
 *   runs a sub-request of a batch through the same pipeline (already authenticated): its status and
 *   its answer as JSON text in pieces (none: no body); `idle` is how its waits hold no memory
 */

/**
 * @typedef {object} Answer  what a handler resolves (one of `json`, `body`, `bytes`, `stream`, or none)
 * @property {number} status
 * @property {Record<string, string>} [headers]
 * @property {string | Buffer | Buffer[]} [json]  the body as JSON text, whole or in pieces (sent as it is)
 * @property {any} [body]    the body as a value, sent as JSON
 * @property {Buffer} [bytes]  the body as bytes of the type its headers name
 * @property {import('node:stream').Readable} [stream]  the body as bytes (with its own headers); whoever
 *   holds the answer owns it: it is written out, or destroyed
 * @property {boolean} [close]  the connection closes after it, whether the body was read or not
 */

/**
 * @typedef {object} Request  a request from a connection, its body not yet read
 * @property {string} method    lower case
 * @property {string} url       the request target as sent
 * @property {import('node:http').IncomingHttpHeaders} headers
 * @property {string} origin
 * @property {() => AbortSignal} gone
 * @property {import('./body.js').BodySource} body
 * @property {(bytes: number) => Promise<import('../budget.js').Lease>} hold
 */

/**
 * @typedef {object} Incoming  a request inside the pipeline
 * @property {string} method
 * @property {import('./route.js').Target} target
 * @property {import('node:http').IncomingHttpHeaders} headers
 * @property {string} origin
 * @property {() => AbortSignal} gone
 * @property {import('./body.js').BodySource} [body]  from a connection
 * @property {any} [value]  a batch's sub-request: its body, parsed already (undefined: none)
 * @property {(bytes: number) => Promise<import('../budget.js').Lease>} [hold]  from a connection
 * @property {<T>(wait: () => Promise<T>) => Promise<T>} [idle]  a sub-request's (see Context)
 */

/**
 * @typedef {Answer & { api?: any, operationId?: string, failed?: boolean, broke?: any[],
 *   lenient?: import('../control/journal.js').LenientNote[] }} Answered  `broke`: the rules of the description
 *   the request broke (Ajv's errors, or the pipeline's in their shape); `lenient`: what it relies on of
 *   production's leniency
 */

/** An answer's JSON text in pieces (none: no body). */
export function piecesOf(answer) {
  if (answer.json !== undefined)
    return typeof answer.json === 'string'
      ? [Buffer.from(answer.json)]
      : Array.isArray(answer.json)
        ? answer.json
        : [answer.json];
  return answer.body === undefined ? [] : [Buffer.from(JSON.stringify(answer.body))];
}

const now = (wait) => wait();

/** The name of the control API (redocly.yaml): never journaled, never faulted, held by no pause of its own. */
const CONTROL = 'control';

/** The statuses of the pipeline's own refusals of what a request sent (a media type, a size, malformed JSON). */
const BROKEN = new Set([400, 413, 414, 415]);

/** A refusal of the pipeline's own, worded as the validator words a broken rule (a rule, never the value). */
const brokeOf = (error) => ({
  instancePath: error.status === 415 ? '/headers/content-type' : error.status === 414 ? '/path' : '/requestBody',
  keyword: 'format',
  // the media type sent is a header's value: not kept
  message: error.status === 415 ? 'must be a media type the operation takes' : error.message.replace(/: .*$/s, ''),
});

/**
 * @typedef {object} PipelineOptions
 * @property {(import('../bundles.js').LoadedApi & { adapter: import('../apis/index.js').Adapter })[]} apis
 * @property {() => import('../domain/index.js').Domain} domain  the domain now (a restore opens another)
 * @property {string} user
 * @property {string} password
 * @property {import('../faults.js').FaultRules} faults  the fault rules in force
 * @property {import('../control/journal.js').Journal} [journal]  records every request to the other APIs
 * @property {() => import('../apis/control/index.js').Control} [control]  what the control API's handlers get
 * @property {string[]} secrets  never echoed in an answer (the data directory, the password)
 * @property {Record<string, { type: string, bytes: Buffer }>} [files]  path -> a file served without
 *   authentication (GET and HEAD), e.g. the sample image
 * @property {string[]} [cors]  origins whose pages may call the APIs (`--cors`); default none
 * @property {(api: string, operationId: string, status: number, body: any) => any} [tamper]
 *   changes a JSON answer before it is sent (tests of the contract check only)
 * @property {number} bodyMs  a JSON body arrives whole within it, in ms
 * @property {number} uploadIdleMs  an upload's body may be silent this long, in ms
 */

/**
 * The pipeline of a server.
 * @param {PipelineOptions} o
 */
export function createPipeline({
  apis,
  domain,
  user,
  password,
  faults,
  journal,
  control,
  secrets,
  files = {},
  cors: corsOrigins = [],
  tamper,
  uploadIdleMs,
}) {
  const router = createRouter(apis);
  const cors = createCors(corsOrigins);
  const gate = createGate();
  const validator = createValidator();
  const answers = createAnswerCache();
  const expected = Buffer.from(Buffer.from(`${user}:${password}`).toString('base64'));

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

  /** An error as the API words it (the first API's words where no API is named). */
  const errorAnswer = (error, api, operationId) => ({
    status: error.status,
    headers: error.headers,
    body: (api ?? apis[0]).adapter.errorBody(error, operationId),
  });

  /**
   * The answer to a request from a connection: the target's and the credentials' checks, the
   * files served without credentials, then `run`. Never throws. Those checks answer at once, not
   * in a later tick: the parser may otherwise meet a malformed body first and answer that instead.
   * @param {Request} request
   * @returns {Answered | Promise<Answered>}
   */
  function answer(request) {
    if (!cors) return answered(request);
    const preflight = cors.preflight(request.method, request.headers);
    if (preflight) return preflight;
    const extra = cors.headers(request.headers);
    if (!extra) return answered(request);
    const withCors = (a) => ({ ...a, headers: { ...a.headers, ...extra } });
    const pending = answered(request);
    return pending instanceof Promise ? pending.then(withCors) : withCors(pending);
  }

  /**
   * The answer to a request (see `answer`), without the CORS headers.
   * @param {Request} request
   * @returns {Answered | Promise<Answered>}
   */
  function answered(request) {
    if (request.url.length > URL_LIMIT) {
      // worded by the API the path names (not remembered: the target is too long)
      const mount = router.mountOf(parseTarget(request.url).pathname);
      return { ...errorAnswer(urlTooLong(), mount?.api), close: true };
    }
    const target = router.targetOf(request.url);
    const file = files[target.rawPathname];
    if (file && (request.method === 'get' || request.method === 'head'))
      return { status: 200, headers: { 'content-type': file.type }, bytes: file.bytes };
    const mount = router.mountOf(target.pathname);
    const own = mount?.api.name === CONTROL;
    if (!authorized(request.headers.authorization) && !isPublic(mount, request.method, target)) {
      const refused = unauthorized(target);
      if (!own) record(request.method, target, mount, refused.status, performance.now(), undefined);
      return refused;
    }
    const started = journal && !own ? performance.now() : 0;
    const answered = gate.closed()
      ? gate.through(() => run({ ...request, target }), own)
      : gate.count(run({ ...request, target }), own);
    const recorded = started
      ? answered.then((a) => {
          record(request.method, target, mount, a.status, started, a);
          return a;
        })
      : answered;
    return tamper ? recorded.then(tampered) : recorded;
  }

  /** Whether an operation takes no credentials (its `security: []`: the control API's health). */
  function isPublic(mount, method, target) {
    if (!mount) return false;
    try {
      const path = target.pathname.slice(mount.base.length) || '/';
      return router.routeOf(mount.api, { method, path }).operation.security?.length === 0;
    } catch {
      return false;
    }
  }

  /**
   * Records a request in the journal: its operation (when its path and method name one), status,
   * time and what it broke of the description.
   * @param {number} started  performance.now() at its arrival
   * @param {Answered} [answered]
   */
  function record(method, target, mount, status, started, answered) {
    if (!journal || !mount) return;
    let operationId = answered?.operationId;
    if (!operationId && !answered)
      try {
        const path = target.pathname.slice(mount.base.length) || '/';
        operationId = router.routeOf(mount.api, { method, path }).operation.operationId;
      } catch {
        // no operation at that path
      }
    journal.record(
      method,
      target.pathname,
      operationId,
      status,
      performance.now() - started,
      answered?.broke,
      answered?.lenient,
    );
  }

  /**
   * A missing or wrong credential, from the headers alone: nothing of the body is read, and the
   * connection closes after it (the API's own 401: the v3 gateway's JSON body; the element API's
   * HTML page).
   */
  function unauthorized(target) {
    const page = router.mountOf(target.pathname)?.api.adapter.unauthorized?.() ?? {
      type: 'text/html;charset=utf-8',
      body: UNAUTHORIZED_PAGE,
    };
    return {
      status: 401,
      headers: { 'content-type': page.type, 'www-authenticate': 'Basic realm="Intent Gateway Login Required"' },
      bytes: Buffer.from(page.body),
      close: true,
    };
  }

  /** @param {Answered} answered */
  function tampered(answered) {
    const pieces = piecesOf(answered);
    if (!answered.api || !pieces.length || answered.stream || answered.bytes) return answered;
    const value = JSON.parse(Buffer.concat(pieces).toString('utf8'));
    const json = JSON.stringify(tamper?.(answered.api.name, answered.operationId, answered.status, value));
    return { ...answered, json, body: undefined };
  }

  /**
   * The pipeline: route, body, a reused answer (adapter `cachedAnswers`), validation, handler,
   * error mapping. Never throws.
   * @param {Incoming} r
   * @returns {Promise<Answered>}
   */
  async function run(r) {
    let api;
    let operationId;
    /** Whether the request passed the description's checks (its refusals after are not the description's). */
    let checked = false;
    try {
      const { pathname, query, search } = r.target;
      const mount = router.mountOf(pathname);
      if (!mount) throw router.noApiAt(pathname);
      api = mount.api;
      const path = pathname.slice(mount.base.length) || '/';
      const request = { method: r.method, path, headers: r.headers, query, search, body: undefined };
      const { operation, params, kind } = router.routeOf(api, request);
      operationId = operation.operationId;
      const hit = await admit(r, operation, kind, api);
      const text = await textOf(r, operation, kind);
      // what the checks below read of a request with a small body (their results are remembered)
      const key =
        (text ?? '').length <= REMEMBERED_BODY && `${api.name} ${operationId} ${path} ${search} ${text ?? ''}`;
      const respond = async () => {
        const body = kind === 'json' ? parsedBody(r, operation, text, api) : undefined;
        if (kind === 'json') request.body = body;
        validator.validate(api, operation, request, kind === 'json', key);
        const handler = api.adapter.handlers[operationId];
        if (!handler) throw new HttpError(501, 'INTERNAL_ERROR', `${operationId} is not simulated yet`);
        checked = true;
        const ctx = contextOf(r, { api, operation, operationId, params, query, body, kind });
        return faults.during(hit, () => handler(ctx));
      };
      // the same request again, the documents its answer reads unchanged: the same bytes, whose
      // request passed every check that follows (a function of what the key holds)
      const generationOf = api.adapter.cachedAnswers?.[operationId];
      const answered =
        generationOf && key
          ? await answers.answered(`${r.origin} ${key}`, generationOf(domain()), respond)
          : await respond();
      // what it relies on of production's leniency, for the journal (a request from a connection)
      const lenient = journal && r.body ? lenientNotes(operationId, text, r.headers) : undefined;
      return { ...answered, api, operationId, ...(lenient ? { lenient } : {}) };
    } catch (error) {
      const known = answerOf(error, api);
      // a defect of ours, unless the client went away (its body then ends early: nobody to tell)
      if (!(error instanceof HttpError) && known.status === 500 && !r.gone().aborted)
        console.error(`simulator: ${operationId ?? 'request'}: ${known.message}`);
      // what it broke of the description, for the journal: the validator's errors, or the refusal's own
      const own = !checked && error instanceof HttpError && BROKEN.has(known.status);
      const broke = error?.errors ?? (own ? [brokeOf(known)] : undefined);
      return { ...errorAnswer(known, api, operationId), api, operationId, failed: true, broke };
    }
  }

  /**
   * What a request must pass before its body is read: a sub-request takes no binary body and no
   * batch; a request from a connection to the served APIs meets the fault rules in force (their
   * latency, then their status). Resolves the rules' hit (undefined: none).
   * @throws {HttpError}
   */
  async function admit(r, operation, kind, api) {
    if (!r.body) {
      if (kind === 'binary')
        throw new HttpError(
          400,
          'INVALID_REQUEST',
          `${operation.operationId} takes a binary body and cannot be part of a batch`,
        );
      if (operation.operationId === 'batch_create')
        throw new HttpError(400, 'INVALID_REQUEST', 'a batch cannot contain a batch');
      return undefined;
    }
    if (api.name === CONTROL) return undefined;
    const hit = faults.match(
      operation.operationId,
      r.method,
      r.target.pathname,
      isReadOnly({ method: r.method, operation }),
    );
    await faults.delay(hit);
    const refused = faults.errorOf(hit);
    if (refused) throw refused;
    return hit;
  }

  /** @returns {Context} */
  function contextOf(r, { api, operation, operationId, params, query, body, kind }) {
    return {
      domain: domain(),
      ...(api.name === CONTROL && control ? { control: control() } : {}),
      api,
      operation,
      operationId,
      params,
      query,
      headers: r.headers,
      body,
      // a binary body is the handler's to read (asking for it sends `100 Continue`)
      bytes: kind === 'binary' ? r.body?.stream() : undefined,
      uploadIdleMs,
      origin: r.origin,
      user,
      gone: r.gone,
      idle: r.idle ?? now,
      hold: r.hold,
      dispatch: (sub, o = {}) => dispatch(sub, { origin: r.origin, gone: r.gone, idle: o.idle ?? now }),
    };
  }

  /**
   * A request's body text, checked before the operation's validation: from a connection, its
   * media type, its declared size (before a byte is read), then its bytes within the size limit
   * and the body timeout; from a batch, the sub-request's value (size). A body sent to an
   * operation that takes none is read and dropped (within the same limits); a binary one is left
   * to the handler.
   * @param {Incoming} r
   * @param {any} operation
   * @param {'json' | 'binary' | 'none'} kind
   * @returns {Promise<string | undefined>}  the JSON as received (undefined: no body, or not a JSON operation)
   * @throws {HttpError} 415, 413, 408
   */
  async function textOf(r, operation, kind) {
    const { operationId } = operation;
    const content = operation.requestBody?.content ?? {};
    if (r.body) {
      const { type, present, declared } = r.body;
      if (kind === 'binary') {
        // `*/*` among them: production stores the bytes whatever the Content-Type (v0.8 upload)
        if (!content[type] && !content['*/*'])
          throw new HttpError(
            415,
            'UNSUPPORTED_MEDIA_TYPE_ERROR',
            `Content-Type must be ${Object.keys(content).join(' or ')} for ${operationId}, not "${type || 'none'}"`,
          );
        return undefined;
      }
      if (kind === 'json' && present && type !== 'application/json' && mediaKind(type) !== 'json')
        throw new HttpError(
          415,
          'UNSUPPORTED_MEDIA_TYPE_ERROR',
          `Content-Type must be application/json for ${operationId}, not "${type || 'none'}"`,
        );
      // refused on what it declares, before a byte of it is read
      if (declared > JSON_BODY_LIMIT) throw tooLarge(JSON_BODY_LIMIT);
      if (!present) return undefined;
      const bytes = await r.body.read({ limit: JSON_BODY_LIMIT, keep: kind === 'json' });
      return kind === 'json' ? bytes.toString('utf8') : undefined;
    }
    if (r.value === undefined) return undefined;
    const text = JSON.stringify(r.value);
    if (Buffer.byteLength(text) > JSON_BODY_LIMIT) throw tooLarge(JSON_BODY_LIMIT);
    return kind === 'json' ? text : undefined;
  }

  /**
   * A JSON operation's body from its text (textOf): parsed (a connection's) and within the depth limit.
   * @param {Incoming} r
   * @returns {any} undefined: none
   * @throws {HttpError} 400 (not JSON, too deep), or the API's validation status when a required body is missing
   */
  function parsedBody(r, operation, text, api) {
    const body = text === undefined ? undefined : r.body ? parseJson(text) : r.value;
    if (!r.body && deeperThan(body, JSON_DEPTH_LIMIT)) throw tooDeep();
    if (body === undefined && operation.requestBody?.required) throw requiredBody(api);
    return body;
  }

  /**
   * Runs one sub-request of a batch through the pipeline (already authenticated by the batch).
   * `path` may carry production's base path (`/api/nutanix/v3/...`), repeated slashes and no
   * leading slash.
   * @param {{ method: string, path: string, body?: any }} sub
   * @param {{ origin: string, gone: () => AbortSignal, idle: <T>(wait: () => Promise<T>) => Promise<T> }} from
   * @returns {Promise<{ status: number, json: Buffer[] }>} the status, and the answer or the API's
   *   error body as JSON text in pieces (none: no body)
   */
  async function dispatch(sub, from) {
    const target = router.targetOf(`/${sub.path}`.replace(/^\/+/, '/'));
    const answered = await run({
      method: sub.method.toLowerCase(),
      target: { ...target, pathname: target.pathname.replace(/^(\/oss)?\/api\/nutanix\//, '$1/api/svc/') },
      headers: { 'content-type': 'application/json' },
      origin: from.origin,
      gone: from.gone,
      idle: from.idle,
      value: sub.body,
    });
    answered.stream?.destroy();
    return { status: answered.status, json: piecesOf(answered) };
  }

  return {
    answer,
    /**
     * Holds new requests and resolves once those of the served APIs in flight are answered (the
     * control API's own are not waited for); `resume()` lets the held ones through.
     * @returns {{ drained: Promise<void>, resume: () => void }}
     */
    pause: () => gate.pause(),
    /** The error body of a request the connection answers itself (a parse error): the first API's words. */
    errorBody: (error) => apis[0].adapter.errorBody(error),
    /** What the pipeline's caches hold, in bytes (for the leak check). */
    cacheBytes: () => router.cacheBytes() + validator.cacheBytes() + answers.bytes(),
  };
}
