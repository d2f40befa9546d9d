// The part of a document that one node needs: what the explorer hands Swagger UI's resolver.

import { HTTP_METHODS } from './methods.js';
import { isObject, pointerToPath } from './ref.js';

/** @type {Set<string>} */
const OPERATION_KEYS = new Set(HTTP_METHODS);
// Keywords that make a JSON Schema's `$ref`s resolve against something other than the document.
const SCOPE_KEYWORDS = ['$id', '$anchor', '$dynamicAnchor', '$dynamicRef', '$recursiveRef', '$recursiveAnchor'];

/**
 * The part of a document that the node at `path` needs: the document's top-level members other than
 * `paths`, `webhooks` and `components`; the node, in place; and the local references it reaches,
 * transitively, as whole `components/<type>/<name>` entries (`discriminator.mapping` and a link's
 * `operationRef` too). Under a path item (`['paths', '/images', 'get']`) the path item's own
 * members (`parameters`, `servers`, ...) are kept and its other operations left out. Resolving
 * `path` in the result gives what resolving it in `doc` gives, from a fraction of the document: the
 * explorer's Swagger UI resolves one operation at a time, and its OpenAPI 3.1 resolver reads all of
 * the document it is handed.
 * @param {Record<string, any>} doc an OpenAPI document
 * @param {string[]} path where the node lives: `['paths', '/images', 'get']`,
 *   `['components', 'securitySchemes']`, `['components', 'schemas', 'Image']`
 * @returns {Record<string, any>} a new document sharing `doc`'s values; `doc` itself when it cannot
 *   tell what is needed: `path` outside `paths`, `webhooks` and `components` or naming nothing, a
 *   reference that is not `#/components/<type>/<name>...`, or a schema keyword such as `$id` or
 *   `$dynamicRef` that changes how references resolve
 */
export function subdocument(doc, path) {
  const [top, name, member] = path;
  const section =
    isObject(doc) && (top === 'paths' || top === 'webhooks' || top === 'components') ? doc[top] : undefined;
  if (!isObject(section) || (top !== 'components' && !isObject(section[name]))) return doc;
  /** @type {Record<string, any>} */
  const out = {};
  for (const [key, value] of Object.entries(doc))
    if (key !== 'paths' && key !== 'webhooks' && key !== 'components') out[key] = value;
  /** @type {unknown[]} */
  const pending = [];
  /** @param {string} type @param {string} entry */
  const take = (type, entry) => {
    const value = doc.components?.[type]?.[entry];
    if (value === undefined) return false;
    out.components ??= {};
    out.components[type] ??= {};
    if (!(entry in out.components[type])) {
      out.components[type][entry] = value;
      pending.push(value);
    }
    return true;
  };
  if (top === 'components') {
    if (!isObject(section[name])) return doc;
    const entries = path.length >= 3 ? [member] : Object.keys(section[name]);
    for (const entry of entries) if (!take(name, entry)) return doc;
  } else {
    const item = section[name];
    /** @type {Record<string, any>} */
    const kept = {};
    for (const [key, value] of Object.entries(item))
      if (!OPERATION_KEYS.has(key) || key === member || path.length < 3) kept[key] = value;
    out[top] = { [name]: kept };
    pending.push(kept);
  }
  const seen = new Set();
  /** @param {unknown} ref @returns {boolean} false when `ref` is not `#/components/<type>/<name>...` */
  const follow = (ref) => {
    const target = pointerToPath(ref);
    return target !== null && target.length >= 3 && target[0] === 'components' && take(target[1], target[2]);
  };
  while (pending.length > 0) {
    const value = pending.pop();
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    const node = /** @type {Record<string, any>} */ (value);
    if (SCOPE_KEYWORDS.some((keyword) => keyword in node)) return doc;
    if (typeof node.$ref === 'string' && !follow(node.$ref)) return doc;
    // a Link Object's operationRef names an operation, which the resolver may look up
    if (typeof node.operationRef === 'string' && !follow(node.operationRef)) return doc;
    if (isObject(node.discriminator) && isObject(node.discriminator.mapping))
      for (const ref of Object.values(node.discriminator.mapping))
        if (typeof ref === 'string' && ref.startsWith('#') && !follow(ref)) return doc;
    for (const child of Object.values(node)) if (child !== null && typeof child === 'object') pending.push(child);
  }
  return out;
}
