// Where a request goes: its target's parts, the API whose base path it names, and the operation
// the API's router (openapi-backend, from the bundle) matches, with its path parameters. Every
// result is a pure function of its input and the bundles, so each is remembered (bounded in bytes).
import { HTTP_METHODS } from '@svc/oas';
import { percentDecode } from '../decode.js';
import { HttpError } from '../errors.js';
import { URL_LIMIT } from '../limits.js';
import { boundedCache } from './cache.js';

/** Request targets up to this many bytes have their parts remembered (a polling client's are some 40). */
const REMEMBERED_TARGET = 512;
/** The bytes of remembered targets and routes, each (about 1,000 of each at their usual size). */
const ROUTE_CACHE_BYTES = 1024 * 1024;

/**
 * The parts of a request target (`/api/svc//v3/images?x=1`) as the pipeline reads them.
 * @typedef {object} Target
 * @property {string} pathname  percent-encoded, dot segments resolved (WHATWG URL), repeated slashes collapsed
 * @property {string} rawPathname  as WHATWG URL gives it, repeated slashes kept (files are served at exact paths)
 * @property {string} search    `?x=1`, or ''
 * @property {Readonly<Record<string, string | string[]>>} query  see queryOf (shared: never changed)
 */

/**
 * @typedef {object} Route  the operation a request names
 * @property {any} operation  the operation of the bundle (openapi-backend's)
 * @property {Readonly<Record<string, string>>} params  path parameters, percent-decoded
 * @property {'json' | 'binary' | 'none'} kind  what its request body is
 */

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

/**
 * @param {string} raw  a request target
 * @returns {Target}
 */
export function parseTarget(raw) {
  const url = new URL(raw, 'http://local');
  return {
    pathname: collapseSlashes(url.pathname),
    rawPathname: url.pathname,
    search: url.search,
    query: Object.freeze(queryOf(url.searchParams)),
  };
}

/**
 * What an operation's request body is: JSON, bytes (an upload, an archive: any other media type) or none.
 * @returns {'json' | 'binary' | 'none'}
 */
function bodyKind(operation) {
  const content = operation.requestBody?.content ?? {};
  const types = Object.keys(content);
  if (types.length === 0) return 'none';
  return content['application/json'] && !content['application/octet-stream'] ? 'json' : 'binary';
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

/**
 * The router of a set of APIs.
 * @param {any[]} apis  the loaded APIs (bundles.js), each with its adapter
 */
export function createRouter(apis) {
  const mounts = apis
    .flatMap((api) => api.basePaths.map((base) => ({ base, prefix: `${base}/`, api })))
    .sort((a, b) => b.base.length - a.base.length);
  /** @type {import('./cache.js').BoundedCache<Target>} */
  const targets = boundedCache({ maxBytes: ROUTE_CACHE_BYTES });
  /** @type {import('./cache.js').BoundedCache<Route | null>} */
  const routes = boundedCache({ maxBytes: ROUTE_CACHE_BYTES });

  return {
    /** The caches' bytes, for the leak check. */
    cacheBytes: () => targets.bytes() + routes.bytes(),

    /** @param {string} raw  not longer than URL_LIMIT @returns {Target} */
    targetOf(raw) {
      let target = targets.get(raw);
      if (!target) {
        target = parseTarget(raw);
        if (raw.length <= REMEMBERED_TARGET) targets.set(raw, target, raw.length * 3);
      }
      return target;
    },

    /** The mount (base path and API) a path is under, or undefined. */
    mountOf: (pathname) => mounts.find((m) => pathname === m.base || pathname.startsWith(m.prefix)),

    /** @param {string} pathname @returns {HttpError} 404 naming the base paths */
    noApiAt: (pathname) =>
      new HttpError(
        404,
        'ENTITY_NOT_FOUND',
        `No API is served at ${pathname}; the base paths are ${mounts.map((m) => m.base).join(', ')}`,
      ),

    /**
     * The operation a request names, its path parameters and the kind of its body.
     * @param {any} api
     * @param {{ method: string, path: string }} request
     * @returns {Route}
     * @throws {HttpError} 405 (with Allow) or 404 when there is none; 400 for a malformed escape in a path parameter
     */
    routeOf(api, request) {
      const key = `${api.name} ${request.method} ${request.path}`;
      let route = routes.get(key);
      if (route === undefined) {
        const operation = api.backend.router.matchOperation(request);
        // a malformed escape throws here, and is not remembered
        route = operation
          ? { operation, params: Object.freeze(pathParams(operation, request.path)), kind: bodyKind(operation) }
          : null;
        routes.set(key, route, 128);
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
    },
  };
}

export const urlTooLong = () =>
  new HttpError(414, 'INVALID_REQUEST', `The request target is longer than the limit of ${URL_LIMIT} bytes`);
