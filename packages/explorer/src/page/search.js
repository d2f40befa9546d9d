// Search over the operations of every API: the page's sidebar and the operation list use the same
// matching, on the index the build makes (scripts/search-index.mjs). ES module.

/** HTTP methods: a query word that is one matches the method only (not `target` or `images_get`). */
export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

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
 * Whether an operation of the index matches every word: a method word the method, any other
 * word a part of the tag, path, operationId, summary or description (its `text`).
 * @param {{ method: string, text: string }} operation an entry of the index
 * @param {string[]} words from {@link queryWords}
 * @returns {boolean}
 */
export function matches(operation, words) {
  return words.every((w) => (METHODS.includes(w) ? operation.method === w : operation.text.includes(w)));
}

/**
 * The operations of every API that match a query, in index order.
 * @param {{ api: string, name: string, operations: Record<string, { tag: string, method: string, path: string, summary: string, text: string }> }[]} index
 * @param {string} query
 * @returns {{ api: string, name: string, operations: { operationId: string, tag: string, method: string, path: string, summary: string }[] }[]}
 *   one entry per API, also those with no match
 */
export function search(index, query) {
  const words = queryWords(query);
  return index.map(({ api, name, operations }) => ({
    api,
    name,
    operations: Object.entries(operations)
      .filter(([, op]) => matches(op, words))
      .map(([operationId, op]) => ({
        operationId,
        tag: op.tag,
        method: op.method,
        path: op.path,
        summary: op.summary,
      })),
  }));
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
  return '?' + params.toString() + '#/' + encodeURIComponent(tag) + '/' + encodeURIComponent(operationId);
}
