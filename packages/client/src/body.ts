// Reading answers where the operation and the status are known: a size limit, a cap on what an
// error keeps, typed errors for a body that is cut off, stalls, is empty or is not JSON. The
// middleware reads the body here and hands openapi-fetch a new Response with the checked text.
import { InvalidResponseError, type OperationRef, RequestTimeoutError } from './errors.js';
import { type Attempt, AttemptTimeout, untilAborted } from './transport.js';

/** Bytes of an error body kept in `ApiError.body` (or `maxResponseBytes` when smaller); the rest is dropped unread and its length noted. */
export const ERROR_BODY_KEEP_BYTES = 64 * 1024;

/** What reading one answer needs. */
export interface BodyLimits {
  /** Largest body read, in bytes (Infinity: none). */
  maxResponseBytes: number;
  /** The client's time limit, for the error of a stalled body. */
  timeoutMs: number;
}

/** The error code under a `TypeError` of fetch or undici (its cause, or the cause's cause). */
export function failureCode(error: unknown): string | undefined {
  let e = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 4; depth++, e = e.cause as typeof e) {
    if (typeof e.code === 'string') return e.code;
  }
  return undefined;
}

/** The declared `Content-Length`, if any. */
function declaredLength(response: Response): number | undefined {
  const value = response.headers.get('content-length');
  return value !== null && /^\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * The body's bytes, at most `keep` of them: past that the read stops (the rest is never read) and
 * `over` is true. Each read races the attempt's signal, since an injected fetch may lose it (see
 * `untilAborted`) and the body would then stall for undici's 300 s.
 */
async function readUpTo(response: Response, keep: number, attempt: Attempt | undefined) {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  if (!response.body) return { bytes, chunks, over: false };
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  for (;;) {
    const { done, value } = await untilAborted(reader.read(), attempt?.signal, cancel);
    if (done) return { bytes, chunks, over: false };
    chunks.push(value);
    bytes += value.byteLength;
    if (bytes > keep) {
      cancel();
      return { bytes, chunks, over: true };
    }
  }
}

/** Maps a failed body read to the client's errors; other errors (an abort's reason) pass through. */
function bodyError(error: unknown, op: OperationRef, status: number, limits: BodyLimits): unknown {
  if (error instanceof InvalidResponseError || error instanceof RequestTimeoutError) return error;
  if (error instanceof AttemptTimeout)
    return new RequestTimeoutError(op, error.timeoutMs, 'the body did not arrive within');
  const code = failureCode(error);
  if (code === 'UND_ERR_BODY_TIMEOUT')
    return new RequestTimeoutError(op, limits.timeoutMs, 'the body stalled for more than');
  if (error instanceof TypeError)
    return new InvalidResponseError(op, status, 'incomplete', `the body was cut off (${code ?? error.message})`, error);
  return error;
}

/**
 * The body of an error answer as text, at most {@link ERROR_BODY_KEEP_BYTES} (or
 * `maxResponseBytes` when smaller) of it, with a note of the length when cut.
 * @throws {InvalidResponseError} `incomplete` when the connection closes mid-body
 * @throws {RequestTimeoutError} when the body stalls for `timeoutMs`
 */
export async function readErrorBody(
  response: Response,
  op: OperationRef,
  limits: BodyLimits,
  attempt?: Attempt,
): Promise<string> {
  const keep = Math.min(ERROR_BODY_KEEP_BYTES, limits.maxResponseBytes);
  try {
    const { bytes, chunks, over } = await readUpTo(response, keep, attempt);
    const text = new TextDecoder().decode(Buffer.concat(chunks).subarray(0, keep));
    if (!over) return text;
    return `${text}\n[@svc/client: error body cut to its first ${keep} bytes of ${declaredLength(response) ?? `more than ${bytes}`}]`;
  } catch (error) {
    throw bodyError(error, op, response.status, limits);
  }
}

/**
 * The body of a success answer that openapi-fetch reads as JSON, as text that parses.
 * @param declaresJson whether the spec declares a JSON body for the operation's success answer
 * @throws {InvalidResponseError} `too-large` for a body over `maxResponseBytes` (declared or
 *   counted), `malformed` for one that is not JSON (an HTML page), `empty` for an empty one where
 *   the spec declares a document (204 and HEAD excepted), `incomplete` when it is cut off
 * @throws {RequestTimeoutError} when the body stalls for `timeoutMs`
 */
export async function readJsonBody(
  response: Response,
  op: OperationRef,
  limits: BodyLimits,
  declaresJson: boolean,
  attempt?: Attempt,
): Promise<string> {
  const max = limits.maxResponseBytes;
  const declared = declaredLength(response);
  let text: string;
  try {
    if (declared !== undefined && declared > max) {
      await response.body?.cancel().catch(() => {});
      throw new InvalidResponseError(
        op,
        response.status,
        'too-large',
        `the body is ${declared} bytes, more than maxResponseBytes (${max})`,
      );
    }
    const { chunks, over } = await readUpTo(response, max, attempt);
    if (over)
      throw new InvalidResponseError(
        op,
        response.status,
        'too-large',
        `the body is larger than maxResponseBytes (${max} bytes)`,
      );
    text = new TextDecoder().decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  } catch (error) {
    throw bodyError(error, op, response.status, limits);
  }
  if (text === '') {
    if (declaresJson && response.status !== 204)
      throw new InvalidResponseError(
        op,
        response.status,
        'empty',
        'the body is empty; the spec declares a JSON document',
      );
    return text;
  }
  try {
    JSON.parse(text);
  } catch (error) {
    const type = response.headers.get('content-type') ?? 'no Content-Type';
    const excerpt = JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}...` : text);
    throw new InvalidResponseError(
      op,
      response.status,
      'malformed',
      `the body is not JSON (${type}): ${excerpt}`,
      error,
    );
  }
  return text;
}
