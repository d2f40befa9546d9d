// The clients' own openapi-fetch middleware: it names each call's spec operation (from the
// schemaPath openapi-fetch hands middleware), repeats read-only calls after a network failure,
// 429 or 503, types every failure, and reads the answer's body (limits, typed errors) into a new
// Response for openapi-fetch to parse. Registered first, so its onResponse and onError run last,
// on what the user's middleware made of the answer.
import type { Middleware } from 'openapi-fetch';
import { type BodyLimits, failureCode, readErrorBody, readJsonBody } from './body.js';
import { InvalidResponseError, NetworkError, type OperationRef, RequestTimeoutError } from './errors.js';
import { type ApiName, operationTable } from './generated/operations.js';
import type { ResolvedOptions } from './options.js';
import { AttemptTimeout, again, attemptOf, type FetchFn, NO_ANSWER, noAnswer, Refused, sleep } from './transport.js';

/** An operation as the client needs it: the ref for errors, and whether it may be repeated. */
export interface Found {
  op: OperationRef;
  retryable: boolean;
  /** The spec declares a JSON body for the success answer. */
  json: boolean;
}

/** Per API, per method, per path template (nested maps: no key string built per call). */
const byApi = new Map<ApiName, Map<string, Map<string, Found>>>();

/** The spec operation `method schemaPath` of an API, from the generated table; undefined when the path is not in the spec. */
export function lookup(api: ApiName, method: string, schemaPath: string): Found | undefined {
  let ops = byApi.get(api);
  if (!ops) {
    ops = new Map();
    for (const [m, path, operationId, readOnly, json] of operationTable[api]) {
      let byPath = ops.get(m);
      if (!byPath) {
        byPath = new Map();
        ops.set(m, byPath);
      }
      byPath.set(path, { op: { api, method: m, path, operationId }, retryable: readOnly, json });
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

/** Per error response the client returned: its operation, and what the client adds to its message. */
const failures = new WeakMap<Response, { op: OperationRef; hint: string | undefined }>();

/** The operation of an error response the client returned (for {@link unwrap}'s errors), if it did. */
export function responseOperation(response: Response): OperationRef | undefined {
  return failures.get(response)?.op;
}

/** What the client adds to the message of an error response it returned (a 401's user, host and fix), if any. */
export function responseHint(response: Response): string | undefined {
  return failures.get(response)?.hint;
}

/** Milliseconds a `Retry-After` header asks for (seconds or an HTTP date), or undefined. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

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

/** Codes of a connection failure another attempt may heal: refused, reset, DNS, closed. */
const HEALING = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** How a failed attempt is reported, and whether another attempt may heal it. */
function classify(
  error: unknown,
  op: OperationRef,
  attempts: number,
  timeoutMs: number,
): { error: unknown; heals: boolean } {
  if (error instanceof AttemptTimeout) return { error: new RequestTimeoutError(op, error.timeoutMs), heals: false };
  if (error instanceof Refused) return { error: error.named(op), heals: false };
  // An error a middleware or the body guard already typed.
  if (error instanceof NetworkError || error instanceof InvalidResponseError || error instanceof RequestTimeoutError)
    return { error, heals: false };
  const code = failureCode(error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return { error: new RequestTimeoutError(op, timeoutMs), heals: false };
  if (code && TLS_CODES.has(code)) return { error: new NetworkError(op, attempts, error, 'tls'), heals: false };
  if (code === 'UND_ERR_HEADERS_OVERFLOW')
    return { error: new NetworkError(op, attempts, error, 'headers-too-large'), heals: false };
  // undici's errors and fetch's `TypeError('fetch failed')` (its cause carries undici's code).
  if (error instanceof TypeError || (error instanceof Error && code !== undefined))
    return { error: new NetworkError(op, attempts, error), heals: code === undefined || HEALING.has(code) };
  return { error, heals: false };
}

/** What the middleware of one client needs (internal). */
export interface CoreSettings {
  api: ApiName;
  options: ResolvedOptions;
  /** The client's fetch (the per-call `fetch` of uploads is never repeated, so this one does). */
  fetch: FetchFn;
  /** openapi-fetch's `requestInitExt`, passed again with each repeat. */
  ext: RequestInit | undefined;
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

/**
 * The clients' middleware (see the file's head). Rejects calls with {@link NetworkError} (after
 * the retries of read-only calls; at once for an untrusted certificate or oversized headers),
 * {@link RequestTimeoutError}, {@link InvalidResponseError} (`RedirectError` among them), or
 * the abort reason of a signal.
 */
export function coreMiddleware({ api, options, fetch, ext }: CoreSettings): Middleware {
  const { retry, timeoutMs } = options;
  const limits: BodyLimits = { maxResponseBytes: options.maxResponseBytes, timeoutMs };
  const attemptsMade = new WeakMap<Request, number>();
  const aborted = (request: Request) => request.signal.aborted || options.signal?.aborted === true;

  /** Sends again while a read-only call meets a network failure, 429 or 503 and retries are left. */
  async function settle(
    request: Request,
    f: Found,
    outcome: { response: Response } | { error: unknown },
  ): Promise<Response> {
    const retries = f.retryable ? retry.retries : 0;
    // An answer onError settled comes back through onResponse: the attempts made count there.
    let attempt = attemptsMade.get(request) ?? 0;
    let sent = request;
    for (;;) {
      let wait: number;
      let next: Request | undefined;
      if ('error' in outcome) {
        if (aborted(request)) throw outcome.error;
        const { error, heals } = classify(outcome.error, f.op, attempt + 1, timeoutMs);
        next = heals && attempt < retries ? again(sent) : undefined;
        if (!next) throw error;
        wait = backoff(retry, attempt, undefined);
      } else {
        const { response } = outcome;
        const busy = (response.status === 503 || response.status === 429) && attempt < retries;
        next = busy ? again(sent) : undefined;
        if (!next) {
          attemptsMade.set(request, attempt);
          return response;
        }
        wait = backoff(retry, attempt, retryAfterMs(response.headers.get('retry-after')));
        await response.body?.cancel().catch(() => {});
        attemptOf(response)?.done();
      }
      attempt++;
      await sleep(wait, options.signal ? AbortSignal.any([request.signal, options.signal]) : request.signal);
      sent = next;
      try {
        outcome = { response: await fetch(next, ext) };
      } catch (error) {
        outcome = { error };
      }
    }
  }

  /**
   * Reads the body of the answer that settled, where openapi-fetch would read it: an error's
   * (capped) and a JSON success's (limited, checked), into a new Response of the same status and
   * headers. A success read otherwise (`parseAs: 'stream'`, ...) is passed on untouched.
   */
  /** For a 401: the user and the host refused, and the fix (the password stays in `authorization`). */
  const hintOf = (request: Request, status: number) =>
    status === 401
      ? `The server at ${new URL(request.url).host} refused user ${JSON.stringify(options.username)}: check the client's username and password options`
      : undefined;

  async function finish(request: Request, f: Found, answer: Response, parseAs: string): Promise<Response | undefined> {
    const attempt = attemptOf(answer);
    try {
      if (bodiless(answer, request.method)) {
        const needed = answer.ok && parseAs === 'json' && f.json && answer.status !== 204 && request.method !== 'HEAD';
        if (needed)
          throw new InvalidResponseError(
            f.op,
            answer.status,
            'empty',
            'the body is empty; the spec declares a JSON document',
          );
        if (!answer.ok) failures.set(answer, { op: f.op, hint: hintOf(request, answer.status) });
        return undefined;
      }
      if (answer.ok && parseAs !== 'json') return undefined;
      const init = { status: answer.status, statusText: answer.statusText, headers: answer.headers };
      if (answer.ok) return new Response(await readJsonBody(answer, f.op, limits, f.json, attempt), init);
      const failed = new Response(await readErrorBody(answer, f.op, limits, attempt), init);
      failures.set(failed, { op: f.op, hint: hintOf(request, answer.status) });
      return failed;
    } finally {
      if (parseAs === 'json' || !answer.ok) attempt?.done();
    }
  }

  return {
    async onResponse({ request, response, schemaPath, options: call }) {
      const f = found(api, request.method, schemaPath);
      if (response.status in NO_ANSWER) {
        await response.body?.cancel().catch(() => {});
        attemptOf(response)?.done();
        throw noAnswer(f.op, response.status);
      }
      const answer =
        response.status === 503 || response.status === 429 ? await settle(request, f, { response }) : response;
      return (await finish(request, f, answer, call.parseAs)) ?? (answer === response ? undefined : answer);
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
