// Walking a bundled OpenAPI document, written once for every tool that reads the bundles.
// Bundles (dist/<api>.json) hold only local `$ref`s, so that is all `deref` follows.

import { HTTP_METHODS } from './methods.js';
import { deref, isObject, resolveRef } from './ref.js';

export { HTTP_METHODS } from './methods.js';
export { IDEMPOTENT_EXTENSION, isReadOnly } from './read-only.js';
export { deref, isObject, resolveRef } from './ref.js';
export { subdocument } from './subdocument.js';

/**
 * The path part of a server URL template: `https://{host}:{port}/api/svc/v3` -> `/api/svc/v3`,
 * `/api/x/` -> `/api/x`.
 * @param {string | undefined} url
 * @returns {string} a path starting with `/` without a trailing `/`; `''` for none or the root
 */
export function serverBasePath(url) {
  if (typeof url !== 'string') return '';
  const path = url.replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/]*/, '').replace(/[?#].*$/, '');
  return (path.startsWith('/') ? path : `/${path}`).replace(/\/+$/, '');
}

/**
 * The base path of a document's first server, where its paths start: `/api/svc/v3` for central.
 * @param {any} document an OpenAPI 3.x document
 * @returns {string} as serverBasePath; `''` when there is no server
 */
export function basePathOf(document) {
  return serverBasePath(document?.servers?.[0]?.url);
}

/**
 * One operation of a document, as `operations(doc)` lists it.
 * @typedef {object} OperationEntry
 * @property {string} path     the path template as written, relative to the server base path (`/images/{uuid}`)
 * @property {HttpMethod} method
 * @property {string | undefined} operationId
 * @property {Record<string, any>} pathItem  resolved
 * @property {Record<string, any>} operation
 * @property {Record<string, any>[]} parameters  path-level and operation-level, resolved; the operation's win
 */

/** @typedef {(typeof HTTP_METHODS)[number]} HttpMethod */

/**
 * The operations of one Path Item Object, without throwing on a broken `$ref` (none then).
 * @param {unknown} doc the whole document
 * @param {unknown} pathItem possibly `{ $ref }`
 * @param {Array<string | number>} at where the Path Item lives (`['paths', '/images']`)
 * @returns {{ method: HttpMethod, operation: Record<string, any>, pathItem: Record<string, any>, path: Array<string | number> }[]}
 *   `path` is where the operation lives (`['paths', '/images', 'get']`)
 */
export function operationsOf(doc, pathItem, at) {
  const { value: item } = resolveRef(doc, pathItem);
  if (!isObject(item)) return [];
  return HTTP_METHODS.filter((method) => isObject(item[method])).map((method) => ({
    method,
    operation: item[method],
    pathItem: item,
    path: [...at, method],
  }));
}

/**
 * Every operation of a document, in document order, with its parameters (see `parametersOf`).
 * @param {any} doc the bundled document
 * @returns {OperationEntry[]}
 * @throws {Error} from `deref`, for a path item `$ref` that is not local, does not resolve or loops
 */
export function operations(doc) {
  return Object.entries(doc.paths ?? {}).flatMap(([path, rawItem]) => {
    deref(doc, rawItem); // throws, naming it, on a broken reference
    return operationsOf(doc, rawItem, ['paths', path]).map(({ method, operation, pathItem }) => ({
      path,
      method,
      operationId: operation.operationId,
      pathItem,
      operation,
      parameters: parametersOf(doc, pathItem, operation),
    }));
  });
}

/**
 * The parameters of an operation: the path item's and the operation's, resolved, the operation's
 * replacing a path-level one of the same `in` and `name` (as OpenAPI says).
 * @param {object} doc the bundled document
 * @param {{ parameters?: unknown[] }} pathItem
 * @param {{ parameters?: unknown[] }} operation
 * @returns {Record<string, any>[]}
 */
export function parametersOf(doc, pathItem, operation) {
  const byKey = new Map();
  for (const raw of [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])]) {
    const p = deref(doc, raw);
    byKey.set(p?.in && p.name ? `${p.in}:${p.name}` : byKey.size, p);
  }
  return [...byKey.values()];
}

export { exampleOf, mediaKind, requestBodyOf } from './content.js';

/**
 * The path of an operation's deep link in Swagger UI: `#/<tag>/<operationId>`, each with its
 * whitespace as `%20` (Swagger UI's `createDeepLinkPath`, which its router reads back).
 * @param {string} tag the operation's first tag (`default` when it has none)
 * @param {string} operationId
 * @returns {string} e.g. `#/Images%20(v2.0)/images_list_v2_0`
 */
export function operationHash(tag, operationId) {
  const part = (/** @type {string} */ s) => String(s).trim().replace(/\s/g, '%20');
  return `#/${part(tag)}/${part(operationId)}`;
}

/**
 * The explorer's link to an operation, relative to the page: `?api=<api>` and `operationHash`.
 * @param {string} api a name of `redocly.yaml` (`element`)
 * @param {string} tag
 * @param {string} operationId
 * @returns {string} e.g. `?api=element#/Images%20(v2.0)/images_list_v2_0`
 */
export function explorerLink(api, tag, operationId) {
  return `?api=${encodeURIComponent(api)}${operationHash(tag, operationId)}`;
}
