// Following local `$ref`s: bundles (dist/<api>.json) hold only local ones, so that is all this follows.
// Its own module so that content.js, index.js and schema.js import it without a cycle.

const MAX_HOPS = 64;

/**
 * @param {unknown} value
 * @returns {value is Record<string, any>} true for plain objects (not arrays, not null)
 */
export const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A local reference as a path: `#/components/schemas/A~1B` -> `['components', 'schemas', 'A/B']`
 * (percent-decoded, then `~1` and `~0` unescaped, as JSON Pointer in a URI fragment says).
 * @param {unknown} ref
 * @returns {string[] | null} `null` for a reference that is not local or not a valid pointer
 */
export function pointerToPath(ref) {
  if (typeof ref !== 'string' || !ref.startsWith('#')) return null;
  const fragment = ref.slice(1);
  if (fragment === '') return [];
  if (!fragment.startsWith('/')) return null;
  try {
    return fragment
      .slice(1)
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
  } catch {
    return null;
  }
}

/**
 * Follows a local `$ref`, and chains of them, without throwing: for tools that report where a value
 * lives and must survive a broken document (the house Spectral rules).
 * @param {unknown} doc  the whole document
 * @param {unknown} node a node of `doc`, possibly `{ $ref }`
 * @param {Array<string | number> | null} [path] where `node` lives
 * @returns {{ value: any, path: Array<string | number> | null, problem: string | undefined }}
 *   `value` the target (`node` itself when it is not a `$ref`), `path` where it lives; `problem` says
 *   why `value` is `undefined`: a reference that is not local, does not resolve or loops
 */
export function resolveRef(doc, node, path = null) {
  let value = /** @type {any} */ (node);
  let where = path;
  for (let hops = 0; isObject(value) && typeof value.$ref === 'string'; hops++) {
    const ref = value.$ref;
    if (hops === MAX_HOPS)
      return { value: undefined, path: where, problem: `$ref ${ref}: more than ${MAX_HOPS} hops, a cycle` };
    const target = pointerToPath(ref);
    if (target === null)
      return {
        value: undefined,
        path: where,
        problem: `$ref ${ref}: only local references (#/...) are supported in a bundle`,
      };
    value = target.reduce(
      (/** @type {any} */ node, key) => (node !== null && typeof node === 'object' ? node[key] : undefined),
      doc,
    );
    where = target;
    if (value === undefined) return { value, path: where, problem: `$ref ${ref} does not resolve` };
  }
  return { value, path: where, problem: undefined };
}

/**
 * Follows a local `$ref` (`#/components/...`), and chains of them, to the object it names.
 * A value that is not a `$ref` object is returned as it is.
 * @template [T=any]
 * @param {object} doc   the bundled document
 * @param {unknown} value a node of `doc`, possibly `{ $ref }`
 * @returns {T}
 * @throws {Error} for a `$ref` that is not local, does not resolve, or loops
 */
export function deref(doc, value) {
  const { value: target, problem } = resolveRef(doc, value);
  if (problem) throw new Error(problem);
  return target;
}
