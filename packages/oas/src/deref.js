// Following local `$ref`s: bundles (dist/<api>.json) hold only local ones, so that is all it follows.
// Its own module so that content.js and index.js both import it without a cycle.

const MAX_HOPS = 64;

/**
 * Follows a local `$ref` (`#/components/...`), and chains of them, to the object it names.
 * A value that is not a `$ref` object is returned as it is.
 * @param {object} doc   the bundled document
 * @param {unknown} value a node of `doc`, possibly `{ $ref }`
 * @returns {any}
 * @throws {Error} for a `$ref` that is not local, does not resolve, or loops
 */
export function deref(doc, value) {
  let current = value;
  for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref;
    if (hops === MAX_HOPS) throw new Error(`$ref ${ref}: more than ${MAX_HOPS} hops, a cycle`);
    if (!ref.startsWith('#/')) throw new Error(`$ref ${ref}: only local references (#/...) are supported in a bundle`);
    current = ref
      .slice(2)
      .split('/')
      .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((node, key) => (node == null ? undefined : node[key]), doc);
    if (current === undefined) throw new Error(`$ref ${ref} does not resolve`);
  }
  return current;
}
