import type { components as centralComponents } from './generated/central.js';
import type { components as elementComponents } from './generated/element.js';

/** Which operation a request was: the API, HTTP method, path template and operationId from the spec. */
export interface OperationRef {
  /** `central`, `element`, `objects` or `control`. */
  api: string;
  method: string;
  /** Path template as in the spec, e.g. `/images/{uuid}`. */
  path: string;
  /** The spec's operationId, e.g. `images_get`; undefined when the path is not in the spec. */
  operationId: string | undefined;
}

/** Formats an operation for messages: `images_get (GET /images/{uuid})`. */
export function describeOperation(op: OperationRef): string {
  return op.operationId ? `${op.operationId} (${op.method} ${op.path})` : `${op.method} ${op.path}`;
}

/** The v3 error body (`message_list` with `message` and `reason`). */
export type V3ErrorBody = centralComponents['schemas']['ErrorResponse'];
/** The element-level (v0.8/v2.0) error body. */
export type ElementErrorBody = elementComponents['schemas']['ElementError'];

/**
 * The body of an error response: the parsed JSON error body, or the raw text for non-JSON answers.
 * A 401 is always text: production servers answer it with an HTML page.
 */
export type ApiErrorBody<S extends number = number> = number extends S
  ? V3ErrorBody | ElementErrorBody | Record<string, unknown> | string
  : S extends 401
    ? string
    : V3ErrorBody | ElementErrorBody | Record<string, unknown> | string;

function summary(body: unknown): string {
  if (typeof body === 'string') {
    const text = body
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return text.length > 200 ? `${text.slice(0, 200)}...` : text;
  }
  if (body && typeof body === 'object') {
    type Msg = { message?: string; reason?: string };
    const b = body as { message_list?: unknown; message?: string; status?: { message_list?: unknown } };
    const list = (
      Array.isArray(b.message_list)
        ? b.message_list
        : Array.isArray(b.status?.message_list)
          ? b.status.message_list
          : undefined
    ) as Msg[] | undefined;
    if (list?.length) return list.map((m) => [m?.reason, m?.message].filter(Boolean).join(': ')).join('; ');
    if (typeof b.message === 'string') return b.message;
  }
  return '';
}

/**
 * An HTTP error answer of the service: status, parsed body (or raw text) and the operation.
 * Narrow by status with {@link isApiError}:
 * `if (isApiError(e, 404)) e.reason` (`ENTITY_NOT_FOUND`), `if (isApiError(e, 401)) e.body` (a string).
 * Never carries the request headers, so credentials cannot leak through it.
 */
export class ApiError<S extends number = number> extends Error {
  override name = 'ApiError';
  /** The parsed error body, or the raw text when the body is not JSON. */
  readonly body: ApiErrorBody<S>;
  constructor(
    /** The HTTP status, e.g. 404. */
    readonly status: S,
    body: unknown,
    /** The operation that failed. */
    readonly operation: OperationRef,
    /** What the client adds: for a 401, the user and host refused and the fix (never the password). */
    hint?: string,
  ) {
    const detail = summary(body);
    const said = `${describeOperation(operation)} failed with HTTP ${status}${detail ? `: ${detail}` : ''}`;
    super(hint ? `${said}${/[.!?]$/.test(said) ? '' : '.'} ${hint}` : said);
    this.body = body as ApiErrorBody<S>;
  }

  /** The v3 `message_list` of the body (also when wrapped in `status`), or `[]`. */
  get messages(): { message: string; reason?: string }[] {
    const b = this.body as { message_list?: unknown; status?: { message_list?: unknown } } | string;
    if (typeof b !== 'object' || b === null) return [];
    const list = Array.isArray(b.message_list)
      ? b.message_list
      : Array.isArray(b.status?.message_list)
        ? b.status.message_list
        : [];
    return list as { message: string; reason?: string }[];
  }

  /** The first `reason` of the v3 `message_list` (e.g. `ENTITY_NOT_FOUND`), if any. */
  get reason(): string | undefined {
    return this.messages.find((m) => m.reason)?.reason;
  }
}

/**
 * True when `error` is an {@link ApiError}, and with `status` only when it has that status; narrows
 * the type (`isApiError(e, 401)` gives `e.body: string`).
 */
export function isApiError<S extends number = number>(error: unknown, status?: S): error is ApiError<S> {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/** The server did not answer within `timeoutMs` (per attempt), or its body stalled for that long. */
export class RequestTimeoutError extends Error {
  override name = 'RequestTimeoutError';
  constructor(
    readonly operation: OperationRef,
    /** The limit that was exceeded, in milliseconds. */
    readonly timeoutMs: number,
    what = 'no response within',
  ) {
    super(`${describeOperation(operation)}: ${what} ${timeoutMs} ms`);
  }
}

/**
 * Why a connection failed: `tls` (the server's certificate is not trusted), `headers-too-large`
 * (the answer's headers pass the HTTP parser's limit), or `connection` (refused, reset, DNS, ...).
 * Only `connection` failures of read-only calls are retried.
 */
export type NetworkFailureKind = 'connection' | 'tls' | 'headers-too-large';

function failureDetail(kind: NetworkFailureKind, code: string | undefined, why: string): string {
  if (kind === 'tls')
    return `TLS verification failed (${code}): the server's certificate is not trusted. Pass its certificate as the "ca" option (PEM), or set "insecureSkipTlsVerify: true" for a lab system you trust; not retried`;
  if (kind === 'headers-too-large')
    return `the answer's headers are larger than the HTTP parser accepts (${code}; Node's --max-http-header-size, 16 KiB by default); not retried`;
  return `connection failed after ${why}`;
}

/** The connection failed (refused, reset, TLS verification failed, DNS, oversized headers) after any retries. */
export class NetworkError extends Error {
  override name = 'NetworkError';
  /** The error code under fetch's `fetch failed` (e.g. `ECONNREFUSED`, `DEPTH_ZERO_SELF_SIGNED_CERT`), if any. */
  readonly code: string | undefined;
  constructor(
    readonly operation: OperationRef,
    /** Attempts made, retries included. */
    readonly attempts: number,
    cause: unknown,
    /** Why; see {@link NetworkFailureKind}. */
    readonly kind: NetworkFailureKind = 'connection',
  ) {
    const c = cause as { message?: string; code?: string; cause?: { code?: string; message?: string } };
    const code = c?.cause?.code ?? c?.code;
    const why = code ?? c?.cause?.message ?? c?.message ?? String(cause);
    super(`${describeOperation(operation)}: ${failureDetail(kind, code, `${attempts} attempt(s): ${why}`)}`, { cause });
    this.code = code;
  }
}

/** A task ended FAILED or ABORTED (v3), or `Failed`/`Aborted` (v0.8, v2.0). */
export class TaskFailedError<T = unknown> extends Error {
  override name = 'TaskFailedError';
  constructor(
    readonly taskUuid: string,
    /** The final status as the server spells it (`FAILED`, `ABORTED`, `Failed`, `Aborted`). */
    readonly status: string,
    /** The task's error code (v3 `error_code`; v0.8 `metaResponse.error`; v2.0 `meta_response.error_code`). */
    readonly error_code: string | undefined,
    /** The task's error detail (v3 `error_detail`; v0.8 `errorDetail`; v2.0 `error_detail`). */
    readonly error_detail: string | undefined,
    /** The last task record seen. */
    readonly task: T,
  ) {
    super(
      `task ${taskUuid} ended ${status}${error_code ? ` (${error_code})` : ''}${error_detail ? `: ${error_detail}` : ''}`,
    );
  }
}

/** `waitForTask` gave up: the task was still running when `timeoutMs` ran out. */
export class TaskTimeoutError<T = unknown> extends Error {
  override name = 'TaskTimeoutError';
  constructor(
    readonly taskUuid: string,
    /** The limit, in milliseconds. */
    readonly timeoutMs: number,
    /** The last task record seen, if any poll answered. */
    readonly lastTask: T | undefined,
  ) {
    super(`task ${taskUuid} did not finish within ${timeoutMs} ms`);
  }
}

/** An argument of a workflow method is wrong; names the argument and the rule. */
export class InvalidArgumentError extends TypeError {
  override name = 'InvalidArgumentError';
  constructor(
    /** The argument, e.g. `imageType` or `container`. */
    readonly argument: string,
    rule: string,
  ) {
    super(`argument "${argument}" ${rule}`);
  }
}

/** A workflow found the service in a state it cannot continue from (e.g. an image not INACTIVE before upload). */
export class WorkflowError extends Error {
  override name = 'WorkflowError';
}

/** Why an answer could not be used; see {@link InvalidResponseError}. */
export type InvalidResponseKind = 'malformed' | 'empty' | 'incomplete' | 'too-large' | 'redirect' | 'status';

/**
 * The server answered, but not with something the client can use: a success body that is not
 * JSON (an HTML page, a cut-off document), an empty body where the spec declares one, a body cut
 * off when the connection closed, a body over `maxResponseBytes`, a status outside HTTP's 100-599,
 * a redirect the client does not follow ({@link RedirectError}), or a status that answers nothing
 * the client asked (`kind: 'status'`: `101 Switching Protocols` to a call that asked for no switch,
 * `304 Not Modified` to a call that was not conditional). Not retried.
 */
export class InvalidResponseError extends Error {
  override name = 'InvalidResponseError';
  constructor(
    /** The operation that was called. */
    readonly operation: OperationRef,
    /** The HTTP status of the answer, e.g. 200. */
    readonly status: number,
    /** What was wrong. */
    readonly kind: InvalidResponseKind,
    detail: string,
    cause?: unknown,
  ) {
    super(
      `${describeOperation(operation)} answered HTTP ${status}: ${detail}`,
      cause === undefined ? undefined : { cause },
    );
  }
}

/**
 * A redirect the client does not follow (`kind: 'redirect'`, never retried): a read (GET, HEAD)
 * redirected more than 20 times, or in a loop (to a URL it already requested); any other method
 * redirected at all (only reads follow redirects).
 */
export class RedirectError extends InvalidResponseError {
  override name = 'RedirectError';
  constructor(
    operation: OperationRef,
    /** The status of the last redirect, e.g. 302; 0 when unknown (an upload: fetch does not say). */
    status: number,
    /** Redirects the call received, the refused one included. */
    readonly redirects: number,
    /** The `Location` of the last redirect, as the server sent it ('' when unknown). */
    readonly location: string,
    detail: string,
  ) {
    super(operation, status, 'redirect', detail);
    if (status === 0) this.message = `${describeOperation(operation)} was redirected: ${detail}`;
  }
}

/**
 * A paging iterator stopped because the server's pages cannot be right (a page repeats an entity,
 * comes back empty before the announced total, or goes past it), or after `maxItems` entities.
 */
export class PaginationError extends Error {
  override name = 'PaginationError';
  constructor(
    /** The list operation, e.g. `images_list (POST /images/list)`. */
    readonly operation: string,
    /** The offset of the page that was refused. */
    readonly offset: number,
    detail: string,
  ) {
    super(`${operation}: page at offset ${offset} ${detail}`);
  }
}
