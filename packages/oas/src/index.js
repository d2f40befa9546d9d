// Walking a bundled OpenAPI document, written once for every tool that reads the bundles.
// Bundles (dist/<api>.json) hold only local `$ref`s, so that is all `deref` follows.

import { deref } from './deref.js';

export { IDEMPOTENT_EXTENSION, isReadOnly } from './read-only.js';
export { deref };

/** The HTTP methods a path item may hold, in the order OpenAPI lists them. */
export const HTTP_METHODS = Object.freeze(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

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
 * Every operation of a document, in document order, with its parameters (see `parametersOf`).
 * @param {object} doc the bundled document
 * @returns {import('./index.js').OperationEntry[]}
 */
export function operations(doc) {
  const out = [];
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    const pathItem = deref(doc, rawItem);
    if (!pathItem || typeof pathItem !== 'object') continue;
    for (const method of HTTP_METHODS) {
      const operation = deref(doc, pathItem[method]);
      if (!operation || typeof operation !== 'object') continue;
      out.push({
        path,
        method,
        operationId: operation.operationId,
        pathItem,
        operation,
        parameters: parametersOf(doc, pathItem, operation),
      });
    }
  }
  return out;
}

/**
 * The parameters of an operation: the path item's and the operation's, resolved, the operation's
 * replacing a path-level one of the same `in` and `name` (as OpenAPI says).
 * @param {object} doc the bundled document
 * @param {{ parameters?: unknown[] }} pathItem
 * @param {{ parameters?: unknown[] }} operation
 * @returns {object[]}
 */
export function parametersOf(doc, pathItem, operation) {
  const byKey = new Map();
  for (const raw of [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])]) {
    const p = deref(doc, raw);
    byKey.set(p && p.in && p.name ? `${p.in}:${p.name}` : byKey.size, p);
  }
  return [...byKey.values()];
}

export { exampleOf, mediaKind, requestBodyOf } from './content.js';
