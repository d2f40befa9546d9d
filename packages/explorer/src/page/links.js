// The next calls an answer leads to: the OpenAPI `links` its response declares, with their
// parameter values read from the answer. ES module.
import { resolveRef } from '@svc/oas';
import { linkValues } from './workflow.js';

/**
 * @typedef {object} AnswerLink
 * @property {string} name the link's key in the response's `links`
 * @property {string} description the link's description (else its operationId)
 * @property {string} operationId the operation it opens
 * @property {{ tag: string, method: string, path: string }} target that operation in the index
 * @property {{ name: string, in?: string, value: any }[]} values its parameters, from the answer
 */

/**
 * The links of an answer that can be followed: declared on its response (by status), to an
 * operation of the same API, with every value present in the answer.
 * @param {any} spec the loaded document (plain JSON)
 * @param {Record<string, { tag: string, method: string, path: string }>} operations the API's index operations
 * @param {string} path the answered operation's path template
 * @param {string} method lower case
 * @param {{ status: number, headers: Record<string, string>, body: any }} answer
 * @returns {AnswerLink[]}
 */
export function answerLinks(spec, operations, path, method, answer) {
  // a broken reference gives no link rather than breaking the answer's rendering
  const local = (node) => resolveRef(spec, node).value;
  const declared = local(spec.paths?.[path]?.[method]?.responses?.[String(answer.status)]);
  return Object.entries(declared?.links || {}).flatMap(([name, raw]) => {
    const link = local(raw);
    const target = link && operations[link.operationId];
    const values = target && linkValues(link, answer);
    if (!values) return [];
    return [{ name, description: link.description || link.operationId, operationId: link.operationId, target, values }];
  });
}
