/** The operation extension that marks a read-only POST: `x-svc-idempotent`. */
export declare const IDEMPOTENT_EXTENSION: 'x-svc-idempotent';

/**
 * True when the operation only reads (a client may repeat it, contract mode may call it): GET or
 * HEAD, or a POST marked `x-svc-idempotent: true`. Takes an entry of `operations(doc)`.
 * @throws {TypeError} when `x-svc-idempotent` is not a boolean or sits on a method other than POST
 */
export declare function isReadOnly(entry: {
  method: string;
  path?: string;
  operationId?: string;
  operation: Record<string, unknown>;
}): boolean;
