// What an operation sends and answers: the kind of a media type and the example a tool fills in.
// Written once so that the code samples, the contract suites, contract mode and the house
// Spectral rules agree on both.
import { deref } from './ref.js';

/** `json`: `application/json`, `application/<x>+json`; `binary`: `application/octet-stream`, `image/*`, `audio/*`, `video/*`. @typedef {'json' | 'binary' | 'other'} MediaKind */

/**
 * The request body an operation is called with.
 * @typedef {object} RequestBody
 * @property {string} mediaType
 * @property {MediaKind} kind
 * @property {boolean} required `requestBody.required`
 * @property {unknown} example from `exampleOf` on that media type; `undefined` when the spec gives none
 */

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json$/;
const BINARY_TYPE = /^(?:application\/octet-stream|image\/[\w.+-]+|audio\/[\w.+-]+|video\/[\w.+-]+)$/;

/**
 * The kind of a media type, parameters and case ignored:
 * `json` for `application/json` and `application/<x>+json` (`application/problem+json`),
 * `binary` for `application/octet-stream`, `image/*`, `audio/*` and `video/*`, `other` for the rest
 * (`text/html`, `multipart/form-data`).
 * @param {string} mediaType a key of a Content Object or a Content-Type header value
 * @returns {MediaKind}
 */
export function mediaKind(mediaType) {
  const type = String(mediaType).split(';')[0].trim().toLowerCase();
  if (JSON_TYPE.test(type)) return 'json';
  if (BINARY_TYPE.test(type)) return 'binary';
  return 'other';
}

/**
 * The example of a Parameter Object or a Media Type Object, in this order (the first found wins):
 * 1. the first named example of `examples` that has a `value` (Prism's default answer, and what
 *    the house rule `svc-operation-examples` requires),
 * 2. `example`,
 * 3. of its `schema`: the first of `examples`, then `example`, then `default`.
 * @param {object} doc the bundled document (for `$ref`s)
 * @param {{ examples?: object, example?: unknown, schema?: unknown } | undefined} holder
 * @returns {unknown} the value, or `undefined` when there is none
 * @throws {Error} from `deref`, for a `$ref` that is not local, does not resolve or loops
 */
export function exampleOf(doc, holder) {
  if (!holder || typeof holder !== 'object') return undefined;
  for (const raw of Object.values(holder.examples ?? {})) {
    const named = deref(doc, raw);
    if (named && named.value !== undefined) return named.value;
  }
  if (holder.example !== undefined) return holder.example;
  const schema = deref(doc, holder.schema);
  if (!schema || typeof schema !== 'object') return undefined;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  return schema.default;
}

/**
 * The request body an operation is called with: its JSON media type if it has one, else its
 * binary one, else the first; with the example of that media type (see `exampleOf`).
 * @param {object} doc the bundled document
 * @param {{ requestBody?: unknown }} operation
 * @returns {RequestBody | null} `null` when the operation takes no body
 */
export function requestBodyOf(doc, operation) {
  const body = deref(doc, operation?.requestBody);
  const types = Object.keys(body?.content ?? {});
  if (!types.length) return null;
  const mediaType =
    types.find((t) => mediaKind(t) === 'json') ?? types.find((t) => mediaKind(t) === 'binary') ?? types[0];
  return {
    mediaType,
    kind: mediaKind(mediaType),
    required: body.required === true,
    example: exampleOf(doc, body.content[mediaType]),
  };
}
