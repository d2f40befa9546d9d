import { perOperation } from './lib/house.js';

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
export default perOperation(
  { type: ['object', 'null'], additionalProperties: false, properties: { maxLength: { type: 'integer', minimum: 1 } } },
  ({ name, operation, path }, options) => {
    const maxLength = options?.maxLength ?? 80;
    const summary = operation.summary;
    if (typeof summary !== 'string' || summary.trim() === '')
      return [{ message: `${name} has no "summary"; add a short title such as "Get an image"`, path }];
    const at = [...path, 'summary'];
    const results = [];
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
    return results;
  },
);
