// The part every API client shares: options checked, the transport, basic auth, the printable label.
import createClient, { type Client, createQuerySerializer } from 'openapi-fetch';
import { isBinaryBody } from './binary.js';
import { parseJsonAnswer } from './body.js';
import { InvalidArgumentError } from './errors.js';
import { type ApiName, serverBasePaths } from './generated/operations.js';
import { basicAuthHeader, type ClientOptions, checkOptions } from './options.js';
import { ClientRequest, OPERATION } from './request.js';
import { createDispatcher, createTransport, lookup, operationTagger } from './transport.js';

/** Serializes JSON bodies; binary bodies (uploads) pass through untouched. */
export function bodySerializer(body: unknown): BodyInit {
  return isBinaryBody(body) ? (body as BodyInit) : JSON.stringify(body);
}

const NAMES: Record<ApiName, string> = { central: 'CentralClient', element: 'ElementClient', objects: 'ObjectsClient' };

type FetchFn = (input: Request) => Promise<Response>;

/** Options of uploads. The client's `timeoutMs` bounds only the wait for the answer after the last byte. */
export interface UploadOptions {
  /** Total time limit for sending the bytes and getting the answer, in milliseconds; default none. */
  timeoutMs?: number;
  /** Aborts the upload. */
  signal?: AbortSignal;
}

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;
type Init = { parseAs?: string; [OPERATION]?: unknown };
type Call = (path: string, init?: Init) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * Wraps the client's methods: each call carries its spec operation (from the method and the path
 * template it names) to the transport in its init, and success bodies are parsed here rather than
 * in openapi-fetch, so that a body that is not JSON, or empty where the spec declares one, fails
 * with InvalidResponseError naming the operation and the status (openapi-fetch would throw a bare
 * SyntaxError, or resolve to undefined). A call that sets `parseAs` itself reads the body its way.
 */
function wrapMethods(api: ApiName, client: Client<{}>): void {
  const methods = client as unknown as Record<(typeof METHODS)[number], Call> & {
    request: (method: string, path: string, init?: Init) => ReturnType<Call>;
  };
  const send = (call: Call, method: string, path: string, init: Init | undefined) => {
    const found = lookup(api, method, path);
    if (init?.parseAs !== undefined) return call(path, { ...init, [OPERATION]: found });
    const op = found?.op ?? { api, method, path, operationId: undefined };
    return call(path, { ...init, parseAs: 'text', [OPERATION]: found }).then((result) =>
      parseJsonAnswer(result, op, found?.json ?? false),
    );
  };
  for (const method of METHODS) {
    const call = methods[method];
    methods[method] = (path, init) => send(call, method, path, init);
  }
  const request = methods.request;
  methods.request = (method, path, init) => {
    const m = method.toUpperCase();
    return send((p, i) => request(m, p, i), m, path, init);
  };
}

/** What an API client module builds its workflows on (internal). */
export interface Core<Paths extends {}> {
  client: Client<Paths>;
  /** The fetch of uploads (given per call, so the client's middleware still runs): a total time limit when given (0: none). */
  uploadFetch: (timeoutMs: number | undefined) => FetchFn;
}

/**
 * Builds the openapi-fetch client of one API.
 * @throws {ClientOptionsError} when an option is missing or malformed
 */
export function createCore<Paths extends {}>(api: ApiName, options: ClientOptions): Core<Paths> {
  const resolved = checkOptions(options, serverBasePaths[api]);
  // Without TLS options or a time limit, Node's own dispatcher does: an npm undici Agent under
  // Node 20's fetch costs ~10% of a loopback call (see the benchmark).
  const dispatcher =
    resolved.tls.insecure || resolved.tls.ca || resolved.ownTimeout
      ? createDispatcher(resolved.tls, resolved.timeoutMs)
      : undefined;
  const basePath = new URL(resolved.baseUrl).pathname.replace(/\/+$/, '');
  // signalTimeoutMs: an injected fetch may ignore the dispatcher, so it gets a timer; uploads get one only when asked.
  const transport = (signalTimeoutMs: number) =>
    createTransport({
      api,
      basePath,
      dispatcher,
      injected: options.fetch,
      timeoutMs: resolved.timeoutMs,
      signalTimeoutMs,
      retry: resolved.retry,
      signal: options.signal,
      maxResponseBytes: resolved.maxResponseBytes,
    }) as FetchFn;
  const client = createClient<Paths>({
    baseUrl: resolved.baseUrl,
    bodySerializer,
    // Built once: given options, openapi-fetch would build a serializer on every call.
    querySerializer: createQuerySerializer(),
    // Kept in openapi-fetch's closure: never on an enumerable property of the client.
    headers: { Accept: 'application/json', Authorization: basicAuthHeader(options.username, options.password) },
    fetch: transport(options.fetch && resolved.ownTimeout ? resolved.timeoutMs : 0),
    Request: ClientRequest as unknown as typeof Request,
  });
  // Each call names its operation itself (wrapMethods); middleware may replace the request, so
  // when there is any, a tagger kept last names it again from openapi-fetch's schemaPath. Without
  // middleware openapi-fetch skips its middleware pass: basic auth is a default header.
  const tag = operationTagger(api);
  const use = client.use.bind(client);
  client.use = (...middleware) => {
    client.eject(tag);
    use(...middleware, tag);
  };
  if (options.middleware?.length) client.use(...options.middleware);
  wrapMethods(api, client);
  // Printing a client shows where it points, never its credentials.
  const label = `${NAMES[api]} <${resolved.baseUrl}>`;
  Object.defineProperties(client, {
    toString: { value: () => label, enumerable: false },
    toJSON: { value: () => ({ client: NAMES[api], baseUrl: resolved.baseUrl }), enumerable: false },
    [Symbol.for('nodejs.util.inspect.custom')]: { value: () => label, enumerable: false },
  });
  const uploadFetches = new Map<number, FetchFn>();
  return {
    client,
    uploadFetch(timeoutMs = 0) {
      if (!(typeof timeoutMs === 'number' && timeoutMs >= 0))
        throw new InvalidArgumentError(
          'timeoutMs',
          `must be a number of milliseconds; got ${JSON.stringify(timeoutMs)}`,
        );
      let f = uploadFetches.get(timeoutMs);
      if (!f) {
        f = transport(timeoutMs);
        uploadFetches.set(timeoutMs, f);
      }
      return f;
    },
  };
}
