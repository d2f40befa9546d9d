// The fields a bundle's schemas declare that a JSON value fills, for the coverage test of the
// simulator against its spec (test/spec-coverage.test.js): the spec's own examples say which fields
// an answer carries, and the simulator's answer for an equivalent entity must carry them too.
import { exampleOf, isObject, resolveRef } from '@svc/oas';

const SCHEMA_REF = '#/components/schemas/';
const MAX_HOPS = 64;

/**
 * A field of a value: where it is in the value and which schema declares it.
 * @typedef {object} Field
 * @property {string} path      in the value, arrays as `[]` and map keys as `*`: `entities[].status.resources.size_bytes`
 * @property {string} declared  the component schema that declares it and the path in that schema:
 *   `ImageStatusResources.size_bytes`, `ClusterStatusConfig.ca_certificate_list[].ca_name`
 */

/**
 * Every field of `value` that `schema` declares, through `$ref`, `allOf`, `oneOf`/`anyOf` (the
 * properties of every branch), `items`, and `additionalProperties` (a map's keys as `*`). A field
 * no schema declares is not followed.
 * @param {any} doc  the bundle
 * @param {unknown} schema
 * @param {unknown} value
 * @returns {Map<string, string>} path -> declared (see Field)
 */
export function declaredFields(doc, schema, value) {
  /** @type {Map<string, string>} */
  const out = new Map();
  walk(doc, schema, value, '', { name: '(inline)', at: '' }, out, 0);
  return out;
}

/**
 * @param {any} doc
 * @param {unknown} schema
 * @param {unknown} value
 * @param {string} path  the value's path (`''` at the top)
 * @param {{ name: string, at: string }} owner  the component schema being walked and the path in it
 * @param {Map<string, string>} out
 * @param {number} hops  schemas followed without going into the value (`$ref`, `allOf`...), against cycles
 */
function walk(doc, schema, value, path, owner, out, hops) {
  if (!isObject(schema) || hops > MAX_HOPS) return;
  if (typeof schema.$ref === 'string') {
    const { value: target } = resolveRef(doc, { $ref: schema.$ref });
    const name = schema.$ref.startsWith(SCHEMA_REF) ? schema.$ref.slice(SCHEMA_REF.length) : undefined;
    walk(doc, target, value, path, name ? { name, at: '' } : owner, out, hops + 1);
  }
  for (const keyword of ['allOf', 'oneOf', 'anyOf'])
    for (const member of Array.isArray(schema[keyword]) ? schema[keyword] : [])
      walk(doc, member, value, path, owner, out, hops + 1);
  const join = (base, part) => (base === '' ? part : part.startsWith('[') ? `${base}${part}` : `${base}.${part}`);
  if (Array.isArray(value)) {
    for (const item of value)
      walk(doc, schema.items, item, join(path, '[]'), { ...owner, at: join(owner.at, '[]') }, out, 0);
    return;
  }
  if (!isObject(value)) return;
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [name, child] of Object.entries(value)) {
    const declared =
      properties[name] ?? (isObject(schema.additionalProperties) ? schema.additionalProperties : undefined);
    if (declared === undefined) continue;
    const part = name in properties ? name : '*';
    const at = join(owner.at, part);
    out.set(join(path, part), `${owner.name}.${at}`);
    walk(doc, declared, child, join(path, part), { ...owner, at }, out, 0);
  }
}

/**
 * Every JSON response example of the bundle's operations that answer 2xx: what the coverage test
 * compares the simulator's answers with.
 * @param {any} doc  the bundle
 * @param {ReturnType<typeof import('@svc/oas').operations>} ops  its operations
 * @returns {{ operationId: string, status: string, name: string, schema: unknown, value: unknown }[]}
 */
export function responseExamples(doc, ops) {
  const found = [];
  for (const { operationId, operation } of ops) {
    for (const [status, raw] of Object.entries(operation.responses ?? {})) {
      if (!/^2\d\d$/.test(status)) continue;
      const media = resolveRef(doc, raw).value?.content?.['application/json'];
      if (!media) continue;
      const named = Object.entries(media.examples ?? {}).map(([name, ex]) => [name, resolveRef(doc, ex).value?.value]);
      if (named.length === 0 && exampleOf(doc, media) !== undefined) named.push(['(example)', exampleOf(doc, media)]);
      for (const [name, value] of named)
        found.push({ operationId: String(operationId), status, name: String(name), schema: media.schema, value });
    }
  }
  return found;
}

/**
 * The fields an example fills that the answer lacks, each with the exception that excuses it, if any.
 * A field is excused when it, or a field it sits in, is declared by an excepted schema property.
 * @param {Map<string, string>} example  declaredFields of the example
 * @param {Map<string, string>} answer   declaredFields of the simulator's answer
 * @param {Record<string, unknown>} exceptions  keyed by `declared` (`ImageStatusResources.image_placement_policy_state_list`)
 * @returns {{ path: string, declared: string, excusedBy: string | undefined }[]}
 */
export function missingFields(example, answer, exceptions) {
  const missing = [];
  for (const [path, declared] of example) {
    if (answer.has(path)) continue;
    let excusedBy;
    // the field itself, then each field it sits in
    for (let p = path; p !== '' && excusedBy === undefined; p = parentOf(p)) {
      const d = example.get(p);
      if (d !== undefined && Object.hasOwn(exceptions, d)) excusedBy = d;
    }
    missing.push({ path, declared, excusedBy });
  }
  return missing;
}

/** `a.b[].c` -> `a.b[]` -> `a.b` -> `a` -> `''`. */
function parentOf(path) {
  if (path.endsWith('[]')) return path.slice(0, -2);
  const dot = path.lastIndexOf('.');
  return dot < 0 ? '' : path.slice(0, dot);
}
