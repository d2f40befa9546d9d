export { IDEMPOTENT_EXTENSION, isReadOnly } from './read-only.js';

/** The HTTP methods a path item may hold, in the order OpenAPI lists them. */
export declare const HTTP_METHODS: readonly ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** One operation of a bundle, as `operations(doc)` lists it. */
export interface OperationEntry {
  /** Path template as written, relative to the server base path, e.g. `/images/{uuid}`. */
  path: string;
  method: HttpMethod;
  operationId: string | undefined;
  pathItem: Record<string, any>;
  operation: Record<string, any>;
  /** Path-level and operation-level parameters, resolved; the operation's win on the same `in` and `name`. */
  parameters: Record<string, any>[];
}

/**
 * Follows a local `$ref` (and chains of them) to the object it names; other values pass through.
 * @throws {Error} for a `$ref` that is not local, does not resolve, or loops
 */
export declare function deref<T = any>(doc: object, value: unknown): T;

/** The path part of a server URL template: `https://{host}:{port}/api/svc/v3` -> `/api/svc/v3`. */
export declare function serverBasePath(url: string | undefined): string;

/** Every operation of a document, in document order. */
export declare function operations(doc: object): OperationEntry[];

/** Path-level and operation-level parameters, resolved; the operation's win on the same `in` and `name`. */
export declare function parametersOf(
  doc: object,
  pathItem: { parameters?: unknown[] },
  operation: { parameters?: unknown[] },
): Record<string, any>[];

export { exampleOf, type MediaKind, mediaKind, type RequestBody, requestBodyOf } from './content.js';
