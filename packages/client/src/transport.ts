// The fetch every client hands openapi-fetch (its `fetch` option): one attempt of one request.
// Calls with a JSON body or none go through undici's public `request` on the client's Agent and
// come back as standard `Response` objects: about half of global fetch's CPU per call (no
// fetch algorithm, no second Request). Uploads go through the global fetch, whose streaming is the
// fastest; an injected fetch gets the Request as it is. Retries, operation names and typed errors
// live in the client's middleware (middleware.ts), which knows the operation.

import { createRequire } from 'node:module';
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import { InvalidResponseError, type OperationRef, RedirectError } from './errors.js';
import type { ResolvedOptions } from './options.js';

let undici: typeof Undici | undefined;

/**
 * undici, loaded on first use (a program that only uploads never loads it: ~12 MB of RSS), after
 * Node's own fetch: undici's main entry installs its Agent as the dispatcher of every fetch in the
 * process when none is installed yet (nodejs/undici#5500), and undici 7's Agent under Node 26's
 * fetch streams uploads at about half the speed. Reading the global `Response` loads Node's fetch,
 * which installs its own dispatcher; undici then leaves it as it is.
 */
function loadUndici(): typeof Undici {
  if (!undici) {
    void globalThis.Response;
    undici = createRequire(import.meta.url)('undici') as typeof Undici;
  }
  return undici;
}

/** A fetch as openapi-fetch calls it: the request, and `requestInitExt`. */
export type FetchFn = (input: Request, init?: RequestInit) => Promise<Response>;

/** Redirects a read (GET, HEAD) follows, as fetch does. */
export const MAX_REDIRECTS = 20;

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
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * `work`, or the signal's reason once the signal fires, whichever comes first; `onAbort` then
 * releases what `work` holds. For waits the client cannot leave to an injected fetch: undici links
 * a Request's signal to its source weakly, so a fetch (or a body) that waits only on
 * `request.signal` can be collected, listener and all, and never settle. The listener here is
 * held by the signal itself.
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

/** An attempt ran past its time limit (the middleware names the operation). */
export class AttemptTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no response within ${timeoutMs} ms`);
  }
}

/** A failure the transport decided on: the middleware makes it the client's error, naming the operation. */
export class Refused extends Error {
  constructor(readonly named: (op: OperationRef) => InvalidResponseError) {
    super('refused by the transport');
  }
}

/** Statuses that answer nothing this client asks (it never asks to switch protocols, nor conditionally). */
export const NO_ANSWER: Record<number, string> = {
  101: 'Switching Protocols, to a call that asked for no protocol switch',
  304: 'Not Modified, to a call that was not conditional (a cache or proxy in between may have sent it)',
};

/** The error of a status in {@link NO_ANSWER}: never retried. */
export function noAnswer(op: OperationRef, status: number): InvalidResponseError {
  return new InvalidResponseError(op, status, 'status', `${NO_ANSWER[status]}; not retried`);
}

/** What one call's redirects looked like; undici's `opaque` carries it through every hop. */
interface Hops {
  redirects: number;
  status: number;
  location: string;
}

/** Statuses undici's redirect interceptor follows. */
const REDIRECTS = new Set([300, 301, 302, 303, 307, 308]);

/**
 * An undici interceptor, composed inside the redirect interceptor so that it sees every hop: it
 * gives each hop `deadlineMs` to its final answer, which no interim (1xx) answer restarts (each
 * restarts undici's `headersTimeout`), and notes each redirect in the call's {@link Hops}.
 */
function watch(deadlineMs: number): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    // `request()` hands its options to the dispatcher as they are: `opaque` included.
    const hops = (options as { opaque?: Hops }).opaque;
    let timer: ReturnType<typeof setTimeout> | undefined;
    return dispatch(options, {
      onRequestStart(controller, context) {
        clearTimeout(timer);
        timer = setTimeout(() => controller.abort(new AttemptTimeout(deadlineMs)), deadlineMs);
        handler.onRequestStart?.(controller, context);
      },
      onRequestUpgrade: (controller, status, headers, socket) =>
        handler.onRequestUpgrade?.(controller, status, headers, socket),
      onResponseStart(controller, status, headers, message) {
        // undici would take it as an interim answer, then fail on its parser's assertion
        if (status === 101) return controller.abort(new Refused((op) => noAnswer(op, 101)));
        if (status >= 200) clearTimeout(timer);
        const location = headers.location;
        if (hops && REDIRECTS.has(status) && typeof location === 'string') {
          hops.redirects++;
          hops.status = status;
          hops.location = location;
        }
        handler.onResponseStart?.(controller, status, headers, message);
      },
      onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
      onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
      onResponseError(controller, error) {
        clearTimeout(timer);
        handler.onResponseError?.(controller, error);
      },
    });
  };
}

/** Where a client's calls go: its Agent as reads (following redirects) and as everything else. */
interface Routes {
  reads: Dispatcher;
  writes: Dispatcher;
}

/** A client's undici dispatchers. */
export interface Dispatchers {
  /** The routes of JSON calls (made on first use when shared). */
  routes: () => Routes;
  /** The client's own Agent, for uploads and an injected fetch; undefined: Node's own dispatcher. */
  agent: Dispatcher | undefined;
}

let shared: Routes | undefined;

/**
 * The client's undici Agent: TLS verification as configured, the time limit as undici's
 * `headersTimeout` (from the end of the request body to the answer) and `bodyTimeout` (between
 * two pieces of the body), and a deadline on each hop's final answer (see {@link watch}). Clients
 * without TLS options or a time limit (`own` false) share one Agent at undici's defaults (300 s),
 * made on their first JSON call, and their uploads use Node's own dispatcher.
 */
export function createDispatchers(tls: ResolvedOptions['tls'], timeoutMs: number, own: boolean): Dispatchers {
  if (!own) return { routes: () => (shared ??= routesOf(new (loadUndici().Agent)(), timeoutMs)), agent: undefined };
  const connect = tls.insecure
    ? { rejectUnauthorized: false }
    : tls.ca
      ? { ca: tls.ca.map((c) => (typeof c === 'string' ? c : Buffer.from(c))) }
      : undefined;
  const agent = new (loadUndici().Agent)({ connect, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const routes = routesOf(agent, timeoutMs);
  return { routes: () => routes, agent };
}

function routesOf(agent: Dispatcher, timeoutMs: number): Routes {
  const redirect = loadUndici().interceptors.redirect({ maxRedirections: MAX_REDIRECTS });
  return { reads: agent.compose(watch(timeoutMs), redirect), writes: agent.compose(watch(timeoutMs)) };
}

/** The attempt behind a response whose body still runs under a timer of the transport. */
export interface Attempt {
  /** Ends the attempt's timer: called once the body is read or failed. */
  done: () => void;
  /** Fires at the time limit or an abort; a body read races it (an injected fetch may lose it). */
  signal: AbortSignal;
}

const attempts = new WeakMap<Response, Attempt>();

/** The attempt whose timer still runs for this response's body, if any. */
export function attemptOf(response: Response): Attempt | undefined {
  return attempts.get(response);
}

/** The JSON text each request was sent with, to send it again. */
const sentBodies = new WeakMap<Request, string>();

/** A request like `request` to send again, or undefined when its body cannot be sent twice (a stream). */
export function again(request: Request): Request | undefined {
  if (request.body === null) return request;
  const body = sentBodies.get(request);
  return body === undefined ? undefined : new Request(request, { body });
}

/** True for the bodies the transport reads whole and can send again: JSON. */
function isJson(request: Request): boolean {
  return request.body !== null && /[/+]json\b/i.test(request.headers.get('content-type') ?? '');
}

/** What the transport of one client needs (internal). */
export interface TransportSettings {
  dispatchers: Dispatchers;
  /** A user's fetch (gets the Request), or undefined. */
  injected: FetchFn | undefined;
  /** A timer on each attempt, body included (an injected fetch may ignore the dispatcher; uploads given a limit); 0: none. */
  timerMs: number;
  /** The client's signal. */
  signal: AbortSignal | undefined;
  /** An upload of a stream: sent as it is, not through a copy of the Request (one more stream: ~6 MB of peak RSS per GiB). */
  streamed?: boolean;
}

/**
 * Builds the client's fetch: one attempt. Rejects with undici's or fetch's error, the abort reason
 * of a signal, {@link AttemptTimeout} or {@link Refused}.
 */
export function createTransport(s: TransportSettings): FetchFn {
  return async function transport(request: Request, ext?: RequestInit): Promise<Response> {
    const json = isJson(request);
    const body = json ? await request.text() : null;
    if (body !== null) sentBodies.set(request, body);
    if (!s.injected && s.timerMs <= 0 && (json || request.body === null)) return send(request, body, s);
    // A timer and a signal of its own: uploads given a limit, and an injected fetch.
    const controller = new AbortController();
    const timer =
      s.timerMs > 0 ? setTimeout(() => controller.abort(new AttemptTimeout(s.timerMs)), s.timerMs) : undefined;
    const sources = s.signal ? [request.signal, s.signal] : [request.signal];
    const signal = AbortSignal.any([...sources, controller.signal]);
    const done = () => clearTimeout(timer);
    let response: Response;
    try {
      if (s.injected) {
        const sendable = new Request(request, { signal, ...(json ? { body } : { duplex: 'half' }) } as RequestInit);
        const answer = s.injected(sendable, { ...ext, signal });
        response = await untilAborted(answer, signal, () => {
          answer.then(
            (late) => late.body?.cancel().catch(() => {}),
            () => {},
          );
        });
      } else {
        // `redirect: 'error'`: with any other mode Node's fetch keeps every byte sent to replay it
        // after a redirect (nodejs/undici#4058); writes follow no redirect anyway.
        const init = { signal, redirect: 'error', duplex: 'half', dispatcher: s.dispatchers.agent };
        if (s.streamed) Object.assign(init, { method: request.method, headers: request.headers, body: request.body });
        const input = s.streamed ? request.url : json ? new Request(request, { body }) : request;
        response = await fetch(input, init as RequestInit);
      }
    } catch (error) {
      done();
      if (signal.aborted) throw signal.reason;
      if ((error as { cause?: { message?: string } })?.cause?.message === 'unexpected redirect')
        throw redirected(
          { redirects: 1, status: 0, location: '' },
          `a ${request.method} follows no redirect (only GET and HEAD do)`,
        );
      throw error;
    }
    if (timer === undefined) done();
    else attempts.set(response, { done, signal });
    return response;
  };
}

/** A redirect not followed, never retried: see {@link RedirectError}. */
function redirected({ status, redirects, location }: Hops, detail: string): Refused {
  return new Refused((op) => new RedirectError(op, status, redirects, location, `${detail}; not followed`));
}

/** Statuses whose answers have no body (fetch's null body statuses). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** What `Response()` takes as a status text (HTTP's reason-phrase). */
const REASON = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Sends `request` through undici's `request` on the client's dispatchers and makes the answer a
 * standard Response (its `url` is empty, as for any `new Response()`). Reads follow redirects
 * (undici's interceptor: at most {@link MAX_REDIRECTS}, credentials dropped on another origin).
 */
async function send(request: Request, body: string | null, s: TransportSettings): Promise<Response> {
  const url = new URL(request.url);
  const read = request.method === 'GET' || request.method === 'HEAD';
  const headers: string[] = [];
  for (const [name, value] of request.headers) headers.push(name, value);
  const signal = s.signal ? AbortSignal.any([request.signal, s.signal]) : request.signal;
  const hops: Hops = { redirects: 0, status: 0, location: '' };
  let answer: Dispatcher.ResponseData<Hops>;
  try {
    const { reads, writes } = s.dispatchers.routes();
    answer = await (read ? reads : writes).request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: request.method as Dispatcher.HttpMethod,
      headers,
      body,
      signal,
      opaque: hops,
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    // undici's parser refuses a 101 with `Upgrade` to a request that asked for none, before any handler sees it
    const { code, message } = error as { code?: string; message?: string };
    if (code === 'UND_ERR_SOCKET' && message === 'bad upgrade') throw new Refused((op) => noAnswer(op, 101));
    // undici's redirect interceptor refuses a Location it already requested.
    if (hops.redirects > 0 && code === 'UND_ERR_INVALID_ARG')
      throw redirected(
        hops,
        `a redirect loop: redirect ${hops.redirects} leads to ${hops.location}, already requested`,
      );
    throw error;
  }
  const { statusCode: status, body: stream } = answer;
  if (REDIRECTS.has(status) && hops.location) {
    stream.resume();
    throw redirected(
      hops,
      read
        ? `more than ${MAX_REDIRECTS} redirects, the limit; the last leads to ${hops.location}`
        : `a ${request.method} follows no redirect (only GET and HEAD do); it leads to ${hops.location}`,
    );
  }
  if (status > 599) {
    stream.resume();
    const detail = `the status ${status} is not an HTTP status (100-599)`;
    throw new Refused((op) => new InvalidResponseError(op, status, 'malformed', detail));
  }
  const responseHeaders = new Headers();
  for (const name in answer.headers) {
    const value = answer.headers[name];
    if (Array.isArray(value)) for (const v of value) responseHeaders.append(name, v);
    else if (value !== undefined) responseHeaders.append(name, value);
  }
  const empty = NULL_BODY.has(status) || request.method === 'HEAD';
  if (empty) stream.resume();
  const statusText = REASON.test(answer.statusText ?? '') ? answer.statusText : '';
  return new Response(empty ? null : webBody(stream, request, signal), {
    status,
    statusText,
    headers: responseHeaders,
  });
}

/**
 * undici's body as a web stream, failing as fetch's does: the signal's reason after an abort,
 * else `TypeError('terminated')` with undici's error (a reset, `UND_ERR_BODY_TIMEOUT`) as the
 * cause. It holds `request` until the body ends: the call's signal reaches `request.signal`
 * through the Request (undici holds the link weakly), and the body's abort listens there.
 */
function webBody(body: Dispatcher.ResponseData['body'], request: Request, signal: AbortSignal) {
  const chunks = body[Symbol.asyncIterator]();
  const source: UnderlyingDefaultSource<Uint8Array> & { request: Request } = {
    request,
    async pull(controller) {
      try {
        const { done, value } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(signal.aborted ? signal.reason : new TypeError('terminated', { cause: error }));
      }
    },
    cancel() {
      body.destroy();
    },
  };
  return new ReadableStream(source);
}
