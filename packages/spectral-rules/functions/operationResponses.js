import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject, operationsOf } from '@svc/oas';

/**
 * Enforces the error-response convention (`svc-operation-responses`): every
 * operation declares at least one 4xx response (`400`, `404`, `4XX`, ...)
 * and a `default` response. Each missing one is reported separately.
 *
 * Why: the service answers client errors with documented 4xx bodies and
 * anything else with its generic error envelope; without both, the generated
 * client has no type for error payloads and Prism cannot mock failures.
 *
 * Given: `$.paths[*]` (with `resolved: false`).
 */
export default createRulesetFunction(
  {
    input: { type: 'object' },
    options: null,
  },
  function operationResponses(pathItem, _options, context) {
    const doc = context.document.data;
    const pathKey = String(context.path[context.path.length - 1]);
    const results = [];
    for (const { method, operation, path } of operationsOf(doc, pathItem, context.path)) {
      const name = `${method.toUpperCase()} ${pathKey}`;
      const codes = isObject(operation.responses) ? Object.keys(operation.responses) : [];
      const at = isObject(operation.responses) ? [...path, 'responses'] : path;
      if (!codes.some((code) => /^4(?:\d\d|XX)$/i.test(code))) {
        results.push({ message: `${name} declares no "4xx" response; add at least one (e.g. 400 or 404)`, path: at });
      }
      if (!codes.includes('default')) {
        results.push({ message: `${name} declares no "default" response; add one with the error schema`, path: at });
      }
    }
    return results;
  },
);
