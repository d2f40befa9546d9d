/**
 * Shared helpers for the house rules (not a Spectral function itself, so it
 * is not listed under `functions:` in ruleset.yaml).
 *
 * The house rules run with `resolved: false` on the bundled document and
 * follow internal `$ref`s by hand. That way every finding is reported once,
 * at the place in `dist/<api>.yaml` that has to change (the property, the
 * shared component), instead of once per `$ref` that pulls it in.
 *
 * The HTTP methods and the media type kinds come from `@svc/oas` (Spectral's
 * bundler keeps package imports external). `deref` here is not `@svc/oas`'s:
 * a rule must report where a value lives and must not throw on a broken
 * document, so it returns the target's path and `unresolvable` instead.
 *
 * @module
 */
import { HTTP_METHODS, mediaKind } from '@svc/oas';

export { HTTP_METHODS };

/** A version path segment: `v` + digits, optionally `.digits` (`v3`, `v0.8`, `v2.0`). */
export const VERSION_SEGMENT = /^v\d+(?:\.\d+)?$/;

/** A templated path segment such as `{uuid}`. */
export const PARAM_SEGMENT = /^\{[^{}]+\}$/;

/**
 * @param {unknown} value
 * @returns {value is Record<string, any>} true for plain objects (not arrays, not null)
 */
export const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Turns an internal reference (`#/components/schemas/A~1B`) into a path
 * (`['components', 'schemas', 'A/B']`).
 *
 * @param {unknown} ref
 * @returns {string[] | null} null for external or malformed references
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
 * @param {unknown} root
 * @param {ReadonlyArray<string | number>} path
 * @returns {any} the value at `path`, or undefined
 */
export function getIn(root, path) {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = current[segment];
  }
  return current;
}

/**
 * Follows internal `$ref`s until a node that is not a reference.
 *
 * @param {unknown} doc the whole (unresolved) document
 * @param {unknown} node
 * @param {Array<string | number> | null} [path] where `node` lives
 * @returns {{ value: any, path: Array<string | number> | null, unresolvable: boolean }}
 *   `value` is undefined when the reference is external, dangling or circular;
 *   `path` is where `value` lives
 */
export function deref(doc, node, path = null) {
  const seen = new Set();
  let value = node;
  let where = path;
  while (isObject(value) && typeof value.$ref === 'string') {
    const target = pointerToPath(value.$ref);
    if (target === null || seen.has(value.$ref)) return { value: undefined, path: where, unresolvable: true };
    seen.add(value.$ref);
    value = getIn(doc, target);
    where = target;
  }
  return { value, path: where, unresolvable: value === undefined };
}

/**
 * The parts of a schema whose keywords all apply to the instance: the schema
 * itself (without `$ref`), the schema it references, and its `allOf` members,
 * recursively and dereferenced.
 *
 * @param {unknown} doc
 * @param {unknown} schema
 * @param {Set<unknown>} [seen]
 * @returns {Array<Record<string, any>>}
 */
export function schemaParts(doc, schema, seen = new Set()) {
  if (!isObject(schema) || seen.has(schema)) return [];
  seen.add(schema);
  const parts = [];
  if (typeof schema.$ref === 'string') {
    const { $ref, ...siblings } = schema;
    if (Object.keys(siblings).length > 0) parts.push(siblings);
    const { value } = deref(doc, { $ref });
    parts.push(...schemaParts(doc, value, seen));
    return parts;
  }
  parts.push(schema);
  if (Array.isArray(schema.allOf)) {
    for (const member of schema.allOf) parts.push(...schemaParts(doc, member, seen));
  }
  return parts;
}

/**
 * @param {Array<Record<string, any>>} parts from {@link schemaParts}
 * @param {string} keyword
 * @returns {any} the first value of `keyword` among the parts
 */
export function keywordOf(parts, keyword) {
  for (const part of parts) {
    if (part[keyword] !== undefined) return part[keyword];
  }
  return undefined;
}

/**
 * True when the schema's `type` is `expected`, or a type list of `expected`
 * plus `"null"` (OpenAPI 3.1 nullability).
 *
 * @param {Array<Record<string, any>>} parts
 * @param {string} expected
 */
export function hasType(parts, expected) {
  const type = keywordOf(parts, 'type');
  if (type === expected) return true;
  return Array.isArray(type) && type.includes(expected) && type.every((t) => t === expected || t === 'null');
}

/**
 * True for a schema that only admits `null` (a nullability branch of an
 * `anyOf`/`oneOf`).
 *
 * @param {unknown} doc
 * @param {unknown} schema
 */
export function isNullSchema(doc, schema) {
  const parts = schemaParts(doc, schema);
  const type = keywordOf(parts, 'type');
  return type === 'null' || (Array.isArray(type) && type.length === 1 && type[0] === 'null');
}

/**
 * The `oneOf`/`anyOf` branches of a schema (through `$ref` and `allOf`), or
 * null when it has none.
 *
 * @param {Array<Record<string, any>>} parts
 * @returns {{ keyword: 'oneOf' | 'anyOf', branches: unknown[] } | null}
 */
export function alternativesOf(parts) {
  for (const keyword of /** @type {const} */ (['oneOf', 'anyOf'])) {
    const branches = keywordOf(parts, keyword);
    if (Array.isArray(branches) && branches.length > 0) return { keyword, branches };
  }
  return null;
}

/** Describes a schema keyword value for a message: `"integer"`, `absent`. */
export const show = (value) => (value === undefined ? 'absent' : JSON.stringify(value));

const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_KEYWORDS = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
];
const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

/**
 * Visits a schema and all its subschemas, depth first, without following
 * `$ref` (referenced schemas are visited where they are defined).
 *
 * @param {unknown} schema
 * @param {Array<string | number>} path
 * @param {(schema: Record<string, any>, path: Array<string | number>) => void} visit
 * @param {Set<unknown>} [stack] guards against cycles made by YAML aliases
 */
export function walkSchema(schema, path, visit, stack = new Set()) {
  if (!isObject(schema) || stack.has(schema)) return;
  stack.add(schema);
  visit(schema, path);
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    if (!isObject(schema[keyword])) continue;
    for (const [name, sub] of Object.entries(schema[keyword])) walkSchema(sub, [...path, keyword, name], visit, stack);
  }
  for (const keyword of SCHEMA_KEYWORDS) {
    const sub = schema[keyword];
    if (Array.isArray(sub))
      for (const [i, item] of sub.entries()) walkSchema(item, [...path, keyword, i], visit, stack);
    else walkSchema(sub, [...path, keyword], visit, stack);
  }
  for (const keyword of SCHEMA_LIST_KEYWORDS) {
    if (!Array.isArray(schema[keyword])) continue;
    for (const [i, sub] of schema[keyword].entries()) walkSchema(sub, [...path, keyword, i], visit, stack);
  }
  stack.delete(schema);
}

/** @returns {Generator<[unknown, Array<string | number>]>} */
function* contentSchemas(content, path) {
  if (!isObject(content)) return;
  for (const [mediaType, media] of Object.entries(content)) {
    if (isObject(media) && media.schema !== undefined) yield [media.schema, [...path, mediaType, 'schema']];
  }
}

/** Parameter and Header Objects: `schema` or `content`. Skips references. */
function* parameterSchemas(parameter, path) {
  if (!isObject(parameter) || parameter.$ref !== undefined) return;
  if (parameter.schema !== undefined) yield [parameter.schema, [...path, 'schema']];
  yield* contentSchemas(parameter.content, [...path, 'content']);
}

function* headersSchemas(headers, path) {
  if (!isObject(headers)) return;
  for (const [name, header] of Object.entries(headers)) yield* parameterSchemas(header, [...path, name]);
}

function* requestBodySchemas(body, path) {
  if (!isObject(body) || body.$ref !== undefined) return;
  yield* contentSchemas(body.content, [...path, 'content']);
}

function* responseSchemas(response, path) {
  if (!isObject(response) || response.$ref !== undefined) return;
  yield* contentSchemas(response.content, [...path, 'content']);
  yield* headersSchemas(response.headers, [...path, 'headers']);
}

function* pathItemSchemas(item, path) {
  if (!isObject(item) || item.$ref !== undefined) return;
  if (Array.isArray(item.parameters)) {
    for (const [i, parameter] of item.parameters.entries())
      yield* parameterSchemas(parameter, [...path, 'parameters', i]);
  }
  for (const method of HTTP_METHODS) {
    const operation = item[method];
    if (!isObject(operation)) continue;
    const at = [...path, method];
    if (Array.isArray(operation.parameters)) {
      for (const [i, parameter] of operation.parameters.entries()) {
        yield* parameterSchemas(parameter, [...at, 'parameters', i]);
      }
    }
    yield* requestBodySchemas(operation.requestBody, [...at, 'requestBody']);
    if (isObject(operation.responses)) {
      for (const [code, response] of Object.entries(operation.responses)) {
        yield* responseSchemas(response, [...at, 'responses', code]);
      }
    }
    if (isObject(operation.callbacks)) {
      for (const [name, callback] of Object.entries(operation.callbacks)) {
        if (!isObject(callback) || callback.$ref !== undefined) continue;
        for (const [expression, cbItem] of Object.entries(callback)) {
          yield* pathItemSchemas(cbItem, [...at, 'callbacks', name, expression]);
        }
      }
    }
  }
}

function* entries(map) {
  if (isObject(map)) yield* Object.entries(map);
}

/**
 * Every place where a schema is written out (not referenced) in an OpenAPI
 * 3.x document: `components.*` and inline schemas under `paths` and
 * `webhooks`.
 *
 * @param {any} doc
 * @returns {Generator<[unknown, Array<string | number>]>} [schema, path] pairs
 */
export function* schemaRoots(doc) {
  if (!isObject(doc)) return;
  const components = isObject(doc.components) ? doc.components : {};
  const c = ['components'];
  for (const [name, schema] of entries(components.schemas)) yield [schema, [...c, 'schemas', name]];
  for (const [name, p] of entries(components.parameters)) yield* parameterSchemas(p, [...c, 'parameters', name]);
  yield* headersSchemas(components.headers, [...c, 'headers']);
  for (const [name, b] of entries(components.requestBodies))
    yield* requestBodySchemas(b, [...c, 'requestBodies', name]);
  for (const [name, r] of entries(components.responses)) yield* responseSchemas(r, [...c, 'responses', name]);
  for (const [name, item] of entries(components.pathItems)) yield* pathItemSchemas(item, [...c, 'pathItems', name]);
  for (const [key, item] of entries(doc.paths)) yield* pathItemSchemas(item, ['paths', key]);
  for (const [key, item] of entries(doc.webhooks)) yield* pathItemSchemas(item, ['webhooks', key]);
}

/**
 * Calls `visit` for every property of every schema in the document.
 *
 * @param {any} doc
 * @param {(name: string, value: unknown, path: Array<string | number>) => void} visit
 *   `path` points at the property (`[..., 'properties', name]`)
 */
export function forEachProperty(doc, visit) {
  for (const [root, rootPath] of schemaRoots(doc)) {
    walkSchema(root, rootPath, (schema, path) => {
      if (!isObject(schema.properties)) return;
      for (const [name, value] of Object.entries(schema.properties)) visit(name, value, [...path, 'properties', name]);
    });
  }
}

/**
 * The operations of one Path Item Object (dereferenced).
 *
 * @param {any} doc
 * @param {unknown} pathItem
 * @param {Array<string | number>} path where the Path Item lives (`['paths', '/images']`)
 * @returns {Array<{ method: string, operation: Record<string, any>, path: Array<string | number> }>}
 */
export function operationsOf(doc, pathItem, path) {
  const { value: item } = deref(doc, pathItem);
  if (!isObject(item)) return [];
  return HTTP_METHODS.filter((method) => isObject(item[method])).map((method) => ({
    method,
    operation: item[method],
    path: [...path, method],
  }));
}

/**
 * True when a Content Object describes a binary payload (a binary media
 * type of `mediaKind`, or another non-JSON one whose schema has
 * `format: binary` / `contentMediaType` / `contentEncoding`).
 *
 * @param {unknown} doc
 * @param {unknown} content
 */
export function isBinaryContent(doc, content) {
  if (!isObject(content)) return false;
  return Object.entries(content).some(([mediaType, media]) => {
    const kind = mediaKind(mediaType);
    if (kind === 'binary') return true;
    if (kind === 'json' || !isObject(media)) return false;
    const parts = schemaParts(doc, media.schema);
    return (
      keywordOf(parts, 'format') === 'binary' ||
      keywordOf(parts, 'contentMediaType') !== undefined ||
      keywordOf(parts, 'contentEncoding') !== undefined
    );
  });
}

/** `['components', 'schemas', 'Image']` -> `components.schemas.Image` (for messages). */
export const printPath = (path) => path.map(String).join('.');
