import { isObject } from '@svc/oas';
import { perOperation } from './lib/house.js';

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
export default perOperation(null, ({ name, operation, path }) => {
  const codes = isObject(operation.responses) ? Object.keys(operation.responses) : [];
  const at = isObject(operation.responses) ? [...path, 'responses'] : path;
  return [
    ...(codes.some((code) => /^4(?:\d\d|XX)$/i.test(code))
      ? []
      : [{ message: `${name} declares no "4xx" response; add at least one (e.g. 400 or 404)`, path: at }]),
    ...(codes.includes('default')
      ? []
      : [{ message: `${name} declares no "default" response; add one with the error schema`, path: at }]),
  ];
});
