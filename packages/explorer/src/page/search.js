// Search over the operations of every API: the page's sidebar and the operation list use the same
// matching, on the index the build makes (scripts/search-index.mjs). ES module; the build makes it
// a script of its own (search-chunk.js), which the page loads after its first operation list.
import uFuzzy from '@leeoniya/ufuzzy';
import { HTTP_METHODS } from '@svc/oas';
import MiniSearch from 'minisearch';
import { queryWords } from './query.js';

export { operationLink, queryWords } from './query.js';

/** Per index (the page has one), its MiniSearch engine and vocabulary: built once, on the first query. */
const engines = new WeakMap();

/** @type {uFuzzy[] | undefined} */
let matchers;
/**
 * Word matchers of uFuzzy: letters left out inside a word (an abbreviation: "imgs" is images,
 * "objstore" objectstores), and one typo of any kind (a letter swapped with the next: "uplaod").
 * Made on the first query, not while the page loads (about 20 ms before the first operation list).
 * @returns {uFuzzy[]}
 */
const fuzzyMatchers = () => (matchers ??= [new uFuzzy({ intraMode: 0, intraIns: 3 }), new uFuzzy({ intraMode: 1 })]);

/**
 * The words of the index a query word may stand for: itself, and the words it abbreviates or
 * misspells, found by uFuzzy over the index's vocabulary (MiniSearch's own fuzziness is edit
 * distance, which a swap of two letters or an abbreviation exceeds).
 * @param {string[]} vocabulary the index's words
 * @param {string} word a query word, lower case (only words of four letters or more stand for others)
 * @returns {string[]}
 */
export function wordsFor(vocabulary, word) {
  const found = new Set([word]);
  // a number or version ("v2.0") means itself
  if (!/^[a-z]{4,}$/.test(word)) return [...found];
  for (const matcher of fuzzyMatchers()) {
    for (const i of matcher.filter(vocabulary, word) ?? []) found.add(vocabulary[i]);
  }
  return [...found];
}

/**
 * The full-text engine over every operation of every API: fuzzy (one typo in five letters),
 * prefix matches, every word required, ranked by BM25 with the summary, operationId, path and
 * tag weighing more than the description.
 * @param {{ api: string, operations: Record<string, { tag: string, method: string, path: string, summary: string, text: string }> }[]} index
 * @returns {{ engine: MiniSearch, vocabulary: string[] }}
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
  const documents = index.flatMap(({ api, operations }) =>
    Object.entries(operations).map(([operationId, op]) => ({ id: api + ' ' + operationId, api, operationId, ...op })),
  );
  engine.addAll(documents);
  const tokenize = MiniSearch.getDefault('tokenize');
  const vocabulary = [
    ...new Set(
      documents.flatMap((d) =>
        [d.summary, d.operationId, d.path, d.tag, d.text].flatMap((field) => tokenize(String(field).toLowerCase())),
      ),
    ),
  ].filter(Boolean);
  const built = { engine, vocabulary };
  engines.set(index, built);
  return built;
}

/**
 * The operations of every API that match a query, best first: a method word (`get`) keeps that
 * method only; the other words must each match a word of the tag, path, operationId, summary or
 * description, allowing a typo ("imges", "uplaod"), a prefix ("stor") or an abbreviation ("imgs",
 * "objstore").
 * @param {{ api: string, name: string, operations: Record<string, { tag: string, method: string, path: string, summary: string, text: string }> }[]} index
 * @param {string} query
 * @returns {{ api: string, name: string, operations: { operationId: string, tag: string, method: string, path: string, summary: string }[] }[]}
 *   one entry per API (index order), also those with no match
 */
export function search(index, query) {
  const words = queryWords(query);
  // a query word that is an HTTP method matches the method only (not `target` or `images_get`)
  const methods = words.filter((w) => HTTP_METHODS.includes(/** @type {any} */ (w)));
  const text = words.filter((w) => !HTTP_METHODS.includes(/** @type {any} */ (w)));
  let ranked;
  if (text.length) {
    const { engine, vocabulary } = engineOf(index);
    // every query word must match, as itself or as one of the words it may stand for
    const query = {
      combineWith: 'AND',
      // (a word MiniSearch splits, as "v2.0", needs all its parts)
      queries: text.map((w) => ({
        combineWith: 'OR',
        queries: wordsFor(vocabulary, w).map((c) => ({ combineWith: 'AND', queries: [c] })),
      })),
    };
    ranked = engine.search(/** @type {any} */ (query)).map((hit) => ({ api: hit.api, operationId: hit.operationId }));
  } else
    ranked = index.flatMap(({ api, operations }) =>
      Object.keys(operations).map((operationId) => ({ api, operationId })),
    );
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
