/**
 * A raw request or response body (`application/octet-stream`): a Blob (or File), bytes, or a
 * stream of bytes. Streams are sent without buffering the whole body in memory.
 */
export type BinaryBody = Blob | ArrayBuffer | Uint8Array | ReadableStream<Uint8Array>;

/** True when `body` is sent as-is rather than serialized to JSON. */
export function isBinaryBody(body: unknown): body is BinaryBody {
  return (
    body instanceof Blob ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream)
  );
}
