// The fetch every client hands openapi-fetch (its `fetch` option): one attempt of one request,
// with the client's dispatcher (openapi-fetch's `requestInitExt`), the attempt's time limit and the
// client's signal; writes do not follow redirects on their own. Retries, operation names and typed
// errors live in the client's middleware (see middleware.ts), which knows the operation.
//
// The clients' own JSON calls go through undici's `request` on the dispatcher, not fetch: it
// answers in about 0.4 of fetch's time on loopback (a Request and its body stream fewer, no fetch
// algorithm), and the answer is made a real Response here, with fetch's error shapes (`TypeError`
// with the cause) so that nothing downstream tells the two apart. Uploads, middleware-built
// requests and an injected fetch still go through fetch. No `Accept-Encoding` is sent, so answers
// come uncompressed.

import type { Agent as AgentType, Dispatcher } from 'undici';
// undici's parts are imported by path because its main entry replaces the process-wide fetch
// dispatcher; it publishes no types for these paths.
// @ts-expect-error the `request` function undici puts on every dispatcher.
import undiciRequest from 'undici/lib/api/api-request.js';
// @ts-expect-error the class undici exports as Agent.
import AgentClass from 'undici/lib/dispatcher/agent.js';
// @ts-expect-error the interceptor undici exports as `interceptors.redirect`.
import redirectInterceptor from 'undici/lib/interceptor/redirect.js';
import { isBinaryBody } from './binary.js';
import type { OperationRef } from './errors.js';
import { type ApiName, operationTable } from './generated/operations.js';
import type { ResolvedOptions } from './options.js';
import { givenBody, givenSignal, isStream, isSvcRequest, resend, type SvcRequest, sendInit } from './request.js';

/** A fetch as openapi-fetch calls it: the request, and `requestInitExt` (the dispatcher). */
export type FetchFn = (input: Request, init?: RequestInit) => Promise<Response>;

/** An operation as the client needs it: the ref for errors, and whether it may be repeated. */
export interface Found {
  op: OperationRef;
  retryable: boolean;
  /** The spec declares a JSON body for the success answer. */
  json: boolean;
}

/** Per API, per method, per path template (nested maps: no key string built per call). */
const byApi = new Map<ApiName, Map<string, Map<string, Found>>>();

/**
 * The spec operation `method schemaPath` of an API, from the generated table; undefined when the
 * path is not in the spec.
 */
export function lookup(api: ApiName, method: string, schemaPath: string): Found | undefined {
  let ops = byApi.get(api);
  if (!ops) {
    ops = new Map();
    for (const [m, path, operationId, readOnly, json] of operationTable[api]) {
      if (!ops.has(m)) ops.set(m, new Map());
      ops.get(m)!.set(path, { op: { api, method: m, path, operationId }, retryable: readOnly, json });
    }
    byApi.set(api, ops);
  }
  return ops.get(method)?.get(schemaPath);
}

/**
 * True when the spec says the call only reads, so it may be repeated: GET or HEAD, or a POST
 * operation marked `x-svc-idempotent: true` (lists, polls, groups). Decided at generation time by
 * `isReadOnly` of `@svc/oas`, the helper contract mode uses too.
 * @param api `central`, `element` or `objects`
 * @param method the HTTP method, upper case
 * @param path the path template as in the spec, e.g. `/images/list`
 */
export function isIdempotent(api: ApiName, method: string, path: string): boolean {
  return lookup(api, method, path)?.retryable ?? (method === 'GET' || method === 'HEAD');
}

/** Resolves after `ms`, or rejects with the signal's reason when it fires first. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * `work`, or the signal's reason once the signal fires, whichever comes first; `onAbort` then
 * releases what `work` holds. Waits the client cannot leave to whatever an injected fetch does
 * with the signal: undici links a Request's signal to its source weakly, so a fetch (or a body)
 * that waits only on `request.signal` can be collected, listener and all, and never settle. The
 * listener here is held by the signal itself.
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | null | undefined,
  onAbort: () => void = () => {},
): Promise<T> {
  if (!signal) return work;
  return new Promise((resolve, reject) => {
    const abort = () => {
      onAbort();
      reject(signal.reason);
    };
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}

/** Milliseconds a `Retry-After` header asks for (seconds or an HTTP date), or undefined. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const Agent = AgentClass as typeof AgentType;

/**
 * The client's undici dispatcher: TLS verification as configured, and the per-call time limit as
 * undici's `headersTimeout` (from the end of the request body to the response headers, so a long
 * upload is not cut off) and `bodyTimeout` (between two pieces of the response body, so a stalled
 * body fails too). Both cost nothing per request, unlike a timer and signal.
 */
export function createDispatcher(tls: ResolvedOptions['tls'], timeoutMs: number): Dispatcher {
  const connect = tls.insecure
    ? { rejectUnauthorized: false }
    : tls.ca
      ? { ca: tls.ca.map((c) => (typeof c === 'string' ? c : Buffer.from(c))) }
      : undefined;
  return new Agent({ ...(connect ? { connect } : {}), headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
}

/** An attempt ran past the transport's own timer (the middleware names the operation). */
export class AttemptTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no response within ${timeoutMs} ms`);
  }
}

/** A write was redirected in a way it may not follow (the middleware names the operation). */
export class RefusedRedirect extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(detail);
  }
}

/** What the middleware needs of a response the transport returned: the end of its attempt's timer. */
export interface Attempt {
  /** Ends the attempt's timer and listeners: called once the body is read or failed. */
  done: () => void;
  /** The attempt's signal, which ends a body read when it fires (an injected fetch may lose it). */
  signal: AbortSignal;
}

const attempts = new WeakMap<Response, Attempt>();

/** The attempt whose timer still runs for this response's body, if any. */
export function attemptOf(response: Response): Attempt | undefined {
  return attempts.get(response);
}

/** A copy kept of each request sent that is not the clients' own (a middleware's `new Request`), for retries and redirects. */
const spares = new WeakMap<Request, Request>();

/** A fresh copy of `request` to send again, or undefined when its body cannot be sent twice (a stream, or no copy kept). */
export function again(request: Request, url?: string): Request | undefined {
  if (isSvcRequest(request)) return isStream(givenBody(request)) ? undefined : resend(request, url);
  const spare = request.body ? spares.get(request)?.clone() : request;
  if (!spare) return undefined;
  return url === undefined ? spare : new Request(url, spare);
}

/** What the transport of one client needs (internal). */
export interface TransportSettings {
  /** A user's fetch (gets the Request), or undefined for the global fetch. */
  injected: FetchFn | undefined;
  /** A timer-and-signal limit per attempt, body included (an injected fetch may ignore the dispatcher; explicit upload limits); 0 for none. */
  signalTimeoutMs: number;
  /** The client's signal. */
  signal: AbortSignal | undefined;
}

const MANUAL: RequestInit = { redirect: 'manual' };

/**
 * Builds the client's fetch: one attempt. The clients' own requests ({@link SvcRequest}) with a
 * JSON body or none are sent through undici's `request` (see {@link send}), uploads with the global
 * fetch as `fetch(url, init)`; a request a middleware built, or any request to an injected fetch,
 * as `fetch(request, init)`. A write (not GET or HEAD) is sent with
 * `redirect: 'manual'`, so that the middleware decides which redirect it follows.
 * Rejects with what fetch rejects with, the abort reason of a signal, or {@link AttemptTimeout}.
 */
export function createTransport(s: TransportSettings): FetchFn {
  return async function transport(request: Request, ext?: RequestInit): Promise<Response> {
    const own = isSvcRequest(request);
    const write = request.method !== 'GET' && request.method !== 'HEAD';
    // the clients' own JSON calls: through undici's request (see send), which takes only the dispatcher
    const direct = !s.injected && own && !isBinaryBody(givenBody(request));
    if (write && !direct && !(own && isStream(givenBody(request)))) ext = ext ? { ...ext, ...MANUAL } : MANUAL;
    if (!own && request.body && !spares.has(request)) spares.set(request, request.clone());
    const given = own ? givenSignal(request) : request.signal;
    // One controller per attempt, fed by the call's signal, the client's signal and the timer
    // (AbortSignal.any costs more than a loopback request on Node 20).
    const sources = given && s.signal ? [given, s.signal] : given ? [given] : s.signal ? [s.signal] : [];
    let signal: AbortSignal | null = sources.length === 1 && s.signalTimeoutMs <= 0 ? sources[0]! : null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let timedOut = false;
    let release = () => {};
    if (!signal && (sources.length > 0 || s.signalTimeoutMs > 0)) {
      const controller = new AbortController();
      signal = controller.signal;
      const forward = (event: Event) => controller.abort((event.target as AbortSignal).reason);
      for (const source of sources) {
        if (source.aborted) controller.abort(source.reason);
        else source.addEventListener('abort', forward, { once: true });
      }
      release = () => {
        for (const source of sources) source.removeEventListener('abort', forward);
      };
      if (s.signalTimeoutMs > 0) {
        timer = setTimeout(() => {
          timedOut = true;
          controller.abort(new AttemptTimeout(s.signalTimeoutMs));
        }, s.signalTimeoutMs);
      }
    }
    const cleanup = () => {
      clearTimeout(timer);
      release();
    };
    let response: Response;
    try {
      // An injected fetch may read the signal off the request: it gets one that carries the attempt's.
      if (s.injected) {
        const answer = s.injected(
          signal ? new Request(request, { signal, duplex: 'half' } as RequestInit) : request,
          signal ? { ...ext, signal } : ext,
        );
        // a late answer's body is cancelled
        response = await untilAborted(answer, signal, () => {
          answer.then(
            (late) => late.body?.cancel().catch(() => {}),
            () => {},
          );
        });
      } else if (direct) response = await send(request, signal, ext);
      else if (own) response = await fetch(request.url, sendInit(request, signal, ext));
      else response = await fetch(request, signal ? { ...ext, signal } : ext);
    } catch (error) {
      cleanup();
      if (timedOut) throw new AttemptTimeout(s.signalTimeoutMs);
      if (signal?.aborted) throw signal.reason;
      throw error;
    }
    // A timer bounds the body too: it ends when the body has been read (see the middleware).
    if (timer === undefined) cleanup();
    else attempts.set(response, { done: cleanup, signal: signal! });
    return response;
  };
}

/** Redirects a read follows, as fetch does. */
const READ_REDIRECTS = 20;
/** Statuses whose answers have no body (fetch's null body statuses). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
type RequestFn = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
const request = undiciRequest as RequestFn;
const redirecting = redirectInterceptor as (options: {
  maxRedirections: number;
}) => Dispatcher.DispatcherComposeInterceptor;
let sharedAgent: Dispatcher | undefined;
/** The Agent of the clients without a dispatcher of their own, made on first use. */
function defaultAgent(): Dispatcher {
  sharedAgent ??= new Agent();
  return sharedAgent;
}
/** Per dispatcher, the same with fetch's redirect following for reads. */
const readers = new WeakMap<Dispatcher, Dispatcher>();

/**
 * Sends one of the clients' own requests with a JSON or no body through undici's `request` on the
 * client's dispatcher (or one shared Agent), and returns a real Response. Reads follow redirects
 * as fetch does (20, credentials dropped on another origin); writes get the 3xx (the middleware
 * follows it). Rejects like fetch: `TypeError('fetch failed')` with undici's error as the cause.
 */
async function send(req: SvcRequest, signal: AbortSignal | null, ext: RequestInit | undefined): Promise<Response> {
  const url = new URL(req.url);
  const read = req.method === 'GET' || req.method === 'HEAD';
  let dispatcher = (ext as { dispatcher?: Dispatcher } | undefined)?.dispatcher ?? defaultAgent();
  if (read) {
    let reader = readers.get(dispatcher);
    if (!reader) {
      reader = dispatcher.compose(redirecting({ maxRedirections: READ_REDIRECTS }));
      readers.set(dispatcher, reader);
    }
    dispatcher = reader;
  }
  const headers: string[] = [];
  for (const [name, value] of req.headers) headers.push(name, value);
  let answer: Dispatcher.ResponseData;
  try {
    answer = await request.call(dispatcher, {
      origin: url.origin,
      path: url.pathname + url.search,
      method: req.method as Dispatcher.HttpMethod,
      headers,
      body: (givenBody(req) as string | null | undefined) ?? null,
      signal: signal ?? undefined,
    });
  } catch (error) {
    throw new TypeError('fetch failed', { cause: error });
  }
  const { statusCode: status, body } = answer;
  const empty = NULL_BODY.has(status) || req.method === 'HEAD';
  const answerHeaders = new Headers();
  for (const name in answer.headers) {
    const value = answer.headers[name];
    if (Array.isArray(value)) for (const v of value) answerHeaders.append(name, v);
    else if (value !== undefined) answerHeaders.append(name, value);
  }
  if (empty) body.resume();
  // Response() takes 200-599; fetch passes any other final status (600-999) on, not ok.
  const init = { status: Math.min(status, 599), statusText: answer.statusText ?? '', headers: answerHeaders };
  const stream = empty ? null : webBody(body, signal);
  let response: Response;
  try {
    response = new Response(stream, init);
  } catch {
    // A status text fetch takes but Response's constructor refuses, such as UTF-8 beyond Latin-1
    // (checked before the body is touched): kept as fetch keeps it.
    response = new Response(stream, { ...init, statusText: '' });
    Object.defineProperty(response, 'statusText', { value: init.statusText });
  }
  if (status > 599) Object.defineProperty(response, 'status', { value: status });
  Object.defineProperty(response, 'url', { value: req.url });
  return response;
}

/**
 * undici's body as a web stream, failing as fetch's does: the signal's reason after an abort,
 * else `TypeError('terminated')` with undici's error (a reset, `UND_ERR_BODY_TIMEOUT`) as the cause.
 */
function webBody(body: Dispatcher.ResponseData['body'], signal: AbortSignal | null): ReadableStream<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(signal?.aborted ? signal.reason : new TypeError('terminated', { cause: error }));
      }
    },
    cancel() {
      body.destroy();
    },
  });
}
