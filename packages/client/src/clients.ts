import createClient, { type Client } from 'openapi-fetch';
import type { components as centralComponents, operations as centralOperations, paths as centralPaths } from './generated/central.js';
import type { components as elementComponents, operations as elementOperations, paths as elementPaths } from './generated/element.js';
import type { components as objectsComponents, operations as objectsOperations, paths as objectsPaths } from './generated/objects.js';
import { isBinaryBody } from './binary.js';
import { basicAuth, checkOptions, type ClientOptions } from './options.js';

/** Paths of the central v3 API (`/api/svc/v3`), as generated from `dist/central.json`. */
export type CentralPaths = centralPaths;
/** Operations of the central v3 API keyed by operationId (`images_create`, `tasks_get`, ...). */
export type CentralOperations = centralOperations;
/** Schemas of the central v3 API (`ImageIntentInput`, `Task`, `ErrorResponse`, ...). */
export type CentralSchemas = centralComponents['schemas'];
/** A typed openapi-fetch client of the central v3 API. */
export type CentralClient = Client<centralPaths>;

/** Paths of the element-level API (`/v0.8/...`, `/v2.0/...`), from `dist/element.json`. */
export type ElementPaths = elementPaths;
/** Operations of the element-level API keyed by operationId (`images_upload_v0_8`, ...). */
export type ElementOperations = elementOperations;
/** Schemas of the element-level API. */
export type ElementSchemas = elementComponents['schemas'];
/** A typed openapi-fetch client of the element-level API (v0.8 and v2.0). */
export type ElementClient = Client<elementPaths>;

/** Paths of the object store API (`/oss/api/svc/v3`), from `dist/objects.json`. */
export type ObjectsPaths = objectsPaths;
/** Operations of the object store API keyed by operationId (`objectstores_create`, ...). */
export type ObjectsOperations = objectsOperations;
/** Schemas of the object store API. */
export type ObjectsSchemas = objectsComponents['schemas'];
/** A typed openapi-fetch client of the object store API. */
export type ObjectsClient = Client<objectsPaths>;

/** Serializes JSON bodies; binary bodies (uploads) pass through untouched. */
export function bodySerializer(body: unknown): BodyInit {
  return isBinaryBody(body) ? (body as BodyInit) : JSON.stringify(body);
}

function create<Paths extends {}>(options: ClientOptions): Client<Paths> {
  const baseUrl = checkOptions(options);
  const client = createClient<Paths>({
    baseUrl,
    bodySerializer,
    headers: { Accept: 'application/json' },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  client.use(basicAuth(options.username, options.password));
  return client;
}

/**
 * Creates a client of the central endpoint's v3 API (images, tasks, clusters, subnets) with
 * basic auth.
 *
 * Every call is typed from the spec: `client.POST('/images/list', { body: { kind: 'image' } })`
 * resolves to `{ data, error, response }`, with `data` the 2xx body and `error` the
 * declared error body (`ErrorResponse`, or the text of a 401). Binary uploads
 * (`PUT /images/{uuid}/file`) take a Blob, bytes or a stream as `body` and need
 * `headers: { 'Content-Type': 'application/octet-stream' }`.
 *
 * @param options `baseUrl` including `/api/svc/v3` (e.g. `https://pc:9440/api/svc/v3`),
 *   `username`, `password`, and optionally `fetch`.
 * @throws {ClientOptionsError} when an option is missing or malformed (names the option).
 */
export function createCentralClient(options: ClientOptions): CentralClient {
  return create<centralPaths>(options);
}

/**
 * Creates a client of the element-level endpoint's v0.8 and v2.0 APIs with basic auth.
 * Paths carry the version (`/v0.8/images`, `/v2.0/storage_containers`).
 *
 * @param options `baseUrl` of either interchangeable base: `https://pe:9440/api/svc`
 *   (preferred) or `https://pe:9440/PrismGateway/services/rest`; `username`, `password`,
 *   optionally `fetch`. The v0.8 upload (`PUT /v0.8/images/{uuid}/upload`) takes a binary
 *   `body` and `headers: { 'Content-Type': 'application/octet-stream' }`.
 * @throws {ClientOptionsError} when an option is missing or malformed (names the option).
 */
export function createElementClient(options: ClientOptions): ElementClient {
  return create<elementPaths>(options);
}

/**
 * Creates a client of the object store API with basic auth (the central endpoint's
 * credentials).
 *
 * @param options `baseUrl` including `/oss/api/svc/v3` (e.g. `https://pc:9440/oss/api/svc/v3`),
 *   `username`, `password`, optionally `fetch`.
 * @throws {ClientOptionsError} when an option is missing or malformed (names the option).
 */
export function createObjectsClient(options: ClientOptions): ObjectsClient {
  return create<objectsPaths>(options);
}
