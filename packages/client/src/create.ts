// The part every API client shares, built on openapi-fetch's own seams: the options resolved once,
// basic auth as a default header, the transport as `fetch`, the undici Agent as `requestInitExt`
// (what an injected fetch is handed), and the middleware that names operations, retries and types
// errors. openapi-fetch's client is returned as it is, with a printable label.
import createClient, { type Client, createQuerySerializer } from 'openapi-fetch';
import { type BinaryBody, isBinaryBody } from './binary.js';
import { InvalidArgumentError } from './errors.js';
import { type ApiName, serverBasePaths } from './generated/operations.js';
import { coreMiddleware } from './middleware.js';
import { type ClientOptions, resolveOptions } from './options.js';
import { createDispatchers, createTransport, type FetchFn } from './transport.js';

/** Serializes JSON bodies; binary bodies (uploads) pass through untouched. */
export function bodySerializer(body: unknown): BodyInit {
  return isBinaryBody(body) ? (body as BodyInit) : JSON.stringify(body);
}

const NAMES: Record<ApiName, string> = {
  central: 'CentralClient',
  element: 'ElementClient',
  objects: 'ObjectsClient',
  control: 'ControlClient',
};

/** Options of uploads. The client's `timeoutMs` bounds only the wait for the answer after the last byte. */
export interface UploadOptions {
  /** Total time limit for sending the bytes and getting the answer, in milliseconds; default none. */
  timeoutMs?: number;
  /** Aborts the upload. */
  signal?: AbortSignal;
}

/** What an API client module builds its workflows on (internal). */
export interface Core<Paths extends {}> {
  client: Client<Paths>;
  /**
   * The fetch of an upload of `body` (given per call, so the client's middleware still runs): a
   * total time limit when given (0: none).
   * @throws {InvalidArgumentError} when `timeoutMs` is not a number of milliseconds >= 0
   */
  uploadFetch: (timeoutMs: number | undefined, body: BinaryBody) => FetchFn;
}

/**
 * Builds the openapi-fetch client of one API.
 * @throws {ClientOptionsError} when an option is missing or malformed
 */
export function createCore<Paths extends {}>(api: ApiName, options: ClientOptions): Core<Paths> {
  const resolved = resolveOptions(options, serverBasePaths[api]);
  const { tls, timeoutMs, ownTimeout } = resolved;
  const own = tls.insecure || tls.ca !== undefined || ownTimeout;
  const dispatchers = createDispatchers(tls, timeoutMs, own);
  const ext = dispatchers.agent ? { dispatcher: dispatchers.agent } : undefined;
  // timerMs: an injected fetch may ignore the dispatcher, so it gets a timer; uploads get one only when asked.
  const transport = (timerMs: number, streamed = false) =>
    createTransport({ dispatchers, injected: resolved.fetch, timerMs, signal: resolved.signal, streamed });
  const fetch = transport(resolved.fetch && ownTimeout ? timeoutMs : 0);
  const client = createClient<Paths>({
    baseUrl: resolved.baseUrl,
    bodySerializer,
    // Built once: given options, openapi-fetch would build a serializer on every call.
    querySerializer: createQuerySerializer(),
    // Kept in openapi-fetch's closure: never on an enumerable property of the client.
    headers: { Accept: 'application/json', Authorization: resolved.authorization },
    fetch,
    requestInitExt: ext,
    // Part of every Request openapi-fetch builds: a stream body (an upload) needs it.
    ...({ duplex: 'half' } as object),
  });
  // First, so that its onResponse and onError run last, on what the user's middleware made of the answer.
  client.use(coreMiddleware({ api, options: resolved, fetch, ext: ext as RequestInit }), ...resolved.middleware);
  // Printing a client shows where it points, never its credentials.
  const label = `${NAMES[api]} <${resolved.baseUrl}>`;
  Object.defineProperties(client, {
    toString: { value: () => label, enumerable: false },
    toJSON: { value: () => ({ client: NAMES[api], baseUrl: resolved.baseUrl }), enumerable: false },
    [Symbol.for('nodejs.util.inspect.custom')]: { value: () => label, enumerable: false },
  });
  return {
    client,
    uploadFetch(timeoutMs = 0, body) {
      if (!(typeof timeoutMs === 'number' && timeoutMs >= 0))
        throw new InvalidArgumentError(
          'timeoutMs',
          `must be a number of milliseconds; got ${JSON.stringify(timeoutMs)}`,
        );
      return transport(timeoutMs, body instanceof ReadableStream);
    },
  };
}
