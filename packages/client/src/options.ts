import type { Middleware } from 'openapi-fetch';

/** Retry policy of read-only calls (GET, HEAD, and POSTs the spec marks `x-svc-idempotent`: lists, polls). Creates, updates, deletes and uploads are never retried. */
export interface RetryOptions {
  /** Retries after the first attempt; default 3. 0 turns retries off. */
  retries?: number;
  /** First backoff delay in milliseconds, doubled on every retry; default 200. */
  minDelayMs?: number;
  /** Upper bound of one backoff delay, and of a server's `Retry-After`, in milliseconds; default 10 000. */
  maxDelayMs?: number;
}

/** Options every client takes, whichever way the address is given. */
export interface CommonClientOptions {
  /** User name for HTTP basic authentication. */
  username: string;
  /** Password for HTTP basic authentication. Never logged, never in errors or `toString()`. */
  password: string;
  /**
   * Time limit of each attempt of each call, in milliseconds: until the final answer's headers
   * (interim 1xx answers do not extend it; each redirect gets it anew), then again between two
   * pieces of the response body (undici's `bodyTimeout`), so a body that stalls fails too.
   * Default 300 000, undici's own. An upload's bytes are not counted: its answer must start within
   * the limit after the last byte (undici's `headersTimeout`); uploads take a total limit of their
   * own. With an injected `fetch` it is a total limit of each attempt, body included.
   */
  timeoutMs?: number;
  /**
   * Largest response body the client reads, in bytes (JSON answers and error bodies; a stream you
   * ask for with `parseAs: 'stream'` is yours to bound). A larger one fails with
   * {@link InvalidResponseError} (`kind: 'too-large'`). Default 67 108 864 (64 MiB); `Infinity` for none.
   */
  maxResponseBytes?: number;
  /** Aborts every call of this client when it fires (calls reject with the signal's reason). */
  signal?: AbortSignal;
  /** A fetch implementation to use instead of the global one (tests, proxies). Called as `fetch(request, init)`. */
  fetch?: (input: Request, init?: RequestInit) => Promise<Response>;
  /** Extra openapi-fetch middleware, run after basic authentication is added. */
  middleware?: Middleware[];
  /** Retry policy of idempotent calls, or `false` for none. */
  retry?: RetryOptions | false;
}

/**
 * How the server's certificate is checked: verified against the system's CAs (default), against
 * `ca`, or not at all with `insecureSkipTlsVerify` (never both: tsc refuses `{ ca, insecureSkipTlsVerify: true }`).
 */
export type TlsOptions =
  | {
      /** PEM certificate(s) to trust for the server (e.g. the cluster's self-signed certificate). */
      ca?: string | Uint8Array | readonly (string | Uint8Array)[];
      /** Leave out (or false) with `ca`: trust the certificate or skip verification, not both. */
      insecureSkipTlsVerify?: false;
    }
  | {
      /** Accept any server certificate (self-signed lab systems). Default false: certificates are verified. */
      insecureSkipTlsVerify?: boolean;
      /** Leave out with `insecureSkipTlsVerify`: trust the certificate or skip verification, not both. */
      ca?: undefined;
    };

/**
 * Connection options shared by the three clients: either `baseUrl` (the API's full base URL) or
 * `host` (+ `port`, default 9440; https and the API's standard base path are added).
 */
export type ClientOptions = CommonClientOptions &
  TlsOptions &
  (
    | {
        /**
         * Address of the API including its base path, e.g. `https://pc.internal:9440/api/svc/v3`
         * (or a Prism mock's origin). http and https only.
         */
        baseUrl: string;
        host?: undefined;
        port?: undefined;
      }
    | {
        /** Host name or IP address of the endpoint; the URL becomes `https://<host>:<port><base path>`. */
        host: string;
        /** TCP port; default 9440. */
        port?: number;
        baseUrl?: undefined;
      }
  );

/** Names of all client options (for errors). */
export type ClientOptionName = keyof CommonClientOptions | 'ca' | 'insecureSkipTlsVerify' | 'baseUrl' | 'host' | 'port';

/** Thrown when client options are missing or malformed; names the option and the rule. */
export class ClientOptionsError extends TypeError {
  override name = 'ClientOptionsError';
  constructor(
    /** The option that is wrong, e.g. `baseUrl`. */
    readonly option: ClientOptionName,
    rule: string,
  ) {
    super(`client option "${option}" ${rule}`);
  }
}

/** The one options object a client works from: checked, with the defaults settled (internal). */
export interface ResolvedOptions {
  /** The base URL without trailing slash. */
  baseUrl: string;
  /** The `Authorization` header value (never on an enumerable property of a client). */
  authorization: string;
  /** The user name (a 401's error names it; the password is never kept apart from `authorization`). */
  username: string;
  /** The limit in force: the option, or undici's default of 300 000. */
  timeoutMs: number;
  /** True when `timeoutMs` was given (the client then needs its own dispatcher). */
  ownTimeout: boolean;
  retry: Required<RetryOptions>;
  /** The response size limit in bytes (Infinity: none). */
  maxResponseBytes: number;
  tls: { insecure: boolean; ca: (string | Uint8Array)[] | undefined };
  signal: AbortSignal | undefined;
  fetch: CommonClientOptions['fetch'];
  middleware: Middleware[];
}

/** undici's default headersTimeout, which Node's fetch applies when no limit is set. */
const DEFAULT_TIMEOUT_MS = 300_000;
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
const CREDENTIALS = 'must not carry credentials (user:password@): pass username and password instead';
const DEFAULT_RETRY: Required<RetryOptions> = { retries: 3, minDelayMs: 200, maxDelayMs: 10_000 };

function positive(option: ClientOptionName, value: unknown, integer = false): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new ClientOptionsError(
      option,
      `must be a positive ${integer ? 'integer' : 'number'}; got ${JSON.stringify(value)}`,
    );
  }
}

/**
 * Checks client options and settles the defaults: the one object a client reads its options from.
 * @param defaultBasePath the API's base path, used with `host` (e.g. `/api/svc/v3`)
 * @throws {ClientOptionsError} naming the option and the rule it breaks; never containing the password
 */
export function resolveOptions(options: ClientOptions, defaultBasePath: string): ResolvedOptions {
  if (options === null || typeof options !== 'object') {
    throw new ClientOptionsError(
      'baseUrl',
      'is required: pass { baseUrl, username, password } or { host, username, password }',
    );
  }
  const { baseUrl, host, port, username, password } = options as CommonClientOptions & {
    baseUrl?: unknown;
    host?: unknown;
    port?: unknown;
  };
  const { ca: givenCa, insecureSkipTlsVerify } = options as { ca?: unknown; insecureSkipTlsVerify?: unknown };
  let url: URL;
  if (baseUrl !== undefined && host !== undefined) {
    throw new ClientOptionsError('host', 'cannot be combined with baseUrl: pass one of them');
  }
  if (host !== undefined) {
    // Never echoed when it may hold a password.
    if (typeof host === 'string' && host.includes('@')) throw new ClientOptionsError('host', CREDENTIALS);
    if (typeof host !== 'string' || !/^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/.test(host)) {
      throw new ClientOptionsError(
        'host',
        `must be a host name or IP address such as pc.example.internal; got ${JSON.stringify(host)}`,
      );
    }
    if (port !== undefined) positive('port', port, true);
    if (port !== undefined && (port as number) > 65535)
      throw new ClientOptionsError('port', `must be at most 65535; got ${port}`);
    url = new URL(`https://${host}:${port ?? 9440}${defaultBasePath}`);
  } else {
    if (port !== undefined)
      throw new ClientOptionsError('port', 'goes with host, not baseUrl: put the port into baseUrl');
    if (typeof baseUrl !== 'string' || baseUrl === '') {
      throw new ClientOptionsError(
        'baseUrl',
        `must be a non-empty string such as https://host:9440${defaultBasePath} (or pass host)`,
      );
    }
    // Any "@" may be userinfo (however the rest parses: "admin:pw@pc" parses with the scheme
    // "admin:"), so the URL is refused before it is parsed, and never echoed.
    if (baseUrl.includes('@')) throw new ClientOptionsError('baseUrl', CREDENTIALS);
    try {
      url = new URL(baseUrl);
    } catch {
      throw new ClientOptionsError(
        'baseUrl',
        `must be an absolute URL such as https://host:9440${defaultBasePath}; got "${baseUrl}"`,
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ClientOptionsError('baseUrl', `must use http or https; got "${url.protocol}"`);
    }
    // The operation's path is appended to baseUrl: after a query it would land in the query. Not
    // echoed: a query may hold a token.
    if (url.search || url.hash || /[?#]/.test(baseUrl)) {
      throw new ClientOptionsError(
        'baseUrl',
        `must end with the base path (no "?query" or "#fragment"), such as https://host:9440${defaultBasePath}`,
      );
    }
  }
  if (typeof username !== 'string' || username === '') {
    throw new ClientOptionsError('username', 'must be a non-empty string');
  }
  if (username.includes(':')) {
    throw new ClientOptionsError(
      'username',
      'must not contain ":" (basic authentication separates it from the password)',
    );
  }
  if (typeof password !== 'string') {
    throw new ClientOptionsError('password', 'must be a string');
  }
  if (options.timeoutMs !== undefined) positive('timeoutMs', options.timeoutMs);
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (maxResponseBytes !== Infinity) positive('maxResponseBytes', maxResponseBytes, true);
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new ClientOptionsError('signal', 'must be an AbortSignal');
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new ClientOptionsError('fetch', 'must be a function (request, init) => Promise<Response>');
  }
  if (
    options.middleware !== undefined &&
    (!Array.isArray(options.middleware) || options.middleware.some((m) => m === null || typeof m !== 'object'))
  ) {
    throw new ClientOptionsError('middleware', 'must be an array of openapi-fetch middleware objects');
  }
  if (insecureSkipTlsVerify !== undefined && typeof insecureSkipTlsVerify !== 'boolean') {
    throw new ClientOptionsError('insecureSkipTlsVerify', 'must be true or false');
  }
  let ca: (string | Uint8Array)[] | undefined;
  if (givenCa !== undefined) {
    ca = (Array.isArray(givenCa) ? [...givenCa] : [givenCa]) as (string | Uint8Array)[];
    if (
      ca.length === 0 ||
      ca.some((c) => !(typeof c === 'string' ? c.includes('-----BEGIN CERTIFICATE-----') : c instanceof Uint8Array))
    ) {
      throw new ClientOptionsError('ca', 'must be PEM certificate text (-----BEGIN CERTIFICATE-----) or its bytes');
    }
    if (insecureSkipTlsVerify) {
      throw new ClientOptionsError(
        'ca',
        'cannot be combined with insecureSkipTlsVerify: trust the certificate or skip verification, not both',
      );
    }
  }
  let retry = DEFAULT_RETRY;
  if (options.retry === false) retry = { ...DEFAULT_RETRY, retries: 0 };
  else if (options.retry !== undefined) {
    if (options.retry === null || typeof options.retry !== 'object')
      throw new ClientOptionsError('retry', 'must be false or { retries, minDelayMs, maxDelayMs }');
    const {
      retries = DEFAULT_RETRY.retries,
      minDelayMs = DEFAULT_RETRY.minDelayMs,
      maxDelayMs = DEFAULT_RETRY.maxDelayMs,
    } = options.retry;
    if (!Number.isInteger(retries) || retries < 0 || retries > 10)
      throw new ClientOptionsError('retry', `retries must be an integer from 0 to 10; got ${retries}`);
    if (!(minDelayMs >= 0 && maxDelayMs >= minDelayMs && Number.isFinite(maxDelayMs))) {
      throw new ClientOptionsError('retry', 'delays must satisfy 0 <= minDelayMs <= maxDelayMs (milliseconds)');
    }
    retry = { retries, minDelayMs, maxDelayMs };
  }
  return {
    baseUrl: url.href.replace(/\/+$/, ''),
    authorization: basicAuthHeader(username, password),
    username,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ownTimeout: options.timeoutMs !== undefined,
    retry,
    maxResponseBytes,
    tls: { insecure: insecureSkipTlsVerify === true, ca },
    signal: options.signal,
    fetch: options.fetch,
    middleware: options.middleware ? [...options.middleware] : [],
  };
}

/** The `Authorization` value of HTTP basic authentication (`Basic <base64 of user:password, UTF-8>`). */
export function basicAuthHeader(username: string, password: string): string {
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/**
 * openapi-fetch middleware that adds `Authorization: Basic ...` to every request (for your own
 * openapi-fetch clients; the clients of this package send it as a default header).
 * The encoded value is kept in a closure, not on any enumerable property.
 */
export function basicAuth(username: string, password: string): Middleware {
  const header = basicAuthHeader(username, password);
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', header);
      return request;
    },
  };
}
