// A small differ for bundled OpenAPI 3.1 documents that lists the changes that break clients in
// the field. Own code because no tool we can install passes scripts/test/breaking.test.mjs:
// openapi-diff reads Swagger 2.0 / OpenAPI 3.0 only; oasdiff and openapi-changes are Go binaries
// fetched at install time. Spiked on 2026-11-24 against the 16 cases of that test (a case passes
// when the tool calls it breaking exactly when the test does), local $refs inlined first as
// Optic's CLI does:
// - @useoptic/openapi-utilities 1.0.9 compareSpecs with @useoptic/standard-rulesets 1.0.9
//   BreakingChangesRuleset (rulesets-base 1.0.9): 11 of 16. Misses an operationId renamed, a path
//   parameter renamed, a request body made required and an enum value removed from a response;
//   calls two additions breaking (an enum value added to a response, a request field widened
//   from integer to number, "not to be narrowed"). A removed operation or 200 response comes out
//   as one finding per response property (9 and 7). It also loads only with one ajv in the tree
//   (ajv-errors 3 and spectral-core's ajv 8.20 fail to compile otherwise) and pulls in openai.
// - api-smart-diff 1.0.6 apiCompare (documents OpenAPI 3.0): 12 of 16. Misses an operationId
//   renamed, a path parameter renamed and a response field removed (through $ref and allOf, in a
//   get and a list: nothing breaking); calls the additions breaking (the response enum value, the
//   widened request field and a response field narrowed from string|null to string).
// Neither passes, so the diff engine stays; `verdict` is the policy on top of it.
import { deref, operations as listOperations } from '@svc/oas';
import { keywordOf, schemaParts } from '@svc/oas/schema';
import { bumpOf, expectedBump, isSemver, SPEC_PACKAGE } from './release.mjs';

const MAX_DEPTH = 24;

/**
 * One change that breaks existing clients.
 * @typedef {object} BreakingChange
 * @property {string} rule      what kind of break: `operation-removed`, `operation-id-renamed`,
 *   `path-parameter-renamed`, `parameter-newly-required`, `request-body-newly-required`,
 *   `request-field-newly-required`, `request-field-retyped`, `response-removed`,
 *   `response-field-removed`, `response-field-retyped`, `enum-value-removed`
 * @property {string} operation `METHOD /path (operationId)` of the base document
 * @property {string} where     the parameter, body or field concerned (`response 200 application/json: entities[].uuid`)
 * @property {string} message   one line that says what changed and why it breaks clients
 */

/**
 * Compares two bundled OpenAPI 3.x documents (parsed JSON/YAML, local `$ref`s only) and returns
 * the changes from `before` to `after` that break clients written against `before`:
 * an operation or operationId removed or renamed, a path parameter renamed, a request parameter,
 * body or field newly required, a request field retyped so old values are refused, a response or
 * response field removed, a response field retyped to values old clients do not expect, and an enum
 * value removed (in a request it is refused; in a response the generated client's union type
 * loses a member that client code may compare against).
 *
 * Not compared: the members of `oneOf`/`anyOf` (only their common shape is not diffed), headers,
 * security, servers. Additions are never breaking here.
 *
 * @param {Record<string, any>} before the base document
 * @param {Record<string, any>} after  the changed document
 * @returns {BreakingChange[]} in document order; empty when nothing breaks
 * @throws {TypeError} when either argument is not an object with `paths`
 */
export function breakingChanges(before, after) {
  for (const [name, doc] of [
    ['before', before],
    ['after', after],
  ]) {
    if (!doc || typeof doc !== 'object' || !doc.paths || typeof doc.paths !== 'object') {
      throw new TypeError(`breakingChanges: "${name}" must be an OpenAPI document with a "paths" object`);
    }
  }
  const out = [];
  const oldOps = operations(before);
  const newOps = operations(after);
  const newByKey = new Map(newOps.map((op) => [op.key, op]));
  const newByTemplate = new Map(newOps.map((op) => [`${op.method} ${op.template}`, op]));
  const newById = new Map(newOps.filter((op) => op.id).map((op) => [op.id, op]));

  for (const old of oldOps) {
    const label = `${old.method.toUpperCase()} ${old.path}${old.id ? ` (${old.id})` : ''}`;
    const add = (rule, where, message) => out.push({ rule, operation: label, where, message });
    let now = newByKey.get(old.key);
    if (!now) {
      const sameShape = newByTemplate.get(`${old.method} ${old.template}`);
      if (sameShape) {
        const was = old.pathParams.join(', ');
        const is = sameShape.pathParams.join(', ');
        add(
          'path-parameter-renamed',
          `path ${sameShape.path}`,
          `path parameter(s) {${was}} renamed to {${is}} (${old.path} -> ${sameShape.path}); clients build the old URL and names`,
        );
        now = sameShape;
      } else {
        const moved = old.id && newById.get(old.id);
        add(
          'operation-removed',
          `path ${old.path}`,
          moved
            ? `operation moved to ${moved.method.toUpperCase()} ${moved.path}; clients still call ${old.method.toUpperCase()} ${old.path}`
            : `operation removed; clients that call ${old.method.toUpperCase()} ${old.path} get an error`,
        );
        continue;
      }
    }
    if (old.id && now.id !== old.id) {
      add(
        'operation-id-renamed',
        'operationId',
        `operationId "${old.id}" ${now.id ? `renamed to "${now.id}"` : 'removed'}; generated clients and code samples name the operation by it`,
      );
    }
    compareParameters(before, after, old, now, add);
    compareRequestBody(before, after, old.op.requestBody, now.op.requestBody, add);
    compareResponses(before, after, old.op.responses, now.op.responses, add);
  }
  return out;
}

/** Every operation of a document with its key, path template shape and parameters by `in:name`. */
function operations(doc) {
  return listOperations(doc).map(({ method, path, operationId, operation, parameters }) => ({
    key: `${method} ${path}`,
    method,
    path,
    template: path.replace(/\{[^}]*\}/g, '{}'),
    pathParams: [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]),
    id: operationId,
    op: operation,
    params: new Map(parameters.filter((p) => p?.name && p.in).map((p) => [`${p.in}:${p.name}`, p])),
  }));
}

function compareParameters(before, after, old, now, add) {
  for (const [key, p] of now.params) {
    if (p.in === 'path') continue; // path parameters follow the template, compared above
    const was = old.params.get(key);
    if (p.required && !was?.required) {
      add(
        'parameter-newly-required',
        `${p.in} parameter ${p.name}`,
        `${p.in} parameter "${p.name}" is ${was ? 'now' : 'new and'} required; clients that do not send it are refused`,
      );
    }
  }
  for (const [key, was] of old.params) {
    let p = now.params.get(key);
    if (!p && was.in === 'path') {
      // a renamed path parameter is followed by its position in the template
      p = now.params.get(`path:${now.pathParams[old.pathParams.indexOf(was.name)] ?? ''}`);
    }
    if (!p) continue;
    compareSchemas(
      before,
      after,
      was.schema,
      p.schema,
      `${was.in} parameter ${was.name}`,
      'request',
      add,
      new Set(),
      0,
    );
  }
}

function compareRequestBody(before, after, oldRaw, newRaw, add) {
  const was = deref(before, oldRaw);
  const is = deref(after, newRaw);
  if (!is) return;
  if (is.required && !was?.required) {
    add(
      'request-body-newly-required',
      'request body',
      `the request body is ${was ? 'now' : 'new and'} required; clients that send none are refused`,
    );
  }
  if (!was) return;
  for (const [type, media] of Object.entries(was.content ?? {})) {
    const next = is.content?.[type];
    if (!next) continue; // a media type dropped from a request is not in the issue's list
    compareSchemas(before, after, media.schema, next.schema, `request ${type}`, 'request', add, new Set(), 0);
  }
}

function compareResponses(before, after, oldRaw, newRaw, add) {
  const was = deref(before, oldRaw) ?? {};
  const is = deref(after, newRaw) ?? {};
  for (const [status, raw] of Object.entries(was)) {
    if (!/^2/.test(status)) continue; // error bodies are read by status, not by field
    const old = deref(before, raw);
    const now = deref(after, is[status]);
    if (!now) {
      add(
        'response-removed',
        `response ${status}`,
        `response ${status} removed; clients that handle it get an undeclared status`,
      );
      continue;
    }
    for (const [type, media] of Object.entries(old?.content ?? {})) {
      const next = now.content?.[type];
      if (!next) {
        add(
          'response-removed',
          `response ${status} ${type}`,
          `response ${status} no longer returns ${type}; clients that parse it break`,
        );
        continue;
      }
      compareSchemas(
        before,
        after,
        media.schema,
        next.schema,
        `response ${status} ${type}`,
        'response',
        add,
        new Set(),
        0,
      );
    }
  }
}

/**
 * Compares two schemas in the direction that matters: in a request, what old clients send must
 * still be accepted; in a response, what new servers send must still be what old clients expect.
 */
function compareSchemas(before, after, oldRaw, newRaw, where, side, add, seen, depth, field = '') {
  if (!oldRaw || !newRaw || depth > MAX_DEPTH) return;
  const pairKey = `${refOf(oldRaw)}|${refOf(newRaw)}|${side}`;
  if (refOf(oldRaw) && seen.has(pairKey)) return;
  const nextSeen = new Set(seen).add(pairKey);
  const was = flatten(before, oldRaw);
  const is = flatten(after, newRaw);
  const at = field ? `${where}: ${field}` : where;
  const name = field || where;

  const oldTypes = types(was);
  const newTypes = types(is);
  if (oldTypes && newTypes) {
    const lost =
      side === 'request'
        ? [...oldTypes].filter((t) => !covers(newTypes, t))
        : [...newTypes].filter((t) => !covers(oldTypes, t));
    if (lost.length) {
      add(
        `${side}-field-retyped`,
        at,
        `${name} changed type from ${[...oldTypes].join('|')} to ${[...newTypes].join('|')}; ${side === 'request' ? `a ${lost.join('|')} that clients send is refused` : `clients do not expect a ${lost.join('|')}`}`,
      );
      return;
    }
  }
  if (Array.isArray(was.enum) && Array.isArray(is.enum)) {
    const removed = was.enum.filter(
      (v) => !is.enum.some((w) => Object.is(w, v) || JSON.stringify(w) === JSON.stringify(v)),
    );
    if (removed.length) {
      add(
        'enum-value-removed',
        at,
        `${name} no longer allows ${removed.map((v) => JSON.stringify(v)).join(', ')}; ${side === 'request' ? 'clients that send it are refused' : 'client code that compares against it no longer type-checks'}`,
      );
    }
  }
  if (side === 'request') {
    const wasRequired = new Set(was.required ?? []);
    for (const prop of is.required ?? []) {
      if (!wasRequired.has(prop)) {
        const f = join(field, prop);
        add(
          'request-field-newly-required',
          `${where}: ${f}`,
          `${f} is ${was.properties?.[prop] ? 'now' : 'new and'} required; clients that omit it are refused`,
        );
      }
    }
  }
  for (const [prop, sub] of Object.entries(was.properties ?? {})) {
    const next = is.properties?.[prop];
    const f = join(field, prop);
    if (!next) {
      // a field dropped from a request schema is still accepted (objects are open here)
      if (side === 'response')
        add(
          'response-field-removed',
          `${where}: ${f}`,
          `${f} removed from the response; clients that read it get undefined`,
        );
      continue;
    }
    compareSchemas(before, after, sub, next, where, side, add, nextSeen, depth + 1, f);
  }
  if (was.items && is.items)
    compareSchemas(before, after, was.items, is.items, where, side, add, nextSeen, depth + 1, `${field}[]`);
}

function join(field, prop) {
  return field ? `${field}.${prop}` : prop;
}

/** The set of JSON types a schema allows, or undefined when it does not say. */
function types(schema) {
  if (schema.type === undefined) {
    if (schema.const !== undefined) return new Set([jsonType(schema.const)]);
    return undefined;
  }
  const list = Array.isArray(schema.type) ? schema.type : [schema.type];
  const set = new Set(list);
  if (schema.nullable === true) set.add('null'); // OpenAPI 3.0 bundles
  return set;
}

function jsonType(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (Number.isInteger(v)) return 'integer';
  return typeof v;
}

function covers(set, type) {
  return set.has(type) || (type === 'integer' && set.has('number'));
}

/**
 * A schema with its `$ref` resolved and its `allOf` members merged (properties, required, type, enum, items).
 * @param {object} doc
 * @param {unknown} raw
 * @returns {Record<string, any>}
 */
function flatten(doc, raw) {
  const parts = schemaParts(doc, raw);
  if (parts.length <= 1) return parts[0] ?? {};
  /** @type {Record<string, any>} */
  const merged = {
    ...parts[0],
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
    required: parts.flatMap((p) => p.required ?? []),
  };
  delete merged.allOf;
  for (const keyword of ['type', 'enum', 'items']) {
    const value = keywordOf(parts, keyword);
    if (value !== undefined) merged[keyword] = value;
  }
  return merged;
}
function refOf(raw) {
  return raw && typeof raw === 'object' && typeof raw.$ref === 'string' ? raw.$ref : '';
}

/**
 * The additions from `before` to `after` that call for a minor version: operations, parameters,
 * responses and media types of an operation, component schemas, their properties and enum values.
 * Changes inside inline (non-component) schemas are not listed.
 *
 * @param {Record<string, any>} before the base document (bundled, local `$ref`s only)
 * @param {Record<string, any>} after  the changed document
 * @returns {string[]} one line per addition (`operation POST /tasks/{uuid}/abort`,
 *   `schema Image: property checksum`), in document order
 */
export function additions(before, after) {
  const out = [];
  const oldOps = new Map(operations(before).map((op) => [op.key, op]));
  for (const now of operations(after)) {
    const label = `${now.method.toUpperCase()} ${now.path}`;
    const old = oldOps.get(now.key);
    if (!old) {
      out.push(`operation ${label}`);
      continue;
    }
    for (const key of now.params.keys())
      if (!old.params.has(key)) out.push(`${label}: parameter ${key.replace(':', ' ')}`);
    const [wasRes, isRes] = [deref(before, old.op.responses) ?? {}, deref(after, now.op.responses) ?? {}];
    for (const status of Object.keys(isRes)) if (!(status in wasRes)) out.push(`${label}: response ${status}`);
    const [wasBody, isBody] = [deref(before, old.op.requestBody), deref(after, now.op.requestBody)];
    for (const type of Object.keys(isBody?.content ?? {}))
      if (!wasBody?.content?.[type]) out.push(`${label}: request ${type}`);
  }
  const [was, is] = [before.components?.schemas ?? {}, after.components?.schemas ?? {}];
  for (const [name, raw] of Object.entries(is)) {
    if (!was[name]) {
      out.push(`schema ${name}`);
      continue;
    }
    const [a, b] = [flatten(before, was[name]), flatten(after, raw)];
    for (const prop of Object.keys(b.properties ?? {}))
      if (!a.properties?.[prop]) out.push(`schema ${name}: property ${prop}`);
    for (const v of Array.isArray(b.enum) ? b.enum : []) {
      if (!(a.enum ?? []).some((w) => JSON.stringify(w) === JSON.stringify(v)))
        out.push(`schema ${name}: enum value ${JSON.stringify(v)}`);
    }
  }
  return out;
}

/**
 * One API's verdict for `npm run breaking`: its breaking changes and additions, the bump of
 * `info.version` they call for (major, minor, patch), and whether it passes: `info.version` is
 * semver, and a breaking change comes with a major bump of it and an added changeset that releases
 * `SPEC_PACKAGE` as major and names the API in its summary (what breaks).
 *
 * @param {string} name the API (`central`)
 * @param {Record<string, any>} old  the base's bundled document
 * @param {Record<string, any>} now  the working tree's bundled document
 * @param {import('./release.mjs').Changeset[]} changesets the changesets added since the base
 * @returns {{ ok: boolean, lines: string[] }} `lines`: the report, to print
 */
export function verdict(name, old, now, changesets) {
  const changes = breakingChanges(old, now);
  const added = additions(old, now);
  const lines = [`${name}: ${changes.length} breaking change(s), ${added.length} addition(s)`];
  for (const c of changes) lines.push(`  BREAKING ${c.rule}  ${c.operation}  ${c.where}: ${c.message}`);
  for (const a of added.slice(0, 10)) lines.push(`  added ${a}`);
  if (added.length > 10) lines.push(`  added ... ${added.length - 10} more`);
  const [was, is] = [old.info?.version, now.info?.version];
  const unchanged = JSON.stringify(old) === JSON.stringify(now);
  const want = unchanged ? 'none' : expectedBump({ breaking: changes.length, additions: added.length });
  const semver = isSemver(is);
  const bump = semver && isSemver(was) ? bumpOf(was, is) : undefined; // a base before semver: no bump to tell
  if (!semver) lines.push(`  info.version "${is}" is not semver (MAJOR.MINOR.PATCH, e.g. 3.1.0)`);
  if (want !== 'none')
    lines.push(`  expects a ${want} bump of info.version (${was} -> ${is}${bump ? `: ${bump}` : ''})`);
  if (!changes.length) return { ok: semver, lines };
  const covering = changesets.filter(
    (c) =>
      c.releases.some((r) => r.name === SPEC_PACKAGE && r.type === 'major') &&
      new RegExp(`\\b${name}\\b`, 'i').test(c.summary),
  );
  const missing = [];
  if (bump !== 'major') missing.push(`a major bump of info.version in spec/${name} (now ${was} -> ${is})`);
  if (!covering.length)
    missing.push(`a changeset ("${SPEC_PACKAGE}": major) whose summary names "${name}" and says what breaks`);
  if (missing.length) {
    lines.push(`  BREAKING without ${missing.join(' and ')}`);
    return { ok: false, lines };
  }
  lines.push(`  breaking changes released as ${was} -> ${is}, described in ${covering.map((c) => c.file).join(', ')}`);
  return { ok: semver, lines };
}
