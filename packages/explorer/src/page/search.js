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

/** A word's consonant skeleton: its first letter and the consonants after it (`tasks` -> `tsks`). */
const skeleton = (word) => word[0] + word.slice(1).replace(/[aeiouy]/g, '');

/** Whether the letters of `short` come in order in `long`, starting with its first letter. */
function abbreviates(short, long) {
  if (short[0] !== long[0] || long.length < short.length) return false;
  let at = 0;
  for (const letter of long) if (letter === short[at]) at++;
  return at === short.length;
}

/**
 * The words of the index a query word may stand for, each with how surely (1 for the word
 * itself): the words whose consonants it is ("tsk" is task, "imgs" images: 0.9), the words it
 * abbreviates by dropping other letters ("ctnr" container: less, the more it dropped), and, for
 * words of four letters or more, those it misspells (uFuzzy, a swap of two letters included:
 * "uplaod"; MiniSearch's own fuzziness is edit distance, which a swap or an abbreviation exceeds).
 * @param {string[]} vocabulary the index's words
 * @param {string} word a query word, lower case
 * @returns {Map<string, number>}
 */
export function expansionsOf(vocabulary, word) {
  const found = new Map([[word, 1]]);
  const add = (candidate, sure) => found.set(candidate, Math.max(found.get(candidate) ?? 0, sure));
  // a number or version ("v2.0") means itself
  if (!/^[a-z]{2,}$/.test(word)) return found;
  // letters only where a word has consonants: an abbreviation by dropped vowels (and maybe more)
  if (skeleton(word) === word && word.length >= 2) {
    for (const candidate of vocabulary) {
      if (!/^[a-z]+$/.test(candidate) || !abbreviates(word, candidate)) continue;
      add(candidate, skeleton(candidate).startsWith(word) ? 0.9 : (0.6 * word.length) / skeleton(candidate).length);
    }
  }
  if (word.length >= 4) {
    const [dropped, typo] = fuzzyMatchers();
    for (const i of typo.filter(vocabulary, word) ?? []) add(vocabulary[i], 0.7);
    for (const i of dropped.filter(vocabulary, word) ?? []) add(vocabulary[i], 0.4);
  }
  return found;
}

/**
 * The words of the index a query word may stand for (expansionsOf), without how surely.
 * @param {string[]} vocabulary
 * @param {string} word
 * @returns {string[]}
 */
export function wordsFor(vocabulary, word) {
  return [...expansionsOf(vocabulary, word).keys()];
}

/** How much each field weighs: the summary, operationId, path and tag more than the description. */
const BOOST = { summary: 3, operationId: 2, path: 2, tag: 1.5, text: 1 };

/**
 * The full-text engine over every operation of every API: fuzzy (one typo in five letters),
 * prefix matches, every word required, ranked by BM25 with the fields weighed by BOOST.
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
      boost: BOOST,
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
    // every query word must match, as itself or as one of the words it may stand for, the surer
    // weighing more
    const query = {
      combineWith: 'AND',
      queries: text.map((w) => ({
        combineWith: 'OR',
        queries: [...expansionsOf(vocabulary, w)].map(([c, sure]) => ({
          // (a word MiniSearch splits, as "v2.0", needs all its parts)
          combineWith: 'AND',
          queries: [c],
          boost: Object.fromEntries(Object.entries(BOOST).map(([field, weight]) => [field, weight * sure])),
          // a word it stands for is a word of the index already: not fuzzy again ("container"
          // would take "contains")
          ...(c === w ? {} : { fuzzy: false }),
        })),
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
