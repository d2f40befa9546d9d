// The request pipeline: base path -> API, basic auth, faults, route and validation (from the
// bundle, through openapi-backend), body parsing, the operation's handler, production's error bodies.
import { timingSafeEqual } from 'node:crypto';
import { isReadOnly, mediaKind } from '@svc/oas';

/** Largest JSON request body read, in bytes (production's limit is not shown; 1 MiB is plenty for these APIs). */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** An error answer: the HTTP status, the v3 `reason`, and a message naming the field or entity. */
export class HttpError extends Error {
  /**
   * @param {number} status  HTTP status
   * @param {string} reason  v3 `message_list[].reason`, e.g. `ENTITY_NOT_FOUND`
   * @param {string} message human-readable, names the field or the entity
   * @param {Record<string, string>} [details] field -> rule, for validation errors
   * @param {Record<string, string>} [headers] extra response headers
   */
  constructor(status, reason, message, details, headers) {
    super(message);
    this.status = status;
    this.reason = reason;
    this.details = details;
    this.headers = headers;
  }
}

/** The body production sends with a 401: an HTML page, not JSON. */
const UNAUTHORIZED_PAGE =
  '<html><head><title>Error 401 Unauthorized</title></head><body><h2>HTTP ERROR 401</h2></body></html>';

/** Entity kind of an operation for the v3 error body's `kind`: `images_get` -> `image`. */
function kindOf(operationId) {
  const family = (operationId ?? '').split('_')[0];
  return (
    {
      images: 'image',
      tasks: 'task',
      objectstores: 'objectstore',
      groups: 'group',
      clusters: 'cluster',
      subnets: 'subnet',
      services: 'service',
    }[family] ?? 'error'
  );
}

/** Answers JSON. */
export function sendJson(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * Production's error body for an API: the v3 body (`api_version`, `code`, `kind`, `message_list`,
 * `state: ERROR`) for central and objects, `{ message }` for the element-level API.
 */
function errorBody(api, operationId, error) {
  if (api?.name === 'element') return { message: error.message };
  const message = { message: error.message, reason: error.reason };
  if (error.details) message.details = error.details;
  return {
    api_version: api?.name === 'objects' ? '3.0' : '3.1',
    code: error.status,
    kind: kindOf(operationId),
    message_list: [message],
    state: 'ERROR',
  };
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

/** Validation errors -> one 422 (v3) / 400 (element) naming every field and its rule. */
function validationError(api, errors) {
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
  return api.name === 'element'
    ? new HttpError(400, 'INVALID_REQUEST', `Request could not be processed: ${text}`)
    : new HttpError(422, 'INVALID_REQUEST', `Request could not be processed: ${text}`, details);
}

/** Reads a JSON body up to JSON_BODY_LIMIT bytes; undefined when empty. */
async function readJson(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > JSON_BODY_LIMIT)
      throw new HttpError(413, 'INVALID_REQUEST', `The request body is larger than ${JSON_BODY_LIMIT} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, 'INVALID_REQUEST', `The request body is not valid JSON: ${e.message}`);
  }
}

const mediaType = (header) => (header ?? '').split(';')[0].trim().toLowerCase();

/**
 * Makes the request listener.
 * @param {object} o
 * @param {import('./apis.js').LoadedApi[]} o.apis
 * @param {string} o.user
 * @param {string} o.password
 * @param {Record<string, (ctx: any) => Promise<any>>} o.handlers  operationId -> handler
 * @param {import('./faults.js').Faults} o.faults
 * @param {(api: string, operationId: string, status: number, body: any) => any} [o.tamper]
 *   changes a JSON answer before it is sent (tests of the contract check only)
 * @returns {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void}
 */
export function createListener({ apis, user, password, handlers, faults, tamper }) {
  const mounts = apis
    .flatMap((api) => api.basePaths.map((base) => ({ base, api })))
    .sort((a, b) => b.base.length - a.base.length);
  const expected = Buffer.from(`Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`);

  function authorized(header) {
    const given = Buffer.from(header ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  async function handle(req, res) {
    const url = new URL(req.url ?? '/', 'http://local');
    const method = (req.method ?? 'GET').toLowerCase();
    let api;
    let operationId;
    try {
      const mount = mounts.find((m) => url.pathname === m.base || url.pathname.startsWith(`${m.base}/`));
      if (!authorized(req.headers.authorization)) {
        req.resume();
        res.writeHead(401, {
          'content-type': 'text/html;charset=utf-8',
          'www-authenticate': 'Basic realm="Intent Gateway Login Required"',
        });
        res.end(UNAUTHORIZED_PAGE);
        return;
      }
      if (!mount)
        throw new HttpError(
          404,
          'ENTITY_NOT_FOUND',
          `No API is served at ${url.pathname}; the base paths are ${mounts.map((m) => m.base).join(', ')}`,
        );
      api = mount.api;
      const path = url.pathname.slice(mount.base.length) || '/';
      // a repeated key (`entityUuids=a&entityUuids=b`, form style) becomes an array
      const query = {};
      for (const [key, value] of url.searchParams) query[key] = key in query ? [query[key], value].flat() : value;
      const request = { method, path, headers: req.headers, query };
      const operation = api.backend.router.matchOperation(request);
      if (!operation) {
        const anyMethod = ['get', 'post', 'put', 'delete'].some((m) =>
          api.backend.router.matchOperation({ ...request, method: m }),
        );
        throw anyMethod
          ? new HttpError(405, 'INVALID_REQUEST', `${method.toUpperCase()} is not an operation of ${path}`)
          : new HttpError(404, 'ENTITY_NOT_FOUND', `No operation at ${path}`);
      }
      operationId = operation.operationId;
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
      if (content['application/octet-stream']) {
        if (type !== 'application/octet-stream') {
          req.resume();
          throw new HttpError(
            415,
            'UNSUPPORTED_MEDIA_TYPE_ERROR',
            `Content-Type must be application/octet-stream for ${operationId}, not "${type || 'none'}"`,
          );
        }
      } else if (content['application/json']) {
        const hasBody =
          Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
        if (hasBody && mediaKind(type) !== 'json') {
          req.resume();
          throw new HttpError(
            415,
            'UNSUPPORTED_MEDIA_TYPE_ERROR',
            `Content-Type must be application/json for ${operationId}, not "${type || 'none'}"`,
          );
        }
        body = await readJson(req);
        if (body === undefined && operation.requestBody?.required) {
          throw validationError(api, [
            {
              instancePath: '/requestBody',
              keyword: 'required',
              params: {},
              message: 'a JSON request body is required',
            },
          ]);
        }
      } else {
        req.resume();
      }
      const validated = { ...request, body };
      const result = api.backend.validator.validateRequest(validated, operation);
      if (!result.valid) throw validationError(api, result.errors ?? []);
      const handler = handlers[operationId];
      if (!handler) throw new HttpError(501, 'INTERNAL_ERROR', `${operationId} is not simulated yet`);
      const answer = await handler({
        api,
        operation,
        operationId,
        params: pathParams(operation, path),
        query,
        headers: req.headers,
        body,
        req,
        res,
        origin: originOf(req),
      });
      if (!answer) return; // the handler streamed its answer
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
      if (req.socket.destroyed) return; // the client went away (an upload cut off): nobody to answer
      const known =
        error instanceof HttpError
          ? error
          : new HttpError(500, 'INTERNAL_ERROR', `Internal error: ${error?.message ?? error}`);
      if (!(error instanceof HttpError)) console.error(`simulator: ${operationId ?? url.pathname}:`, error);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // an error before the body was read: drain it so the client sees the answer
      if (!req.readableEnded) req.resume();
      sendJson(res, known.status, errorBody(api, operationId, known), {
        ...known.headers,
        ...(req.readableEnded ? {} : { connection: 'close' }),
      });
    }
  }

  return (req, res) => {
    handle(req, res).catch((error) => {
      console.error('simulator: unhandled', error);
      res.destroy();
    });
  };
}

const templates = new WeakMap();
/** The path parameters of a matched operation (`/images/{uuid}` on `/images/ab-12` -> `{ uuid: 'ab-12' }`). */
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
  return Object.fromEntries(template.names.map((name, i) => [name, decodeURIComponent(match?.[i + 1] ?? '')]));
}

/** The origin the client used (for `retrieval_uri_list`). */
function originOf(req) {
  const scheme = req.socket.encrypted ? 'https' : 'http';
  return `${scheme}://${req.headers.host ?? 'localhost'}`;
}
