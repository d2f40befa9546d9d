// A request judged against its operation (openapi-backend's validator, from the bundle), and the
// one answer that names every field it breaks and the rule.
import { HttpError } from '../errors.js';
import { boundedCache } from './cache.js';

/** The bytes of remembered validations (a key is the request's small body and target: some 4 KiB at most). */
const VALIDATED_CACHE_BYTES = 2 * 1024 * 1024;

/** `/requestBody/spec/name` + missing `x` -> `spec.name.x`; parameters keep their name. */
function fieldOf(error) {
  const parts = error.instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (error.keyword === 'required' && error.params?.missingProperty) parts.push(error.params.missingProperty);
  if (error.keyword === 'additionalProperties' && error.params?.additionalProperty)
    parts.push(error.params.additionalProperty);
  const [where, ...rest] = parts;
  if (where === 'requestBody') return rest.length ? rest.join('.') : 'body';
  return rest.length ? `${rest.join('.')} (${where})` : (where ?? 'request');
}

/**
 * Validation errors -> one answer (the API's validation status) naming every field and its rule.
 * @param {number} status
 * @param {any[]} errors  Ajv's, as openapi-backend gives them
 * @returns {HttpError}
 */
export function validationError(status, errors) {
  /** @type {Record<string, string>} */
  const details = {};
  for (const e of errors) {
    const field = fieldOf(e);
    if (details[field]) continue; // one rule per field: the first Ajv reports
    details[field] =
      e.keyword === 'enum'
        ? `${e.message}: ${e.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
        : e.message;
  }
  const text = Object.entries(details)
    .map(([f, m]) => `${f}: ${m}`)
    .join('; ');
  const error = new HttpError(status, 'INVALID_REQUEST', `Request could not be processed: ${text}`, details);
  // the validator's own errors, for the request journal
  error.errors = errors;
  return error;
}

/** The answer to a missing required body, in the API's validation status. */
export const requiredBody = (api) =>
  validationError(api.adapter.validationStatus, [
    { instancePath: '/requestBody', keyword: 'required', params: {}, message: 'a JSON request body is required' },
  ]);

/** The validator of a pipeline, with what it remembers. */
export function createValidator() {
  /** request key -> the request passed validation */
  const validated = boundedCache({ maxBytes: VALIDATED_CACHE_BYTES });
  return {
    /** The cache's bytes, for the leak check. */
    cacheBytes: () => validated.bytes(),
    /**
     * Validates a request against its operation. A valid result is remembered for a small body of
     * an operation whose only parameters are in its path: openapi-backend's validation is then a
     * function of the path, the query and the body's text alone (headers are not read; the body's
     * media type is always given as application/json), so the same text is valid again.
     * @param {any} api
     * @param {any} operation
     * @param {{ method: string, path: string, query: any, search: string, headers: any, body: any }} request
     * @param {boolean} json  the operation takes a JSON body
     * @param {string | false} key  the request's key (the pipeline's; false: not remembered)
     * @throws {HttpError} the API's validation status, naming each field and its rule
     */
    validate(api, operation, request, json, key) {
      const remembered = (operation.parameters ?? []).every((p) => p.in === 'path') && key;
      if (remembered && validated.get(remembered)) return;
      // the validator checks a body only under exactly this media type (a charset would skip it)
      if (json) request.headers = { ...request.headers, 'content-type': 'application/json' };
      const result = api.backend.validator.validateRequest(request, operation);
      if (!result.valid) throw validationError(api.adapter.validationStatus, result.errors ?? []);
      if (remembered) validated.set(remembered, true, 0);
    },
  };
}
