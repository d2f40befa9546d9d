import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './generated/central.js';
import { isBinaryBody } from './binary.js';
import { basicAuth, checkOptions, type ClientOptions } from './options.js';

/** Paths of the central v3 API (`/api/svc/v3`), as generated from `dist/central.json`. */
export type CentralPaths = paths;
/** Operations of the central v3 API keyed by operationId (`images_create`, `tasks_get`, ...). */
export type CentralOperations = operations;
/** Schemas of the central v3 API (`ImageIntentInput`, `Task`, `ErrorResponse`, ...). */
export type CentralSchemas = components['schemas'];
/** A typed openapi-fetch client of the central v3 API. */
export type CentralClient = Client<paths>;

/** Serializes JSON bodies; binary bodies (uploads) pass through untouched. */
export function bodySerializer(body: unknown): BodyInit {
  return isBinaryBody(body) ? (body as BodyInit) : JSON.stringify(body);
}

/**
 * Creates a client of the central endpoint's v3 API (images and tasks) with basic auth.
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
  const baseUrl = checkOptions(options);
  const client = createClient<paths>({
    baseUrl,
    bodySerializer,
    headers: { Accept: 'application/json' },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  client.use(basicAuth(options.username, options.password));
  return client;
}
