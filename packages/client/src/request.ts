// The Request class the clients hand to openapi-fetch (its `Request` option): a real Request that
// also keeps the body as it was given. Node's fetch re-wraps the body of a Request it is handed in
// a new stream, which costs as much again as the call; the transport sends the kept body instead
// (through undici's request, or fetch(url, init) for uploads), the way hand-written code does.

const INIT = Symbol('svc.client.init');

/** True for web streams (uploads): sent once, with `duplex: 'half'`. */
export function isStream(body: unknown): body is ReadableStream<Uint8Array> {
  return typeof ReadableStream !== 'undefined' && body instanceof ReadableStream;
}

/** A `Request` that remembers its init, so that it can be sent (and re-sent) without copying its body. */
export class SvcRequest extends Request {
  /** The init as openapi-fetch built it: method, headers, the serialized body, signal, redirect. */
  readonly [INIT]: RequestInit;
  constructor(input: RequestInfo | URL, init: RequestInit = {}) {
    // A stream body needs `duplex: 'half'`, which openapi-fetch does not set.
    super(input, isStream(init.body) ? ({ ...init, duplex: 'half' } as RequestInit) : init);
    this[INIT] = init;
  }

  /**
   * Any Request: openapi-fetch checks what a middleware's onRequest returns with `instanceof` its
   * `Request` option (openapi-ts/openapi-typescript#1593), and middleware builds plain Requests.
   * Use {@link isSvcRequest} to tell the clients' own.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Request;
  }
}

/** True for the requests the clients built (with their init kept), false for a middleware's `new Request`. */
export function isSvcRequest(value: unknown): value is SvcRequest {
  return typeof value === 'object' && value !== null && INIT in value;
}

/**
 * The init to send `request` with through fetch(url, init): its method and current headers (so
 * middleware edits count), the body as given, and `ext` (dispatcher, redirect) merged in.
 */
export function sendInit(request: SvcRequest, signal: AbortSignal | null, ext: RequestInit | undefined): RequestInit {
  const given = request[INIT];
  const init: RequestInit & { duplex?: string } = Object.assign({}, ext);
  init.method = request.method;
  init.headers = request.headers;
  init.body = given.body;
  if (signal) init.signal = signal;
  if (isStream(given.body)) {
    init.duplex = 'half';
    // Node's fetch keeps every byte of a streamed body in memory to replay it after a redirect
    // (nodejs/undici#4058); an upload that is redirected fails instead.
    init.redirect = 'error';
  }
  return init;
}

/** The body `request` was built with (a JSON string, a binary body, or none). */
export function givenBody(request: SvcRequest): RequestInit['body'] {
  return request[INIT].body;
}

/** The signal the call gave (null when none): a Request always has one of its own, which costs a listener per call. */
export function givenSignal(request: SvcRequest): AbortSignal | null {
  return request[INIT].signal ?? null;
}

/** A new request like `request`, to another URL when given (a retry, a followed redirect). */
export function resend(request: SvcRequest, url = request.url): SvcRequest {
  return new SvcRequest(url, { ...request[INIT], method: request.method, headers: request.headers });
}
