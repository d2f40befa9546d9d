/** `json`: `application/json`, `application/<x>+json`; `binary`: `application/octet-stream`, `image/*`, `audio/*`, `video/*`. */
export type MediaKind = 'json' | 'binary' | 'other';

/** The kind of a media type (a Content Object key or a Content-Type value), parameters and case ignored. */
export declare function mediaKind(mediaType: string): MediaKind;

/**
 * The example of a Parameter or Media Type Object: the first named `examples` entry with a `value`,
 * then `example`, then the schema's first `examples`, `example`, `default`; `undefined` when none.
 * @throws {Error} for a `$ref` that is not local, does not resolve, or loops
 */
export declare function exampleOf(
  doc: object,
  holder: { examples?: object; example?: unknown; schema?: unknown } | undefined,
): unknown;

/** The request body an operation is called with (JSON first, then binary, then the first media type). */
export interface RequestBody {
  mediaType: string;
  kind: MediaKind;
  /** `requestBody.required`. */
  required: boolean;
  /** From `exampleOf` on that media type; `undefined` when the spec gives none. */
  example: unknown;
}

/** The request body of an operation, or `null` when it takes none. */
export declare function requestBodyOf(
  doc: object,
  operation: { requestBody?: unknown } | undefined,
): RequestBody | null;
