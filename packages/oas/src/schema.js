// Reading the schemas of an OpenAPI 3.1 document without throwing: where each schema is written,
// the parts whose keywords all apply (through `$ref` and `allOf`), and their properties. For tools
// that report where a value lives and must survive a broken document (the house Spectral rules).
import traverse from 'json-schema-traverse';
import { mediaKind } from './content.js';
import { isObject, resolveRef } from './ref.js';

// JSON Schema 2020-12 (OpenAPI 3.1) keywords that json-schema-traverse 1.0 does not know yet (its
// keyword tables are exported to be extended; its types do not declare them).
const tables = /** @type {Record<'keywords' | 'arrayKeywords' | 'propsKeywords', Record<string, boolean>>} */ (
  /** @type {unknown} */ (traverse)
);
Object.assign(tables.keywords, { unevaluatedItems: true, unevaluatedProperties: true });
Object.assign(tables.arrayKeywords, { prefixItems: true });
Object.assign(tables.propsKeywords, { dependentSchemas: true });

/** @typedef {Array<string | number>} Path where a node lives in the document */
/** @typedef {Generator<[unknown, Path]>} Schemas [schema, path] pairs */

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
    const { value } = resolveRef(doc, { $ref });
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

/**
 * Visits a schema and all its subschemas, depth first, without following `$ref` (referenced schemas
 * are visited where they are defined). json-schema-traverse, with the 2020-12 keywords added.
 * @param {unknown} schema
 * @param {Array<string | number>} path where `schema` lives
 * @param {(schema: Record<string, any>, path: Array<string | number>) => void} visit
 *   `path` with array indexes as numbers (`[..., 'allOf', 1]`)
 */
export function walkSchema(schema, path, visit) {
  if (!isObject(schema)) return;
  /** @type {Map<string, Array<string | number>>} */
  const at = new Map([['', path]]);
  traverse(schema, {
    allKeys: false,
    cb: (sub, pointer, _root, parentPointer, keyword, _parent, index) => {
      /** @type {Path} */
      const here =
        pointer === '' || keyword === undefined
          ? path
          : [...(at.get(parentPointer ?? '') ?? path), keyword, ...(index === undefined ? [] : [index])];
      at.set(pointer, here);
      if (isObject(sub)) visit(sub, here);
    },
  });
}

// Keys whose values are data or vendor extensions, never OpenAPI objects that hold schemas.
const DATA = new Set(['example', 'examples', 'value', 'default', 'enum', 'const']);

/**
 * Every place where a schema is written out (not referenced) in an OpenAPI 3.x document:
 * `components.schemas` and every `schema` of a parameter, header or media type, wherever it sits
 * (components, paths, callbacks, webhooks).
 * @param {any} doc
 * @returns {Schemas} [schema, path] pairs
 */
export function* schemaRoots(doc) {
  if (!isObject(doc)) return;
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  for (const [name, schema] of Object.entries(schemas)) yield [schema, ['components', 'schemas', name]];
  yield* schemasUnder(doc, []);
}

/**
 * @param {any} node an OpenAPI object or array
 * @param {Path} path where it lives
 * @returns {Schemas}
 */
function* schemasUnder(node, path) {
  for (const [key, value] of Object.entries(node)) {
    if (value === null || typeof value !== 'object' || DATA.has(key) || key.startsWith('x-')) continue;
    /** @type {Path} */
    const at = [...path, Array.isArray(node) ? Number(key) : key];
    if (key === 'schema' && isObject(value)) yield [value, at];
    else if (!(path.length === 1 && path[0] === 'components' && key === 'schemas')) yield* schemasUnder(value, at);
  }
}

/**
 * Calls `visit` for every property of every schema in the document.
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
