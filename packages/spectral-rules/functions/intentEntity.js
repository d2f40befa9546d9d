import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject } from '@svc/oas';
import { alternativesOf, schemaParts } from '@svc/oas/schema';

/**
 * Enforces the intent-entity shape (`svc-intent-entity`): a schema in
 * `components.schemas` whose name ends in one of the configured suffixes has
 * the listed properties. By default `*IntentInput` needs `spec` and
 * `metadata`; `*IntentResponse` and `*IntentResource` need `spec`, `status`
 * and `metadata`.
 *
 * Why: every entity of the service is sent as an intent (`spec` = what the
 * caller wants, `metadata` = identity, categories, owner) and comes back with
 * the `status` the service reached; clients, the mock and the explorer rely
 * on that envelope.
 *
 * Properties count when declared directly, through `$ref`, through `allOf`
 * members, or in every branch of a schema-level `oneOf`/`anyOf`. What a
 * property's own value looks like (`anyOf`, `oneOf`, `$ref`) does not matter.
 *
 * Given: `$.components.schemas` (with `resolved: false`).
 */
export default createRulesetFunction(
  {
    input: { type: 'object' },
    options: {
      type: 'object',
      additionalProperties: false,
      required: ['requirements'],
      properties: {
        requirements: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['suffix', 'properties'],
            properties: {
              suffix: { type: 'string', minLength: 1 },
              properties: { type: 'array', minItems: 1, items: { type: 'string' } },
            },
          },
        },
      },
    },
  },
  function intentEntity(schemas, options, context) {
    const doc = context.document.data;
    const results = [];
    for (const [name, schema] of Object.entries(schemas)) {
      const requirement = options.requirements.find(({ suffix }) => name.endsWith(suffix));
      if (requirement === undefined) continue;
      const declared = propertyNames(doc, schema, new Set());
      for (const property of requirement.properties) {
        if (declared.has(property)) continue;
        results.push({
          message:
            `schema "${name}" has no "${property}" property ` +
            `(*${requirement.suffix} schemas need ${requirement.properties.join(', ')})`,
          path: [...context.path, name],
        });
      }
    }
    return results;
  },
);

/**
 * Names of the properties a schema guarantees to describe.
 *
 * @param {unknown} doc
 * @param {unknown} schema
 * @param {Set<unknown>} seen
 * @returns {Set<string>}
 */
function propertyNames(doc, schema, seen) {
  const names = new Set();
  for (const part of schemaParts(doc, schema, seen)) {
    if (isObject(part.properties)) for (const n of Object.keys(part.properties)) names.add(n);
    const alternatives = alternativesOf([part]);
    if (alternatives === null) continue;
    const perBranch = alternatives.branches.map((branch) => propertyNames(doc, branch, new Set(seen)));
    for (const n of perBranch[0]) if (perBranch.every((set) => set.has(n))) names.add(n);
  }
  return names;
}
