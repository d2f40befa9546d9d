// The request object the clients hand to openapi-fetch (its `Request` option). A full WHATWG
// Request costs as much again as the fetch it feeds (Node's fetch re-wraps a Request body in a
// new stream), so the clients build this lighter one and the transport calls fetch(url, init)
// the way hand-written code does. Middleware sees the Request members it uses: url, method,
// headers (a real Headers), signal, body, clone(), text(), json(), arrayBuffer().

const LIGHT = Symbol.for('svc.client.request');

/**
 * Where a request carries its spec operation: the clients pass it in the call's init (openapi-fetch
 * hands unknown init members to the request), and a middleware sets it on requests that other
 * middleware replaced. Read by the transport. A string key: a symbol in the init makes every
 * copy of it openapi-fetch makes slower.
 */
export const OPERATION = 'svcOperation';

/** The body as given to fetch: a JSON string or a binary body; never read by the transport. */
type Body = BodyInit | null | undefined;

/** A light stand-in for `Request` accepted wherever openapi-fetch expects one. */
export class ClientRequest {
  readonly [LIGHT] = true;
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly signal: AbortSignal | null;
  /** The body as passed to fetch (string, Blob, bytes or stream). */
  bodyInit: Body;
  /** Every other init member (redirect, duplex, ...), passed on to fetch. */
  readonly init: RequestInit;
  /** The spec operation of the call (see {@link OPERATION}). */
  [OPERATION]: unknown;

  constructor(input: string | URL, init: RequestInit & { [OPERATION]?: unknown } = {}) {
    const { headers, body, signal, method, [OPERATION]: operation, ...rest } = init;
    this[OPERATION] = operation;
    this.url = String(input);
    this.method = (method ?? 'GET').toUpperCase();
    this.headers = headers instanceof Headers ? headers : new Headers(headers);
    this.signal = signal ?? null;
    this.bodyInit = body;
    this.init = rest;
  }

  /** Accepts real Requests too, so middleware may still return `new Request(...)`. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return (
      value instanceof Request ||
      (typeof value === 'object' && value !== null && (value as { [LIGHT]?: boolean })[LIGHT] === true)
    );
  }

  /** True when the body is a stream: it can be sent once only. */
  get streaming(): boolean {
    return typeof ReadableStream !== 'undefined' && this.bodyInit instanceof ReadableStream;
  }

  /** The body as a stream, like `Request.body` (a new stream per call for non-stream bodies). */
  get body(): ReadableStream<Uint8Array> | null {
    if (this.bodyInit === null || this.bodyInit === undefined) return null;
    return this.streaming ? (this.bodyInit as ReadableStream<Uint8Array>) : new Response(this.bodyInit).body;
  }

  /** A copy with its own body (a stream body is teed). */
  clone(): ClientRequest {
    let body = this.bodyInit;
    if (this.streaming) {
      const [a, b] = (this.bodyInit as ReadableStream<Uint8Array>).tee();
      this.bodyInit = a;
      body = b;
    }
    return new ClientRequest(this.url, {
      ...this.init,
      method: this.method,
      headers: new Headers(this.headers),
      body,
      signal: this.signal,
      [OPERATION]: this[OPERATION],
    });
  }

  /** The same request to another URL (a followed redirect); a stream body cannot be re-sent. */
  withUrl(url: string): ClientRequest {
    return new ClientRequest(url, {
      ...this.init,
      method: this.method,
      headers: this.headers,
      body: this.bodyInit,
      signal: this.signal,
      [OPERATION]: this[OPERATION],
    });
  }

  /** The body as text, JSON or bytes, like the Request methods. */
  text(): Promise<string> {
    return new Response(this.bodyInit).text();
  }
  json(): Promise<unknown> {
    return new Response(this.bodyInit).json();
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return new Response(this.bodyInit).arrayBuffer();
  }

  /** The init for fetch(url, init), with `signal` and any extension (dispatcher) merged in. */
  fetchInit(signal: AbortSignal | null, ext: RequestInit | undefined): RequestInit {
    const init: RequestInit & { duplex?: string } = Object.assign({}, this.init, ext);
    init.method = this.method;
    init.headers = this.headers;
    init.body = this.bodyInit;
    if (signal) init.signal = signal;
    if (this.streaming) {
      init.duplex = 'half';
      // Node's fetch keeps every byte of a streamed body in memory to replay it after a redirect
      // (nodejs/undici#4058); an upload that is redirected fails instead.
      init.redirect = 'error';
    }
    return init;
  }

  /** A real Request, for an injected fetch that expects one. */
  toRequest(signal: AbortSignal | null, ext: RequestInit | undefined): Request {
    return new Request(this.url, this.fetchInit(signal, ext));
  }

  toString(): string {
    return `${this.method} ${this.url}`;
  }
}

/** True for the light requests of this package. */
export function isClientRequest(value: unknown): value is ClientRequest {
  return typeof value === 'object' && value !== null && (value as { [LIGHT]?: boolean })[LIGHT] === true;
}
