import { createRulesetFunction } from '@stoplight/spectral-core';
import { operationsOf } from '@svc/oas';

/**
 * Enforces the one-line summary (`svc-operation-summary`): every operation has
 * a `summary` that is a non-empty string on one line, at most `maxLength`
 * characters (80 by default), without a trailing full stop.
 *
 * Why: the explorer, the generated client's doc comments and the operation
 * lists of Redoc and Swagger UI show the summary as the operation's title,
 * next to its method and path; the `description` (spectral:oas
 * `operation-description`) carries the detail. spectral:oas has no summary
 * rule, so without this one an operation without a title would only be
 * caught by Redocly's `operation-summary`, not by the Spectral gate.
 *
 * Given: `$.paths[*]` (with `resolved: false`).
 */
export default createRulesetFunction(
  {
    input: { type: 'object' },
    options: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: { maxLength: { type: 'integer', minimum: 1 } },
    },
  },
  function operationSummary(pathItem, options, context) {
    const maxLength = options?.maxLength ?? 80;
    const doc = context.document.data;
    const pathKey = String(context.path[context.path.length - 1]);
    const results = [];
    for (const { method, operation, path } of operationsOf(doc, pathItem, context.path)) {
      const name = `${method.toUpperCase()} ${pathKey}`;
      const summary = operation.summary;
      if (typeof summary !== 'string' || summary.trim() === '') {
        results.push({ message: `${name} has no "summary"; add a short title such as "Get an image"`, path });
        continue;
      }
      const at = [...path, 'summary'];
      if (/[\r\n]/.test(summary.trim())) {
        results.push({
          message: `${name} has a "summary" of several lines; keep it to one line and move the rest to the description`,
          path: at,
        });
      } else if (summary.length > maxLength) {
        results.push({
          message: `${name} has a "summary" of ${summary.length} characters; shorten it to ${maxLength} or fewer and move the rest to the description`,
          path: at,
        });
      }
      if (/\.\s*$/.test(summary) && !/\.\.\.\s*$/.test(summary)) {
        results.push({
          message: `${name} has a "summary" that ends with a full stop; drop it (a summary is a title)`,
          path: at,
        });
      }
    }
    return results;
  },
);
