// Building blocks of the workflow methods: unwrapping results into ApiError, polling tasks, upload sources.
import { openAsBlob } from 'node:fs';
import { Readable } from 'node:stream';
import type { BinaryBody } from './binary.js';
import { ApiError, InvalidArgumentError, TaskFailedError, TaskTimeoutError, WorkflowError } from './errors.js';
import { responseHint, responseOperation } from './middleware.js';
import { sleep } from './transport.js';

/**
 * Returns the data of an openapi-fetch result, or throws {@link ApiError} (status, parsed body or
 * raw text, operation) for an error answer.
 *
 * `const image = await unwrap(central.GET('/images/{uuid}', { params: { path: { uuid } } }))`
 * @throws {ApiError} when the response status is not 2xx
 */
export async function unwrap<R extends { response: Response; data?: unknown; error?: unknown }>(
  result: R | Promise<R>,
): Promise<Exclude<R['data'], undefined>> {
  const { data, error, response } = await result;
  if (!response.ok) {
    const url = new URL(response.url || 'http://unknown/');
    const op = responseOperation(response) ?? {
      api: 'unknown',
      method: '?',
      path: url.pathname,
      operationId: undefined,
    };
    throw new ApiError(response.status, error, op, responseHint(response));
  }
  return data as Exclude<R['data'], undefined>;
}

/**
 * A field a workflow cannot go on without.
 * @param operation the call that answered, e.g. `images_create`
 * @param field where the value should be, e.g. `metadata.uuid`
 * @throws {WorkflowError} `<operation>: the answer carries no <field>` when it is missing (undefined, null or '')
 */
export function required<T>(value: T | null | undefined, operation: string, field: string): T {
  if (value === undefined || value === null || (value as unknown) === '')
    throw new WorkflowError(`${operation}: the answer carries no ${field}`);
  return value;
}

/** Options of every `waitForTask`. */
export interface WaitOptions<T> {
  /** Give up after this many milliseconds (throws {@link TaskTimeoutError}); default 600 000 (10 minutes). */
  timeoutMs?: number;
  /** Pause between polls, in milliseconds; default 2 000. */
  intervalMs?: number;
  /** Stops waiting when it fires; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called with every task record polled (e.g. to show `percentage_complete`). */
  onProgress?: (task: T) => void;
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** @throws {InvalidArgumentError} when `value` is not a UUID string */
export function checkUuid(argument: string, value: unknown): string {
  if (typeof value !== 'string' || !UUID.test(value)) {
    throw new InvalidArgumentError(
      argument,
      `must be a UUID such as 0e09cf83-ac68-4f28-af70-6df9a43df4f0; got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** True for UUID strings. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** How a task record reads: still going, done, or failed with code and detail. */
export type TaskVerdict =
  | { state: 'pending' }
  | { state: 'succeeded' }
  | { state: 'failed'; status: string; code?: string; detail?: string };

/**
 * Polls `get` until `judge` says the task finished.
 * @throws {TaskFailedError} when the task failed or was aborted
 * @throws {TaskTimeoutError} when `timeoutMs` ran out first
 * @throws the signal's reason when `signal` fired
 */
export async function pollTask<T>(
  uuid: string,
  get: (signal: AbortSignal) => Promise<T>,
  judge: (task: T) => TaskVerdict,
  options: WaitOptions<T> = {},
): Promise<T> {
  const { timeoutMs = 600_000, intervalMs = 2_000, signal, onProgress } = options;
  if (!(typeof timeoutMs === 'number' && timeoutMs > 0))
    throw new InvalidArgumentError(
      'timeoutMs',
      `must be a positive number of milliseconds; got ${JSON.stringify(timeoutMs)}`,
    );
  if (!(typeof intervalMs === 'number' && intervalMs >= 0))
    throw new InvalidArgumentError(
      'intervalMs',
      `must be a number of milliseconds >= 0; got ${JSON.stringify(intervalMs)}`,
    );
  if (onProgress !== undefined && typeof onProgress !== 'function')
    throw new InvalidArgumentError('onProgress', 'must be a function');
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const combined = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
  let last: T | undefined;
  try {
    for (;;) {
      last = await get(combined);
      onProgress?.(last);
      const verdict = judge(last);
      if (verdict.state === 'succeeded') return last;
      if (verdict.state === 'failed')
        throw new TaskFailedError(uuid, verdict.status, verdict.code, verdict.detail, last);
      await sleep(intervalMs, combined);
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (deadline.signal.aborted) throw new TaskTimeoutError(uuid, timeoutMs, last);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** What an upload sends: a file path, a Blob, bytes, a web stream or a Node stream / async iterable of bytes. */
export type UploadSource = string | BinaryBody | AsyncIterable<Uint8Array>;

/**
 * Turns an upload source into a fetch body without reading it into memory: a path becomes a
 * file-backed Blob, Node streams and async iterables become web streams.
 * @throws {InvalidArgumentError} when the file cannot be opened or the source is of another type
 */
export async function toBody(argument: string, source: unknown): Promise<BinaryBody> {
  if (typeof source === 'string') {
    try {
      return await openAsBlob(source);
    } catch (error) {
      throw new InvalidArgumentError(argument, `must name a readable file; ${(error as Error).message}`);
    }
  }
  if (
    source instanceof Blob ||
    source instanceof ArrayBuffer ||
    ArrayBuffer.isView(source) ||
    source instanceof ReadableStream
  )
    return source as BinaryBody;
  if (source && typeof (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] === 'function') {
    const readable =
      source instanceof Readable ? source : Readable.from(source as AsyncIterable<Uint8Array>, { objectMode: false });
    return Readable.toWeb(readable) as unknown as ReadableStream<Uint8Array>;
  }
  throw new InvalidArgumentError(
    argument,
    'must be a file path, a Blob, bytes, a ReadableStream or an async iterable of bytes',
  );
}
