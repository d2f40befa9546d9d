// The clients' own openapi-fetch middleware: it names each call's spec operation (from the
// schemaPath openapi-fetch hands middleware), repeats read-only calls after a network failure,
// 429 or 503, follows a write's redirect on the same origin only, types every failure, guards the
// response body and checks that a success answer is the JSON the spec declares. Registered first,
// so its onResponse and onError run last, on what the user's middleware made of the answer.
import type { Middleware } from 'openapi-fetch';
import { guardBody, jsonGuard } from './body.js';
import { InvalidResponseError, NetworkError, type OperationRef, RequestTimeoutError } from './errors.js';
import type { ApiName } from './generated/operations.js';
import type { ResolvedOptions } from './options.js';
import {
  AttemptTimeout,
  again,
  attemptOf,
  type FetchFn,
  type Found,
  lookup,
  RefusedRedirect,
  retryAfterMs,
  sleep,
} from './transport.js';

const RESPONSE_OPERATION = Symbol('svc.client.responseOperation');

/** The operation of an error response the client returned (for {@link unwrap}'s errors), if it did. */
export function responseOperation(response: Response): OperationRef | undefined {
  return (response as { [RESPONSE_OPERATION]?: OperationRef })[RESPONSE_OPERATION];
}

/** Redirects a write follows (307/308 on the same origin) before giving up. */
const MAX_REDIRECTS = 5;

/** Codes of a certificate the client does not trust: sending again cannot help. */
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The error code under fetch's `TypeError: fetch failed` (its cause, or the cause's cause). */
export function failureCode(error: unknown): string | undefined {
  let e = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 4; depth++, e = e.cause as typeof e) {
    if (typeof e.code === 'string') return e.code;
  }
  return undefined;
}

/** How a failed attempt is reported, and whether another attempt may heal it. */
function classify(
  error: unknown,
  op: OperationRef,
  attempts: number,
  timeoutMs: number,
): { error: unknown; heals: boolean } {
  if (error instanceof AttemptTimeout) return { error: new RequestTimeoutError(op, error.timeoutMs), heals: false };
  if (error instanceof RefusedRedirect)
    return { error: new InvalidResponseError(op, error.status, 'redirect', error.message), heals: false };
  // An abort's reason, or an error a middleware or the body guard already typed.
  if (!(error instanceof TypeError) || error instanceof NetworkError) return { error, heals: false };
  const code = failureCode(error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return { error: new RequestTimeoutError(op, timeoutMs), heals: false };
  if (code && TLS_CODES.has(code)) return { error: new NetworkError(op, attempts, error, 'tls'), heals: false };
  if (code === 'UND_ERR_HEADERS_OVERFLOW')
    return { error: new NetworkError(op, attempts, error, 'headers-too-large'), heals: false };
  return { error: new NetworkError(op, attempts, error), heals: true };
}

/** What the middleware of one client needs (internal). */
export interface CoreSettings {
  api: ApiName;
  options: ResolvedOptions;
  /** The client's fetch (the per-call `fetch` of uploads is never repeated, so this one does). */
  fetch: FetchFn;
  /** openapi-fetch's `requestInitExt` (the dispatcher), passed again with each repeat. */
  ext: Record<string, unknown> | undefined;
}

function found(api: ApiName, method: string, schemaPath: string): Found {
  return (
    lookup(api, method, schemaPath) ?? {
      op: { api, method, path: schemaPath, operationId: undefined },
      retryable: method === 'GET' || method === 'HEAD',
      json: false,
    }
  );
}

/** True when openapi-fetch will not read the body (it returns early for these). */
function bodiless(response: Response, method: string): boolean {
  return (
    response.status === 204 ||
    method === 'HEAD' ||
    (response.headers.get('content-length') === '0' && !response.headers.get('transfer-encoding')?.includes('chunked'))
  );
}

/** Exponential backoff with jitter, or the server's Retry-After; never above maxDelayMs. */
function backoff(retry: ResolvedOptions['retry'], attempt: number, retryAfter: number | undefined): number {
  if (retryAfter !== undefined) return Math.min(retryAfter, retry.maxDelayMs);
  const ceiling = Math.min(retry.maxDelayMs, retry.minDelayMs * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** The URL a write's redirect leads to: 307/308 on the same origin only. */
function redirectTarget(request: Request, response: Response, method: string, hops: number): string {
  const location = response.headers.get('location');
  let target: URL | undefined;
  try {
    target = location ? new URL(location, request.url) : undefined;
  } catch {
    target = undefined;
  }
  const status = response.status;
  if (!target) throw new RefusedRedirect(status, 'a redirect without a usable Location; not followed');
  const origin = new URL(request.url).origin;
  if (target.origin !== origin)
    throw new RefusedRedirect(
      status,
      `a redirect to another origin (${target.origin}); a ${method} is followed on the same origin only`,
    );
  if (status !== 307 && status !== 308)
    throw new RefusedRedirect(
      status,
      `a ${method} follows only 307 and 308 redirects (which keep the method and body); not followed`,
    );
  if (hops > MAX_REDIRECTS) throw new RefusedRedirect(status, `more than ${MAX_REDIRECTS} redirects`);
  return target.href;
}

const isRedirect = (s: number) => s >= 300 && s < 400 && s !== 304;

/**
 * The clients' middleware (see the file's head). Rejects calls with {@link NetworkError} (after
 * the retries of read-only calls; at once for an untrusted certificate or oversized headers),
 * {@link RequestTimeoutError}, {@link InvalidResponseError}, or the abort reason of a signal.
 */
export function coreMiddleware({ api, options, fetch, ext }: CoreSettings): Middleware {
  const { retry, timeoutMs } = options;
  const limits = { maxResponseBytes: options.maxResponseBytes, timeoutMs };
  const attemptsMade = new WeakMap<Request, number>();

  /** The signal that ends a pause between attempts: the call's or the client's. */
  const pauseSignal = (request: Request) =>
    options.signal ? AbortSignal.any([request.signal, options.signal]) : request.signal;

  /**
   * Sends again until an answer needs nothing more: repeats a read-only call after a network
   * failure, 429 or 503 while retries are left, follows a write's 307/308 on the same origin.
   */
  async function settle(
    request: Request,
    f: Found,
    outcome: { response: Response } | { error: unknown },
  ): Promise<Response> {
    const retries = f.retryable ? retry.retries : 0;
    // An answer onError settled comes back through onResponse: the attempts made count there.
    let attempt = attemptsMade.get(request) ?? 0;
    for (let hops = 0; ; ) {
      let next: Request | undefined;
      let wait = 0;
      if ('error' in outcome) {
        const { error, heals } = classify(outcome.error, f.op, attempt + 1, timeoutMs);
        next = heals && attempt < retries ? again(request) : undefined;
        if (!next) throw error;
        wait = backoff(retry, attempt++, undefined);
      } else {
        const { response } = outcome;
        const status = response.status;
        const busy = (status === 503 || status === 429) && attempt < retries;
        const write = request.method !== 'GET' && request.method !== 'HEAD';
        if (busy) next = again(request);
        if (isRedirect(status) && write) {
          await response.body?.cancel().catch(() => {});
          attemptOf(response)?.done();
          next = again(request, redirectTarget(request, response, f.op.method, ++hops));
          if (!next) throw new RefusedRedirect(status, 'a redirect of a body that cannot be sent again; not followed');
        } else if (next) {
          wait = backoff(retry, attempt++, retryAfterMs(response.headers.get('retry-after')));
          await response.body?.cancel().catch(() => {});
          attemptOf(response)?.done();
        } else {
          attemptsMade.set(request, attempt);
          return response;
        }
      }
      if (wait > 0) await sleep(wait, pauseSignal(request));
      try {
        outcome = { response: await fetch(next, ext as RequestInit | undefined) };
      } catch (error) {
        outcome = { error };
      }
    }
  }

  /** Guards the body of the answer that settled (see body.ts); throws `empty` for a declared-empty JSON answer. */
  function finish(request: Request, f: Found, answer: Response, parseAs: string): void {
    const attempt = attemptOf(answer);
    if (attempt && bodiless(answer, request.method)) attempt.done();
    const text = guardBody(answer, f.op, limits, attempt?.done, attempt?.signal);
    if (answer.ok && parseAs === 'json') jsonGuard(answer, f.op, f.json, request.method, text);
    else answer.text = text;
    if (!answer.ok) (answer as { [RESPONSE_OPERATION]?: OperationRef })[RESPONSE_OPERATION] = f.op;
  }

  return {
    // Not async: an answer that needs no further attempt (nearly all) is guarded without a promise of its own.
    onResponse({ request, response, schemaPath, options: call }) {
      const f = found(api, request.method, schemaPath);
      if (!(isRedirect(response.status) || response.status === 503 || response.status === 429)) {
        finish(request, f, response, call.parseAs);
        return undefined;
      }
      return settle(request, f, { response }).then(
        (answer) => {
          finish(request, f, answer, call.parseAs);
          return answer === response ? undefined : answer;
        },
        (error) => {
          throw classify(error, f.op, 1, timeoutMs).error;
        },
      );
    },
    async onError({ request, error, schemaPath }) {
      const f = found(api, request.method, schemaPath);
      try {
        return await settle(request, f, { error });
      } catch (failure) {
        if (failure instanceof Error) return failure;
        throw failure;
      }
    },
  };
}
