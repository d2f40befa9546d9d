// What the page's own code needs of a search query before the search engine (search.js, a chunk
// of its own, see search-loader.js) has arrived: its words and the links it makes. ES module.
import { operationHash } from '@svc/oas';

/**
 * The words of a query, lower case.
 * @param {string} query
 * @returns {string[]}
 */
export function queryWords(query) {
  return String(query || '')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
}

/**
 * The deep link of an operation: `?api=<api>#/<tag>/<operationId>` (Swagger UI's deep link).
 * @param {string} api
 * @param {string} tag
 * @param {string} operationId
 * @param {Record<string, string>} [extra] more query parameters (`q`, `workflow`, `step`)
 * @returns {string}
 */
export function operationLink(api, tag, operationId, extra = {}) {
  const params = new URLSearchParams({ api, ...extra });
  return '?' + params.toString() + operationHash(tag, operationId);
}
