// Whether an operation only reads, so a client may repeat it and contract mode may call it against
// a real server. The method says so for GET and HEAD; a POST that only reads (a list, a poll, a
// groups query) says so with the operation extension `x-svc-idempotent: true` (docs/extensions.md).

/** The operation extension that marks a read-only POST. */
export const IDEMPOTENT_EXTENSION = 'x-svc-idempotent';

/**
 * True when the operation only reads: GET or HEAD, or a POST marked `x-svc-idempotent: true`.
 * @param {{ method: string, path?: string, operationId?: string, operation: Record<string, unknown> }} entry
 *   an entry of `operations(doc)` (method in any case)
 * @returns {boolean}
 * @throws {TypeError} when `x-svc-idempotent` is not a boolean, or is set on a method other than POST
 *   (a PUT or DELETE may be idempotent but never read-only), naming the operation
 */
export function isReadOnly(entry) {
  const method = String(entry?.method ?? '').toLowerCase();
  const mark = entry?.operation?.[IDEMPOTENT_EXTENSION];
  if (mark !== undefined) {
    const name = entry.operationId ?? `${method.toUpperCase()} ${entry.path ?? '?'}`;
    if (typeof mark !== 'boolean')
      throw new TypeError(`${name}: ${IDEMPOTENT_EXTENSION} must be true or false; got ${JSON.stringify(mark)}`);
    if (method !== 'post')
      throw new TypeError(
        `${name}: ${IDEMPOTENT_EXTENSION} applies to POST operations only (the method decides for ${method.toUpperCase()})`,
      );
  }
  return method === 'get' || method === 'head' || mark === true;
}
