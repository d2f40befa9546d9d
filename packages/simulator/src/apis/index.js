// The API adapters by the name of their bundle (redocly.yaml's API names). Each exports:
// `handlers` (operationId -> handler), `errorBody(error, operationId)`, `validationStatus`, and
// `mapError(error)`: the domain's errors (src/domain/errors.js) in its own words and statuses;
// optionally `unauthorized()` and `cachedAnswers`.
import * as central from './central/index.js';
import * as control from './control/index.js';
import * as element from './element/index.js';
import * as objects from './objects/index.js';

/**
 * @typedef {object} Adapter
 * @property {Record<string, (ctx: import('../wire/pipeline.js').Context) => Promise<any>>} handlers  operationId -> handler
 * @property {(error: import('../errors.js').HttpError, operationId?: string) => any} errorBody  the API's error body
 * @property {number} validationStatus  the status of a request its schema refuses (422 v3, 400 element)
 * @property {(error: import('../domain/errors.js').DomainError) => import('../errors.js').HttpError} mapError
 * @property {() => { type: string, body: string }} [unauthorized]  its 401 (default: production's HTML page)
 * @property {Record<string, (domain: import('../domain/index.js').Domain) => number>} [cachedAnswers]
 *   operationId -> the generation of the documents its answer reads: for these operations the
 *   answer is a function of the request's origin, target and body text and of those documents,
 *   so the pipeline answers the same request again with the same bytes while the generation holds
 */

/** @type {Record<string, Adapter>} */
export const adapters = { central, element, objects, control };
