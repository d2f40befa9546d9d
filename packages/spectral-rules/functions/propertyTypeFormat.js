import { createRulesetFunction } from '@stoplight/spectral-core';
import { alternativesOf, forEachProperty, hasType, isNullSchema, keywordOf, schemaParts } from '@svc/oas/schema';
import { show } from './lib/house.js';

/**
 * Enforces a wire type for schema properties picked by name. Used by
 * `svc-api-version-string` (`api_version` is `type: string`),
 * `svc-time-date-time` (`*_time` is `type: string, format: date-time`) and
 * `svc-usecs-int64` (`*_usecs` is `type: integer, format: int64`).
 *
 * Why: the service encodes these fields the same way in every API; a spec
 * that says otherwise makes the generated client parse a version as a
 * number, a timestamp as a free string, or microsecond counters as 32-bit
 * integers (which overflow).
 *
 * A property value may be a `$ref`, an `allOf` wrapper, a type list with
 * `"null"`, or a `oneOf`/`anyOf` whose non-null branches all have the type.
 * Every property in every schema of the document is checked (components and
 * inline schemas), each reported once where it is written.
 *
 * Given: `$` (with `resolved: false`).
 */
export default createRulesetFunction(
  {
    input: { type: 'object' },
    options: {
      type: 'object',
      additionalProperties: false,
      required: ['match', 'type'],
      properties: {
        match: { type: 'string', minLength: 1, description: 'regular expression the property name must match' },
        type: { type: 'string' },
        format: { type: 'string' },
      },
    },
  },
  function propertyTypeFormat(doc, options, context) {
    const matcher = new RegExp(options.match);
    const wanted =
      options.format === undefined ? `type: ${options.type}` : `type: ${options.type}, format: ${options.format}`;
    const results = [];
    forEachProperty(doc, (name, value, path) => {
      if (!matcher.test(name)) return;
      const problem = check(doc, value, options);
      if (problem === null) return;
      results.push({ message: `property "${name}" must be ${wanted}; ${problem}`, path: [...context.path, ...path] });
    });
    return results;
  },
);

/**
 * @returns {string | null} what is wrong, or null when the schema fits
 */
function check(doc, schema, options) {
  const parts = schemaParts(doc, schema);
  if (parts.length === 0) return null; // external or dangling $ref: nothing to check here
  const alternatives = keywordOf(parts, 'type') === undefined ? alternativesOf(parts) : null;
  if (alternatives !== null) {
    for (const [i, branch] of alternatives.branches.entries()) {
      if (isNullSchema(doc, branch)) continue;
      const problem = check(doc, branch, options);
      if (problem !== null) return `${alternatives.keyword} branch ${i}: ${problem}`;
    }
    return null;
  }
  const problems = [];
  if (!hasType(parts, options.type)) problems.push(`type is ${show(keywordOf(parts, 'type'))}`);
  if (options.format !== undefined && keywordOf(parts, 'format') !== options.format) {
    problems.push(`format is ${show(keywordOf(parts, 'format'))}`);
  }
  return problems.length === 0 ? null : problems.join(', ');
}
