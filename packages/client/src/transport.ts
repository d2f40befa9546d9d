// The fetch every client calls: finds the spec operation of each request, applies the per-attempt
// timeout and the client's signal, retries idempotent calls, and maps failures to typed errors.
import { Agent } from 'undici';
import { operationTable, type ApiName } from './generated/operations.js';
import { NetworkError, RequestTimeoutError, type OperationRef } from './errors.js';
import type { ResolvedOptions } from './options.js';

type FetchFn = (input: Request, init?: RequestInit) => Promise<Response>;

interface CompiledOp {
  method: string;
  path: string;
  operationId: string;
  pattern: RegExp;
  retryable: boolean;
}

/** Reads (GET, list, poll) may be repeated safely; creates, updates, deletes and uploads may not. */
export function isIdempotent(method: string, operationId: string | undefined): boolean {
  if (method === 'GET' || method === 'HEAD') return true;
  return method === 'POST' && operationId !== undefined && /_(list|poll)(_v\d+_\d+)?$/.test(operationId);
}

const compiled = new Map<ApiName, CompiledOp[]>();
function opsOf(api: ApiName): CompiledOp[] {
  let ops = compiled.get(api);
  if (!ops) {
    ops = operationTable[api]
      .map(([method, path, operationId]) => ({
        method,
        path,
        operationId,
        pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
        retryable: isIdempotent(method, operationId),
      }))
      // Literal paths before templated ones: POST /images/list is not POST /images/{uuid}.
      .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
    compiled.set(api, ops);
  }
  return ops;
}

/** Finds the spec operation of a request URL under `basePath`. */
export function findOperation(api: ApiName, basePath: string, method: string, url: string): { op: OperationRef; retryable: boolean } {
  let path = new URL(url).pathname;
  if (path.startsWith(basePath)) path = path.slice(basePath.length) || '/';
  for (const op of opsOf(api)) {
    if (op.method === method && op.pattern.test(path)) return { op: { api, method, path: op.path, operationId: op.operationId }, retryable: op.retryable };
  }
  return { op: { api, method, path, operationId: undefined }, retryable: isIdempotent(method, undefined) };
}

/** Operation of each response the transport returned, for {@link unwrap}'s errors. */
export const responseOperations = new WeakMap<Response, OperationRef>();

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

/** The undici dispatcher for the TLS options, or undefined when the defaults do. */
export function tlsDispatcher(tls: ResolvedOptions['tls']): Agent | undefined {
  if (tls.insecure) return new Agent({ connect: { rejectUnauthorized: false } });
  if (tls.ca) return new Agent({ connect: { ca: tls.ca.map((c) => (typeof c === 'string' ? c : Buffer.from(c))) } });
  return undefined;
}

export interface TransportSettings {
  api: ApiName;
  basePath: string;
  baseFetch: FetchFn;
  timeoutMs: number;
  retry: ResolvedOptions['retry'];
  signal: AbortSignal | undefined;
}

/**
 * Builds the client's fetch. `timeoutMs: 0` turns the per-attempt timeout off (uploads).
 * Rejects with {@link RequestTimeoutError}, {@link NetworkError}, or the abort reason of a signal.
 */
export function createTransport(s: TransportSettings): FetchFn {
  return async function transport(request: Request, init?: RequestInit): Promise<Response> {
    const { op, retryable } = findOperation(s.api, s.basePath, request.method, request.url);
    const retries = retryable ? s.retry.retries : 0;
    // Keep an unread copy of the body for repeats; only reads are repeated, and their bodies are small JSON.
    const spare = retries > 0 && request.body ? request.clone() : undefined;
    const outer = () => (s.signal ? AbortSignal.any([request.signal, s.signal]) : request.signal);
    for (let attempt = 0; ; attempt++) {
      const current = attempt === 0 ? request : (spare?.clone() ?? request);
      const signals: AbortSignal[] = [current.signal];
      if (s.signal) signals.push(s.signal);
      let timer: ReturnType<typeof setTimeout> | undefined;
      let timedOut = false;
      if (s.timeoutMs > 0) {
        const controller = new AbortController();
        timer = setTimeout(() => {
          timedOut = true;
          controller.abort(new RequestTimeoutError(op, s.timeoutMs));
        }, s.timeoutMs);
        signals.push(controller.signal);
      }
      const signal = signals.length === 1 ? signals[0]! : AbortSignal.any(signals);
      let response: Response;
      try {
        response = await s.baseFetch(current, init ? { ...init, signal } : { signal });
      } catch (error) {
        if (timedOut) throw new RequestTimeoutError(op, s.timeoutMs);
        if (signal.aborted) throw signal.reason;
        if (attempt < retries) {
          await sleep(backoff(s.retry, attempt, undefined), outer());
          continue;
        }
        throw new NetworkError(op, attempt + 1, error);
      } finally {
        clearTimeout(timer);
      }
      if ((response.status === 503 || response.status === 429) && attempt < retries) {
        const wait = backoff(s.retry, attempt, retryAfterMs(response.headers.get('retry-after')));
        await response.body?.cancel().catch(() => {});
        await sleep(wait, outer());
        continue;
      }
      responseOperations.set(response, op);
      return response;
    }
  };
}

/** Exponential backoff with jitter, or the server's Retry-After; never above maxDelayMs. */
function backoff(retry: ResolvedOptions['retry'], attempt: number, retryAfter: number | undefined): number {
  if (retryAfter !== undefined) return Math.min(retryAfter, retry.maxDelayMs);
  const ceiling = Math.min(retry.maxDelayMs, retry.minDelayMs * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}
