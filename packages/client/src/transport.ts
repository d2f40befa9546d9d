// The fetch every client calls: reads the spec operation each request carries, applies the
// per-attempt time limit and the client's signal, retries read-only calls, follows redirects of
// writes on the same origin only, guards the response body, and maps failures to typed errors.

import type { Middleware } from 'openapi-fetch';
import type { Agent as AgentType, Dispatcher } from 'undici';
// Imported directly because undici's main entry replaces the process-wide fetch dispatcher.
// @ts-expect-error undici publishes no types for this path; it is the class undici exports as Agent.
import AgentClass from 'undici/lib/dispatcher/agent.js';
import { guardBody } from './body.js';
import { InvalidResponseError, NetworkError, type OperationRef, RequestTimeoutError } from './errors.js';
import { type ApiName, operationTable } from './generated/operations.js';
import type { ResolvedOptions } from './options.js';
import { type ClientRequest, isClientRequest, OPERATION } from './request.js';

type FetchFn = (input: Request, init?: RequestInit) => Promise<Response>;

/** An operation as the transport needs it: the ref for errors, and whether it may be repeated. */
interface Found {
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

type Tagged = { [OPERATION]?: Found };

/**
 * openapi-fetch middleware that tags each request with its spec operation, from the `schemaPath`
 * openapi-fetch hands middleware (no URL parsing). The clients add it last when other middleware
 * runs, which may replace the request (see `createCore`).
 */
export function operationTagger(api: ApiName): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      const found = lookup(api, request.method, schemaPath);
      if (found) (request as Tagged)[OPERATION] = found;
    },
  };
}

/** The operation of a request: its tag, or for an untagged one its method and URL path (retried only for GET and HEAD). */
function operationOf(api: ApiName, basePath: string, request: Request | ClientRequest): Found {
  const found = (request as Tagged)[OPERATION];
  if (found) return found;
  let path = new URL(request.url).pathname;
  if (path.startsWith(basePath)) path = path.slice(basePath.length) || '/';
  return {
    op: { api, method: request.method, path, operationId: undefined },
    retryable: request.method === 'GET' || request.method === 'HEAD',
    json: false,
  };
}

const RESPONSE_OPERATION = Symbol('svc.client.responseOperation');

/** The operation of a response the transport returned (for {@link unwrap}'s errors), if it did. */
export function responseOperation(response: Response): OperationRef | undefined {
  return (response as { [RESPONSE_OPERATION]?: OperationRef })[RESPONSE_OPERATION];
}

/** Resolves after `ms`, or rejects with the signal's reason when it fires first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
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

/** What the transport of one client needs (internal). */
export interface TransportSettings {
  api: ApiName;
  basePath: string;
  /** The client's dispatcher, passed to fetch as `dispatcher`; undefined for fetch's own. */
  dispatcher: Dispatcher | undefined;
  /** A user's fetch (gets real Requests), or undefined for the global fetch. */
  injected: FetchFn | undefined;
  /** The dispatcher's headersTimeout and bodyTimeout, for messages. */
  timeoutMs: number;
  /** A timer-and-signal limit per attempt, body included (an injected fetch may ignore the dispatcher; explicit upload limits); 0 for none. */
  signalTimeoutMs: number;
  retry: ResolvedOptions['retry'];
  signal: AbortSignal | undefined;
  /** Largest response body read, in bytes (Infinity: none). */
  maxResponseBytes: number;
}

/** Redirects a write follows (307/308 on the same origin) before giving up. */
const MAX_REDIRECTS = 5;
const MANUAL: RequestInit = { redirect: 'manual' };

/** True when openapi-fetch will not read the body (it returns early for these). */
function bodiless(response: Response, method: string): boolean {
  return (
    response.status === 204 ||
    method === 'HEAD' ||
    (response.headers.get('content-length') === '0' && !response.headers.get('transfer-encoding')?.includes('chunked'))
  );
}

/**
 * Builds the client's fetch.
 * `injected` is a user's fetch, which gets real Requests; otherwise the global fetch is called as
 * `fetch(url, init)`. Writes are sent with `redirect: 'manual'`: a 307/308 to the same origin is
 * followed (same method and body), any other redirect of a write is refused.
 * Rejects with {@link RequestTimeoutError}, {@link NetworkError}, {@link InvalidResponseError}
 * (a refused redirect), or the abort reason of a signal; the response's `text()` rejects with
 * these too (see `guardBody`).
 */
export function createTransport(s: TransportSettings): FetchFn {
  const withDispatcher = s.dispatcher ? ({ dispatcher: s.dispatcher } as RequestInit) : undefined;
  const limits = { maxResponseBytes: s.maxResponseBytes, timeoutMs: s.timeoutMs };
  return async function transport(input: Request | ClientRequest, given?: RequestInit): Promise<Response> {
    const { op, retryable } = operationOf(s.api, s.basePath, input);
    const light = isClientRequest(input) ? input : undefined;
    // Writes do not follow redirects on their own: fetch would re-send them to any origin.
    const manual = !retryable && !light?.streaming;
    let ext = given;
    if (withDispatcher) ext = ext ? { ...ext, ...withDispatcher } : withDispatcher;
    if (manual) ext = ext ? { ...ext, ...MANUAL } : MANUAL;
    // Only reads are repeated; their bodies are small JSON, and a stream is never sent twice.
    const retries = retryable && !light?.streaming ? s.retry.retries : 0;
    const spare = (retries > 0 || manual) && !light && input.body ? (input as Request).clone() : undefined;
    const outer = () =>
      s.signal && input.signal ? AbortSignal.any([input.signal, s.signal]) : (s.signal ?? input.signal ?? undefined);
    let current: Request | ClientRequest = input;
    for (let attempt = 0, hops = 0; ; ) {
      // One controller per attempt, fed by the call's signal, the client's signal and the timer
      // (AbortSignal.any costs more than a loopback request on Node 20).
      const sources =
        current.signal && s.signal
          ? [current.signal, s.signal]
          : current.signal
            ? [current.signal]
            : s.signal
              ? [s.signal]
              : [];
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
            controller.abort(new RequestTimeoutError(op, s.signalTimeoutMs));
          }, s.signalTimeoutMs);
        }
      }
      const cleanup = () => {
        clearTimeout(timer);
        release();
      };
      let response: Response;
      try {
        if (!isClientRequest(current))
          response = await (s.injected ?? fetch)(current as Request, signal ? { ...ext, signal } : ext);
        else if (s.injected) response = await s.injected(current.toRequest(signal, ext), ext);
        else response = await fetch(current.url, current.fetchInit(signal, ext));
      } catch (error) {
        cleanup();
        if (timedOut) throw new RequestTimeoutError(op, s.signalTimeoutMs);
        if (signal?.aborted) throw signal.reason;
        if ((error as { cause?: { code?: string } })?.cause?.code === 'UND_ERR_HEADERS_TIMEOUT')
          throw new RequestTimeoutError(op, s.timeoutMs);
        if (attempt < retries) {
          await sleep(backoff(s.retry, attempt++, undefined), outer());
          current = spare ? spare.clone() : input;
          continue;
        }
        throw new NetworkError(op, attempt + 1, error);
      }
      if (manual && response.status >= 300 && response.status < 400 && response.status !== 304) {
        cleanup();
        await response.body?.cancel().catch(() => {});
        current = redirected(current, spare, response, op, ++hops);
        continue;
      }
      if ((response.status === 503 || response.status === 429) && attempt < retries) {
        cleanup();
        const wait = backoff(s.retry, attempt, retryAfterMs(response.headers.get('retry-after')));
        await response.body?.cancel().catch(() => {});
        await sleep(wait, outer());
        current = spare ? spare.clone() : input;
        attempt++;
        continue;
      }
      // A timer bounds the body too: it ends when the body has been read.
      if (timer === undefined || bodiless(response, current.method)) cleanup();
      if (timer === undefined) guardBody(response, op, limits);
      else guardBody(response, op, limits, cleanup, signal ?? undefined);
      // Only error answers need it (unwrap's ApiError).
      if (!response.ok) (response as { [RESPONSE_OPERATION]?: OperationRef })[RESPONSE_OPERATION] = op;
      return response;
    }
  };
}

/**
 * The request a write is re-sent as after a redirect: 307/308 to the same origin only.
 * @throws {InvalidResponseError} `redirect` for any other redirect, or after {@link MAX_REDIRECTS}
 */
function redirected(
  current: Request | ClientRequest,
  spare: Request | undefined,
  response: Response,
  op: OperationRef,
  hops: number,
): Request | ClientRequest {
  const location = response.headers.get('location');
  let target: URL | undefined;
  try {
    target = location ? new URL(location, current.url) : undefined;
  } catch {
    target = undefined;
  }
  const from = new URL(current.url);
  if (!target)
    throw new InvalidResponseError(
      op,
      response.status,
      'redirect',
      'a redirect without a usable Location; not followed',
    );
  if (target.origin !== from.origin) {
    throw new InvalidResponseError(
      op,
      response.status,
      'redirect',
      `a redirect to another origin (${target.origin}); a ${op.method} is followed on the same origin only`,
    );
  }
  if (response.status !== 307 && response.status !== 308) {
    throw new InvalidResponseError(
      op,
      response.status,
      'redirect',
      `a ${op.method} follows only 307 and 308 redirects (which keep the method and body); not followed`,
    );
  }
  if (hops > MAX_REDIRECTS)
    throw new InvalidResponseError(op, response.status, 'redirect', `more than ${MAX_REDIRECTS} redirects`);
  if (isClientRequest(current)) return current.withUrl(target.href);
  return new Request(target.href, spare ? spare.clone() : (current as Request));
}

/** Exponential backoff with jitter, or the server's Retry-After; never above maxDelayMs. */
function backoff(retry: ResolvedOptions['retry'], attempt: number, retryAfter: number | undefined): number {
  if (retryAfter !== undefined) return Math.min(retryAfter, retry.maxDelayMs);
  const ceiling = Math.min(retry.maxDelayMs, retry.minDelayMs * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}
