// The request pipeline, the same for every API: base path -> API, basic auth, faults, the one
// percent-decoding step, route and validation (from the bundle, through openapi-backend), the one
// body reader (size limit, depth limit), the operation's handler from the API's adapter, and the
// one error mapper. It never asks which API it serves: each adapter brings its error body and
// validation status.
import { timingSafeEqual } from 'node:crypto';
import { HTTP_METHODS, isReadOnly, mediaKind } from '@svc/oas';
import { percentDecode } from './decode.js';
import { DomainError } from './domain/errors.js';
import { HttpError, toHttpError } from './errors.js';

export { HttpError } from './errors.js';

/** Largest JSON request body read, in bytes (production's limit is not shown; 1 MiB is plenty for these APIs). */
export const JSON_BODY_LIMIT = 1024 * 1024;
/** Deepest JSON request body accepted (the deepest schema of the APIs is about 8 levels). */
export const JSON_DEPTH_LIMIT = 64;
/** Bytes of a refused body read and dropped before answering, so the client sees the answer, not a reset. */
const DRAIN_LIMIT = 256 * 1024 * 1024;

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
 * @property {import('node:http').IncomingMessage} req  the request (a binary body is read from it)
 * @property {string} origin       the origin the client used, e.g. `https://127.0.0.1:9440`
 * @property {string} user         the basic-auth user
 * @property {() => AbortSignal} gone  aborted when the client goes away (for long polls)
 * @property {(sub: { method: string, path: string, body?: any }) => Promise<{ status: number, body?: any }>} dispatch
 *   runs a sub-request of a batch through the same pipeline (already authenticated)
 */

/** The body production sends with a 401: an HTML page, not JSON. */
const UNAUTHORIZED_PAGE =
  '<html><head><title>Error 401 Unauthorized</title></head><body><h2>HTTP ERROR 401</h2></body></html>';

/** Answers JSON. */
export function sendJson(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

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

const tooLarge = () =>
  new HttpError(413, 'INVALID_REQUEST', `The request body is larger than the limit of ${JSON_BODY_LIMIT} bytes`);

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
 * The one body reader: a JSON body up to JSON_BODY_LIMIT bytes and JSON_DEPTH_LIMIT levels.
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<unknown>} the parsed body; undefined when empty
 * @throws {HttpError} 413 over the size limit; 400 when it is not JSON or nests too deep
 */
async function readJson(req) {
  if (Number(req.headers['content-length']) > JSON_BODY_LIMIT) throw tooLarge();
  // listeners, not `for await`: leaving that loop early would destroy the request, and the socket with it
  const chunks = await new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk) => {
      size += chunk.length;
      if (size <= JSON_BODY_LIMIT) return chunks.push(chunk);
      stop();
      req.pause();
      reject(tooLarge());
    };
    const onEnd = () => {
      stop();
      resolve(chunks);
    };
    const onError = (error) => {
      stop();
      reject(error);
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
  });
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  let body;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, 'INVALID_REQUEST', `The request body is not valid JSON: ${e.message}`);
  }
  if (deeperThan(body, JSON_DEPTH_LIMIT))
    throw new HttpError(400, 'INVALID_REQUEST', `The request body nests deeper than ${JSON_DEPTH_LIMIT} levels`);
  return body;
}

/**
 * Reads and drops what is left of a request body, up to DRAIN_LIMIT bytes, so that an answer sent
 * before the body was read reaches a client that writes its whole body first.
 * @returns {Promise<boolean>} true when the body was read to its end
 */
function drain(req) {
  if (req.readableEnded || req.destroyed) return Promise.resolve(req.readableEnded);
  return new Promise((resolve) => {
    let size = 0;
    const done = (ended) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      resolve(ended);
    };
    const onData = (chunk) => {
      size += chunk.length;
      if (size > DRAIN_LIMIT) {
        req.pause();
        done(false);
      }
    };
    const onEnd = () => done(true);
    const onClose = () => done(req.readableEnded);
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('close', onClose);
    req.resume();
  });
}

const mediaType = (header) => (header ?? '').split(';')[0].trim().toLowerCase();
/** `/api/svc//v3/batch` -> `/api/svc/v3/batch`, as production's gateway reads it. */
const collapseSlashes = (pathname) => pathname.replace(/\/{2,}/g, '/');
/** The query as an object; a repeated key (`entityUuids=a&entityUuids=b`, form style) becomes an array. */
/**
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

/**
 * Makes the request listener.
 * @param {object} o
 * @param {(import('./bundles.js').LoadedApi & { adapter: import('./apis/index.js').Adapter })[]} o.apis
 * @param {import('./domain/index.js').Domain} o.domain
 * @param {string} o.user
 * @param {string} o.password
 * @param {import('./faults.js').Faults} o.faults
 * @param {string[]} o.secrets  never echoed in an answer (the data directory, the password)
 * @param {Record<string, { type: string, bytes: Buffer }>} [o.files]  path -> a file served without
 *   authentication (GET and HEAD), e.g. the sample image
 * @param {(api: string, operationId: string, status: number, body: any) => any} [o.tamper]
 *   changes a JSON answer before it is sent (tests of the contract check only)
 * @returns {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void}
 */
export function createListener({ apis, domain, user, password, faults, secrets, files = {}, tamper }) {
  const mounts = apis
    .flatMap((api) => api.basePaths.map((base) => ({ base, api })))
    .sort((a, b) => b.base.length - a.base.length);
  const expected = Buffer.from(Buffer.from(`${user}:${password}`).toString('base64'));

  /** RFC 9110: the scheme is case-insensitive; the credentials are compared in constant time. */
  function authorized(header) {
    const match = /^(\S+)\s+(\S+)\s*$/.exec(header ?? '');
    if (match?.[1].toLowerCase() !== 'basic') return false;
    const given = Buffer.from(match[2]);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The answer to an error: the API's words for the domain's, the one mapper for anything else. */
  const answerOf = (error, api) =>
    error instanceof DomainError ? (api ?? apis[0]).adapter.mapError(error) : toHttpError(error, secrets);

  const mountOf = (pathname) => mounts.find((m) => pathname === m.base || pathname.startsWith(`${m.base}/`));
  const noApiAt = (pathname) =>
    new HttpError(
      404,
      'ENTITY_NOT_FOUND',
      `No API is served at ${pathname}; the base paths are ${mounts.map((m) => m.base).join(', ')}`,
    );

  /** The operation a request names; 405 (with Allow) or 404 when there is none. */
  function operationOf(api, request) {
    const operation = api.backend.router.matchOperation(request);
    if (operation) return operation;
    const allowed = HTTP_METHODS.filter((m) => api.backend.router.matchOperation({ ...request, method: m }));
    throw allowed.length
      ? new HttpError(
          405,
          'INVALID_REQUEST',
          `${request.method.toUpperCase()} is not an operation of ${request.path}`,
          undefined,
          {
            allow: allowed.map((m) => m.toUpperCase()).join(', '),
          },
        )
      : new HttpError(404, 'ENTITY_NOT_FOUND', `No operation at ${request.path}`);
  }

  /**
   * Runs one sub-request of a batch through the same routing, validation and handlers as a
   * direct call (already authenticated by the batch). `path` may carry production's base path
   * (`/api/nutanix/v3/...`), repeated slashes and no leading slash.
   * @param {{ method: string, path: string, body?: any }} sub
   * @param {{ origin: string, gone: () => AbortSignal }} from  the batch request's
   * @returns {Promise<{ status: number, body?: any }>} the answer, or the API's error body
   */
  async function dispatch(sub, from) {
    const url = new URL(`/${sub.path}`.replace(/^\/+/, '/'), 'http://local');
    const pathname = collapseSlashes(url.pathname).replace(/^(\/oss)?\/api\/nutanix\//, '$1/api/svc/');
    const method = sub.method.toLowerCase();
    let api;
    let operationId;
    try {
      const mount = mountOf(pathname);
      if (!mount) throw noApiAt(pathname);
      api = mount.api;
      const path = pathname.slice(mount.base.length) || '/';
      const headers = { 'content-type': 'application/json' };
      const request = { method, path, headers, query: queryOf(url.searchParams) };
      const operation = operationOf(api, request);
      operationId = operation.operationId;
      const content = operation.requestBody?.content ?? {};
      if (!content['application/json'] && operation.requestBody)
        throw new HttpError(400, 'INVALID_REQUEST', `${operationId} takes a binary body and cannot be part of a batch`);
      if (operationId === 'batch_create') throw new HttpError(400, 'INVALID_REQUEST', 'a batch cannot contain a batch');
      const body = sub.body;
      if (body === undefined && operation.requestBody?.required)
        throw validationError(api.adapter.validationStatus, [
          { instancePath: '/requestBody', keyword: 'required', params: {}, message: 'a JSON request body is required' },
        ]);
      const result = api.backend.validator.validateRequest(/** @type {any} */ ({ ...request, body }), operation);
      if (!result.valid) throw validationError(api.adapter.validationStatus, result.errors ?? []);
      const handler = api.adapter.handlers[operationId];
      if (!handler) throw new HttpError(501, 'INTERNAL_ERROR', `${operationId} is not simulated yet`);
      const answer = await handler({
        domain,
        api,
        operation,
        operationId,
        params: pathParams(operation, path),
        query: request.query,
        headers,
        body,
        req: undefined,
        origin: from.origin,
        user,
        gone: from.gone,
        dispatch: () => {
          throw new HttpError(400, 'INVALID_REQUEST', 'a batch cannot contain a batch');
        },
      });
      if (answer.stream) answer.stream.destroy?.();
      return { status: answer.status, body: answer.json !== undefined ? JSON.parse(answer.json) : answer.body };
    } catch (error) {
      const known = answerOf(error, api);
      return { status: known.status, body: (api ?? apis[0]).adapter.errorBody(known, operationId) };
    }
  }

  async function handle(req, res) {
    const url = new URL(req.url ?? '/', 'http://local');
    const method = (req.method ?? 'GET').toLowerCase();
    /** @type {any} */
    let api;
    let operationId;
    try {
      const file = files[url.pathname];
      if (file && (method === 'get' || method === 'head')) {
        req.resume();
        res.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length });
        res.end(method === 'head' ? undefined : file.bytes);
        return;
      }
      // production's gateway collapses repeated slashes (`/api/svc//v3/batch`); so does the route
      const pathname = collapseSlashes(url.pathname);
      const mount = mountOf(pathname);
      if (!authorized(req.headers.authorization)) {
        await drain(req);
        // the API's own 401 (the v3 gateway's JSON body; the element API's HTML page)
        const page = (mount?.api.adapter.unauthorized ?? unauthorizedPage)();
        res.writeHead(401, {
          'content-type': page.type,
          'content-length': Buffer.byteLength(page.body),
          'www-authenticate': 'Basic realm="Intent Gateway Login Required"',
        });
        res.end(page.body);
        return;
      }
      if (!mount) throw noApiAt(pathname);
      api = mount.api;
      const path = pathname.slice(mount.base.length) || '/';
      // a repeated key (`entityUuids=a&entityUuids=b`, form style) becomes an array
      const query = queryOf(url.searchParams);
      const request = { method, path, headers: req.headers, query };
      const operation = operationOf(api, request);
      operationId = operation.operationId;
      const params = pathParams(operation, path);
      await faults.delay();
      // only calls that clients retry (GET/HEAD and x-svc-idempotent POSTs) get the 503/429 faults
      if (isReadOnly({ method, operation })) {
        const fault = faults.httpFault();
        if (fault)
          throw new HttpError(fault.status, fault.reason, fault.message, undefined, {
            'retry-after': String(fault.retryAfterSeconds),
          });
      }
      const content = operation.requestBody?.content ?? {};
      const type = mediaType(req.headers['content-type']);
      let body;
      const headers = { ...req.headers };
      if (content['application/octet-stream']) {
        // `*/*` next to it: production stores the bytes whatever the Content-Type (v0.8 upload)
        if (type !== 'application/octet-stream' && !content['*/*'])
          throw new HttpError(
            415,
            'UNSUPPORTED_MEDIA_TYPE_ERROR',
            `Content-Type must be application/octet-stream for ${operationId}, not "${type || 'none'}"`,
          );
      } else if (content['application/json']) {
        const hasBody =
          Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
        if (hasBody && mediaKind(type) !== 'json')
          throw new HttpError(
            415,
            'UNSUPPORTED_MEDIA_TYPE_ERROR',
            `Content-Type must be application/json for ${operationId}, not "${type || 'none'}"`,
          );
        body = await readJson(req);
        // the validator checks a body only under exactly this media type (a charset would skip it)
        headers['content-type'] = 'application/json';
        if (body === undefined && operation.requestBody?.required)
          throw validationError(api.adapter.validationStatus, [
            {
              instancePath: '/requestBody',
              keyword: 'required',
              params: {},
              message: 'a JSON request body is required',
            },
          ]);
      } else {
        await drain(req);
      }
      const result = api.backend.validator.validateRequest({ ...request, headers, body }, operation);
      if (!result.valid) throw validationError(api.adapter.validationStatus, result.errors ?? []);
      const handler = api.adapter.handlers[operationId];
      if (!handler) throw new HttpError(501, 'INTERNAL_ERROR', `${operationId} is not simulated yet`);
      let gone;
      const answer = await handler({
        domain,
        api,
        operation,
        operationId,
        params,
        query,
        headers: req.headers,
        body,
        req,
        origin: originOf(req),
        user,
        gone: () => (gone ??= goneSignal(req, res)),
        dispatch: (sub) => dispatch(sub, { origin: originOf(req), gone: () => (gone ??= goneSignal(req, res)) }),
      });
      if (res.destroyed) return; // the client went away while the handler waited
      if (answer.stream) {
        res.writeHead(answer.status, answer.headers);
        answer.stream.pipe(res);
        return;
      }
      if (answer.json !== undefined && !tamper) {
        res.writeHead(answer.status, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(answer.json),
        });
        res.end(answer.json);
        return;
      }
      if (answer.json !== undefined) answer.body = JSON.parse(answer.json);
      if (answer.body === undefined) {
        res.writeHead(answer.status, { 'content-length': 0, ...answer.headers });
        res.end();
        return;
      }
      const sent = tamper ? tamper(api.name, operationId, answer.status, answer.body) : answer.body;
      sendJson(res, answer.status, sent, answer.headers);
    } catch (error) {
      if (req.socket?.destroyed !== false || res.destroyed) return; // the client went away: nobody to answer
      const known = answerOf(error, api);
      if (!(error instanceof HttpError) && known.status === 500)
        console.error(`simulator: ${operationId ?? 'request'}: ${known.message}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // an answer before the body was read: read the rest first, so the client sees the answer
      const drained = await drain(req);
      if (res.destroyed) return;
      const bodyOf = (api ?? apis[0]).adapter.errorBody;
      sendJson(res, known.status, bodyOf(known, operationId), {
        ...known.headers,
        ...(drained ? {} : { connection: 'close' }),
      });
    }
  }

  return (req, res) => {
    handle(req, res).catch((error) => {
      console.error(`simulator: unhandled: ${toHttpError(error, secrets).message}`);
      res.destroy();
    });
  };
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
