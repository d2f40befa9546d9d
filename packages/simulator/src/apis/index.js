// The API adapters by the name of their bundle (redocly.yaml's API names). Each exports:
// `handlers` (operationId -> handler), `errorBody(error, operationId)`, `validationStatus`, and
// optionally `adaptError(error)` for its own wording of the domain's errors.
import * as central from './central/index.js';
import * as element from './element/index.js';
import * as objects from './objects/index.js';

/**
 * @typedef {object} Adapter
 * @property {Record<string, (ctx: import('../http.js').Context) => Promise<any>>} handlers  operationId -> handler
 * @property {(error: import('../errors.js').HttpError, operationId?: string) => any} errorBody  the API's error body
 * @property {number} validationStatus  the status of a request its schema refuses (422 v3, 400 element)
 * @property {(error: import('../errors.js').HttpError) => import('../errors.js').HttpError} [adaptError]
 */

/** @type {Record<string, Adapter>} */
export const adapters = { central, element, objects };
