// Reading answers: a size limit, a cap on what an error keeps, typed errors for a body that is cut
// off, stalls, is empty or is not JSON. The transport guards `response.text()`; the clients ask
// openapi-fetch for text and parse it here, where the operation and the status are known.
import { InvalidResponseError, type OperationRef, RequestTimeoutError } from './errors.js';
import { AttemptTimeout, untilAborted } from './transport.js';

/** Bytes of an error body kept in `ApiError.body` (or `maxResponseBytes` when smaller); the rest is dropped unread and its length noted. */
export const ERROR_BODY_KEEP_BYTES = 64 * 1024;

/** What the guard of one response needs. */
export interface BodyLimits {
  /** Largest body read, in bytes (Infinity: none). */
  maxResponseBytes: number;
  /** The client's time limit, for the error of a stalled body. */
  timeoutMs: number;
}

function declaredLength(response: Response): number | undefined {
  const value = response.headers.get('content-length');
  return value !== null && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** The first bytes of a body for a message, quoted. */
function excerpt(text: string): string {
  return JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}...` : text);
}

/**
 * The next chunk, or the signal's reason once it fires (the reader is then cancelled): the client
 * stops the read itself, since an injected fetch may lose the signal (see `untilAborted`) and the
 * body would then stall for undici's 300 s.
 */
function nextChunk(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  signal: AbortSignal | undefined,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  return untilAborted(reader.read(), signal, () => {
    reader.cancel().catch(() => {});
  });
}

async function readAll(response: Response, max: number, op: OperationRef, signal?: AbortSignal): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = '';
  for (;;) {
    const { done, value } = await nextChunk(reader, signal);
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > max) {
      await reader.cancel().catch(() => {});
      throw new InvalidResponseError(
        op,
        response.status,
        'too-large',
        `the body is larger than maxResponseBytes (${max} bytes)`,
      );
    }
    text += decoder.decode(value, { stream: true });
  }
}

async function readCapped(
  response: Response,
  declared: number | undefined,
  keep: number,
  signal?: AbortSignal,
): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await nextChunk(reader, signal);
    if (done) return new TextDecoder().decode(Buffer.concat(chunks));
    chunks.push(value);
    bytes += value.byteLength;
    if (bytes > keep) {
      await reader.cancel().catch(() => {});
      const kept = new TextDecoder().decode(Buffer.concat(chunks).subarray(0, keep));
      return `${kept}\n[@svc/client: error body cut to its first ${keep} bytes of ${declared ?? `more than ${bytes}`}]`;
    }
  }
}

/** Maps a failed body read to the client's errors; other errors (an abort's reason) pass through. */
function bodyError(error: unknown, op: OperationRef, status: number, limits: BodyLimits): unknown {
  if (error instanceof InvalidResponseError || error instanceof RequestTimeoutError) return error;
  if (error instanceof AttemptTimeout)
    return new RequestTimeoutError(op, error.timeoutMs, 'the body did not arrive within');
  const code = (error as { cause?: { code?: string } })?.cause?.code;
  if (code === 'UND_ERR_BODY_TIMEOUT')
    return new RequestTimeoutError(op, limits.timeoutMs, 'the body stalled for more than');
  if (error instanceof TypeError) {
    return new InvalidResponseError(op, status, 'incomplete', `the body was cut off (${code ?? error.message})`, error);
  }
  return error;
}

/** Reads a response's body as text; see {@link guardBody}. */
export type TextReader = () => Promise<string>;

/**
 * A read of `response.text()` that keeps to the size limit, keeps at most
 * {@link ERROR_BODY_KEEP_BYTES} of an error body, and fails with the client's errors. Returned,
 * not installed: the caller puts it (or {@link jsonGuard}'s checks over it) on the response once.
 * @param done called once the body is read or failed (the transport's timer ends there)
 * @param signal the attempt's signal when a timer bounds the body: the read stops when it fires,
 *   whatever the fetch did with it (see `nextChunk`)
 */
export function guardBody(
  response: Response,
  op: OperationRef,
  limits: BodyLimits,
  done?: () => void,
  signal?: AbortSignal,
): TextReader {
  const text = response.text;
  const length = declaredLength(response);
  // A success answer with a length within the limit (or no limit) and no timer: undici delivers
  // no more than declared, so the native read needs only its errors typed (one async layer less:
  // ~1-2% of a loopback call in `npm run bench`).
  if (
    response.ok &&
    !signal &&
    !done &&
    (length !== undefined ? length <= limits.maxResponseBytes : limits.maxResponseBytes === Infinity)
  )
    return () =>
      text.call(response).catch((error: unknown) => {
        throw bodyError(error, op, response.status, limits);
      });
  return async function guardedText() {
    const declared = declaredLength(response);
    try {
      if (declared !== undefined && declared > limits.maxResponseBytes && response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new InvalidResponseError(
          op,
          response.status,
          'too-large',
          `the body is ${declared} bytes, more than maxResponseBytes (${limits.maxResponseBytes})`,
        );
      }
      if (!response.ok) {
        const keep = Math.min(ERROR_BODY_KEEP_BYTES, limits.maxResponseBytes);
        return declared !== undefined && declared <= keep && !signal
          ? await text.call(response)
          : await readCapped(response, declared, keep, signal);
      }
      // A declared length within the limit is all undici delivers: the native read is the fast path.
      if (!signal && (declared !== undefined || limits.maxResponseBytes === Infinity)) return await text.call(response);
      return await readAll(response, limits.maxResponseBytes, op, signal);
    } catch (error) {
      throw bodyError(error, op, response.status, limits);
    } finally {
      done?.();
    }
  };
}

function parse(text: string, response: Response, op: OperationRef): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const type = response.headers.get('content-type') ?? 'no Content-Type';
    throw new InvalidResponseError(
      op,
      response.status,
      'malformed',
      `the body is not JSON (${type}): ${excerpt(text)}`,
      error,
    );
  }
}

/**
 * Makes a success answer that openapi-fetch reads as JSON fail with the client's errors rather
 * than a bare SyntaxError or `data: undefined`: `json()` (a declared length) and `text()` (none)
 * check the body, read with `text` (the reader {@link guardBody} returned).
 * @param declaresJson whether the spec declares a JSON body for the operation's success answer
 * @throws {InvalidResponseError} `empty` at once for a body declared empty (`Content-Length: 0`)
 *   where the spec declares a document (204 and HEAD excepted); on reading, `malformed` for a body
 *   that is not JSON (an HTML page), `empty` for an empty one where the spec declares a document
 */
export function jsonGuard(
  response: Response,
  op: OperationRef,
  declaresJson: boolean,
  method: string,
  text: TextReader,
): void {
  const needed = declaresJson && response.status !== 204 && method !== 'HEAD';
  const empty = () =>
    new InvalidResponseError(op, response.status, 'empty', 'the body is empty; the spec declares a JSON document');
  const declared = response.headers.get('content-length');
  if (needed && declared === '0') throw empty();
  // One method per answer: the one openapi-fetch reads JSON with (json() with a declared length,
  // text() without; it reads nothing else after the client's middleware, which runs last).
  if (declared) {
    response.json = async function checkedJson(this: Response) {
      const body = await text();
      if (body === '') {
        if (needed) throw empty();
        return undefined;
      }
      return parse(body, response, op);
    };
    return;
  }
  response.text = async function checkedText(this: Response) {
    const body = await text();
    if (body === '') {
      if (needed) throw empty();
    } else parse(body, response, op);
    return body;
  };
}
