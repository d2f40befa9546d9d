// The fetch every client calls: finds the spec operation of each request, applies the per-attempt
// timeout and the client's signal, retries idempotent calls, and maps failures to typed errors.
// @ts-expect-error undici publishes no types for this path; it is the class undici exports as Agent.
// Imported directly because undici's main entry replaces the process-wide fetch dispatcher.
import AgentClass from 'undici/lib/dispatcher/agent.js';
import type { Agent as AgentType, Dispatcher } from 'undici';
import { operationTable, type ApiName } from './generated/operations.js';
import { NetworkError, RequestTimeoutError, type OperationRef } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { isClientRequest, type ClientRequest } from './request.js';

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
  // The URL is absolute and was built from the base URL: cut scheme and authority, query and fragment.
  const start = url.indexOf('/', url.indexOf('//') + 2);
  let path = start < 0 ? '/' : url.slice(start).replace(/[?#].*$/, '');
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

const Agent = AgentClass as typeof AgentType;

/**
 * The client's undici dispatcher: TLS verification as configured, and the per-call time limit as
 * undici's `headersTimeout`, which counts from the end of the request body to the response
 * headers (so a long upload is not cut off) and costs nothing per request, unlike a timer and signal.
 */
export function createDispatcher(tls: ResolvedOptions['tls'], headersTimeoutMs: number): Dispatcher {
  const connect = tls.insecure ? { rejectUnauthorized: false } : tls.ca ? { ca: tls.ca.map((c) => (typeof c === 'string' ? c : Buffer.from(c))) } : undefined;
  return new Agent({ ...(connect ? { connect } : {}), headersTimeout: headersTimeoutMs });
}

/** What the transport of one client needs (internal). */
export interface TransportSettings {
  api: ApiName;
  basePath: string;
  /** The client's dispatcher, passed to fetch as `dispatcher`; undefined for fetch's own. */
  dispatcher: Dispatcher | undefined;
  /** A user's fetch (gets real Requests), or undefined for the global fetch. */
  injected: FetchFn | undefined;
  /** The dispatcher's headersTimeout, for messages. */
  timeoutMs: number;
  /** A timer-and-signal limit per attempt (an injected fetch may ignore the dispatcher; explicit upload limits); 0 for none. */
  signalTimeoutMs: number;
  retry: ResolvedOptions['retry'];
  signal: AbortSignal | undefined;
}

/**
 * Builds the client's fetch.
 * `injected` is a user's fetch, which gets real Requests; otherwise the global fetch is called as
 * `fetch(url, init)`. Rejects with {@link RequestTimeoutError}, {@link NetworkError}, or the abort
 * reason of a signal.
 */
export function createTransport(s: TransportSettings): FetchFn {
  // Calls repeat (polls, pages): remember the operation of recent URLs.
  const seen = new Map<string, ReturnType<typeof findOperation>>();
  const lookup = (method: string, url: string) => {
    const key = `${method} ${url}`;
    let found = seen.get(key);
    if (!found) {
      if (seen.size >= 256) seen.clear();
      seen.set(key, (found = findOperation(s.api, s.basePath, method, url)));
    }
    return found;
  };
  const withDispatcher = s.dispatcher ? ({ dispatcher: s.dispatcher } as RequestInit) : undefined;
  return async function transport(input: Request | ClientRequest, ext?: RequestInit): Promise<Response> {
    if (withDispatcher) ext = ext ? { ...ext, ...withDispatcher } : withDispatcher;
    const { op, retryable } = lookup(input.method, input.url);
    const light = isClientRequest(input) ? input : undefined;
    // Only reads are repeated; their bodies are small JSON, and a stream is never sent twice.
    const retries = retryable && !light?.streaming ? s.retry.retries : 0;
    const spare = retries > 0 && !light && input.body ? (input as Request).clone() : undefined;
    const outer = () => (s.signal && input.signal ? AbortSignal.any([input.signal, s.signal]) : (s.signal ?? input.signal ?? undefined));
    for (let attempt = 0; ; attempt++) {
      const current = attempt === 0 || !spare ? input : spare.clone();
      // One controller per attempt, fed by the call's signal, the client's signal and the timer
      // (AbortSignal.any costs more than a loopback request on Node 20).
      const sources = current.signal && s.signal ? [current.signal, s.signal] : current.signal ? [current.signal] : s.signal ? [s.signal] : [];
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
        release = () => sources.forEach((source) => source.removeEventListener('abort', forward));
        if (s.signalTimeoutMs > 0) {
          timer = setTimeout(() => {
            timedOut = true;
            controller.abort(new RequestTimeoutError(op, s.signalTimeoutMs));
          }, s.signalTimeoutMs);
        }
      }
      let response: Response;
      try {
        if (!isClientRequest(current)) response = await (s.injected ?? fetch)(current as Request, signal ? { ...ext, signal } : ext);
        else if (s.injected) response = await s.injected(current.toRequest(signal, ext), ext);
        else response = await fetch(current.url, current.fetchInit(signal, ext));
      } catch (error) {
        if (timedOut) throw new RequestTimeoutError(op, s.signalTimeoutMs);
        if (signal?.aborted) throw signal.reason;
        if ((error as { cause?: { code?: string } })?.cause?.code === 'UND_ERR_HEADERS_TIMEOUT') throw new RequestTimeoutError(op, s.timeoutMs);
        if (attempt < retries) {
          await sleep(backoff(s.retry, attempt, undefined), outer());
          continue;
        }
        throw new NetworkError(op, attempt + 1, error);
      } finally {
        clearTimeout(timer);
        release();
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
