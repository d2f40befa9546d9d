// Search over the operations of every API: the page's sidebar and the operation list use the same
// matching, on the index the build makes (scripts/search-index.mjs). ES module.
import { HTTP_METHODS, operationHash } from '@svc/oas';
import MiniSearch from 'minisearch';

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

/** Per index (the page has one), its MiniSearch engine: built once, on the first query. */
const engines = new WeakMap();

/**
 * The full-text engine over every operation of every API: fuzzy (one typo in five letters),
 * prefix matches, every word required, ranked by BM25 with the summary, operationId, path and
 * tag weighing more than the description.
 * @param {{ api: string, operations: Record<string, { tag: string, method: string, path: string, summary: string, text: string }> }[]} index
 * @returns {MiniSearch}
 */
function engineOf(index) {
  let engine = engines.get(index);
  if (engine) return engine;
  engine = new MiniSearch({
    fields: ['summary', 'operationId', 'path', 'tag', 'text'],
    storeFields: ['api', 'operationId', 'method'],
    searchOptions: {
      boost: { summary: 3, operationId: 2, path: 2, tag: 1.5 },
      fuzzy: (term) => (term.length > 3 ? 0.2 : null),
      prefix: true,
      combineWith: 'AND',
    },
  });
  engine.addAll(
    index.flatMap(({ api, operations }) =>
      Object.entries(operations).map(([operationId, op]) => ({ id: api + ' ' + operationId, api, operationId, ...op })),
    ),
  );
  engines.set(index, engine);
  return engine;
}

/**
 * The operations of every API that match a query, best first: a method word (`get`) keeps that
 * method only; the other words must each match a word of the tag, path, operationId, summary or
 * description, allowing a typo ("imges") or a prefix ("stor").
 * @param {{ api: string, name: string, operations: Record<string, { tag: string, method: string, path: string, summary: string, text: string }> }[]} index
 * @param {string} query
 * @returns {{ api: string, name: string, operations: { operationId: string, tag: string, method: string, path: string, summary: string }[] }[]}
 *   one entry per API (index order), also those with no match
 */
export function search(index, query) {
  const words = queryWords(query);
  // a query word that is an HTTP method matches the method only (not `target` or `images_get`)
  const methods = words.filter((w) => HTTP_METHODS.includes(/** @type {any} */ (w)));
  const text = words.filter((w) => !HTTP_METHODS.includes(/** @type {any} */ (w))).join(' ');
  const ranked = text
    ? engineOf(index)
        .search(text)
        .map((hit) => ({ api: hit.api, operationId: hit.operationId }))
    : index.flatMap(({ api, operations }) => Object.keys(operations).map((operationId) => ({ api, operationId })));
  return index.map(({ api, name, operations }) => ({
    api,
    name,
    operations: ranked
      .filter((hit) => hit.api === api)
      .map(({ operationId }) => ({ operationId, ...operations[operationId] }))
      .filter((op) => methods.every((m) => op.method === m))
      .map(({ operationId, tag, method, path, summary }) => ({ operationId, tag, method, path, summary })),
  }));
}

/**
 * The operationIds of one API that match a query (what Swagger UI's operation list keeps).
 * @param {Parameters<typeof search>[0]} index
 * @param {string} api
 * @param {string} query
 * @returns {Set<string>}
 */
export function matchingIds(index, api, query) {
  return new Set(
    search(index, query)
      .find((r) => r.api === api)
      ?.operations.map((o) => o.operationId) ?? [],
  );
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
