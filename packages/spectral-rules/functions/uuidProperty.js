import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject, operationsOf, resolveRef } from '@svc/oas';
import { alternativesOf, forEachProperty, hasType, isNullSchema, keywordOf, schemaParts } from '@svc/oas/schema';
import { printPath, show } from './lib/house.js';

/** `uuid`, `image_uuid`, `owner_reference_uuid`. */
const UUID_NAME = /^(?:.+_)?uuid$/;
/** `uuid_list`, `member_uuid_list`. */
const UUID_LIST_NAME = /^(?:.+_)?uuid_list$/;

/**
 * Enforces the UUID convention (`svc-uuid`):
 *
 * - a schema property named `uuid` or `*_uuid` is a UUID string:
 *   `type: string`, `format: uuid` and a `pattern`;
 * - a property named `*_uuid_list` is an array whose `items` are UUID strings;
 * - a property whose value is a `oneOf`/`anyOf` is fine when every branch is
 *   a UUID string or an array of UUID strings (production sends
 *   `execution_context.task_uuid` as a string or a list); `{type: "null"}`
 *   branches and `type: [string, "null"]` are accepted as nullability;
 * - a path parameter named `uuid` or `*_uuid` has a UUID string schema.
 *
 * Why: UUIDs are the service's only identifiers. `format: uuid` lets the
 * client and the mock treat them as such, and the `pattern` makes Prism and
 * the contract tests reject malformed ids the way the service does.
 *
 * Given: `$` (with `resolved: false`); every property of every schema and
 * every path parameter (inline or in `components.parameters`) is checked
 * once, where it is written.
 */
export default createRulesetFunction(
  {
    input: { type: 'object' },
    options: null,
  },
  function uuidProperty(doc, _options, context) {
    const results = [];
    const report = (message, path) => results.push({ message, path: [...context.path, ...path] });

    forEachProperty(doc, (name, value, path) => {
      if (UUID_LIST_NAME.test(name)) {
        const problem = checkUuidList(doc, value);
        if (problem !== null) report(`property "${name}" must be an array of UUID strings; ${problem}`, path);
      } else if (UUID_NAME.test(name)) {
        const problem = checkUuid(doc, value);
        if (problem !== null)
          report(`property "${name}" must be a UUID string (type: string, format: uuid, pattern); ${problem}`, path);
      }
    });

    const checkParameter = (parameter, path, where) => {
      if (!isObject(parameter) || parameter.$ref !== undefined) return; // checked where it is defined
      if (parameter.in !== 'path' || typeof parameter.name !== 'string' || !UUID_NAME.test(parameter.name)) return;
      const problem = parameter.schema === undefined ? 'it has no schema' : checkUuid(doc, parameter.schema);
      if (problem === null) return;
      report(
        `path parameter "${parameter.name}" ${where} must be a UUID string (type: string, format: uuid, pattern); ${problem}`,
        parameter.schema === undefined ? path : [...path, 'schema'],
      );
    };

    const components = isObject(doc.components) ? doc.components : {};
    if (isObject(components.parameters)) {
      for (const [key, parameter] of Object.entries(components.parameters)) {
        const path = ['components', 'parameters', key];
        checkParameter(parameter, path, `(${printPath(path)})`);
      }
    }
    if (isObject(doc.paths)) {
      for (const [key, rawItem] of Object.entries(doc.paths)) {
        const { value: item } = resolveRef(doc, rawItem);
        if (!isObject(item)) continue;
        if (Array.isArray(item.parameters)) {
          for (const [i, p] of item.parameters.entries())
            checkParameter(p, ['paths', key, 'parameters', i], `of ${key}`);
        }
        for (const { method, operation, path } of operationsOf(doc, rawItem, ['paths', key])) {
          if (!Array.isArray(operation.parameters)) continue;
          for (const [i, p] of operation.parameters.entries())
            checkParameter(p, [...path, 'parameters', i], `of ${method.toUpperCase()} ${key}`);
        }
      }
    }
    return results;
  },
);

/**
 * @returns {string | null} why `schema` is not a UUID string, or null
 */
function uuidStringProblem(doc, schema) {
  const parts = schemaParts(doc, schema);
  if (parts.length === 0) return null; // external or dangling $ref: nothing to check here
  const problems = [];
  if (!hasType(parts, 'string')) problems.push(`type is ${show(keywordOf(parts, 'type'))}`);
  if (keywordOf(parts, 'format') !== 'uuid') problems.push(`format is ${show(keywordOf(parts, 'format'))}`);
  if (typeof keywordOf(parts, 'pattern') !== 'string') problems.push('pattern is absent');
  return problems.length === 0 ? null : problems.join(', ');
}

/**
 * @returns {string | null} why `schema` is not an array of UUID strings, or null
 */
function uuidArrayProblem(doc, schema) {
  const parts = schemaParts(doc, schema);
  if (parts.length === 0) return null;
  if (!hasType(parts, 'array')) return `type is ${show(keywordOf(parts, 'type'))}`;
  const items = keywordOf(parts, 'items');
  if (items === undefined) return 'items is absent';
  const problem = uuidStringProblem(doc, items);
  return problem === null ? null : `items: ${problem}`;
}

/**
 * Checks `oneOf`/`anyOf` branches (nullability branches are skipped).
 *
 * @returns {string | null | undefined} undefined when the schema has no alternatives
 */
function alternativesProblem(doc, schema, accepts) {
  const parts = schemaParts(doc, schema);
  if (keywordOf(parts, 'type') !== undefined) return undefined;
  const alternatives = alternativesOf(parts);
  if (alternatives === null) return undefined;
  for (const [i, branch] of alternatives.branches.entries()) {
    if (isNullSchema(doc, branch)) continue;
    if (!accepts.some((check) => check(doc, branch) === null)) {
      return `${alternatives.keyword} branch ${i} is not ${accepts.length > 1 ? 'a UUID string or ' : ''}an array of UUID strings`;
    }
  }
  return null;
}

function checkUuid(doc, schema) {
  const viaAlternatives = alternativesProblem(doc, schema, [uuidStringProblem, uuidArrayProblem]);
  return viaAlternatives !== undefined ? viaAlternatives : uuidStringProblem(doc, schema);
}

function checkUuidList(doc, schema) {
  const viaAlternatives = alternativesProblem(doc, schema, [uuidArrayProblem]);
  return viaAlternatives !== undefined ? viaAlternatives : uuidArrayProblem(doc, schema);
}
