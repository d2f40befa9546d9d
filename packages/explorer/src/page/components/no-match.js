// The operation list, or, when the search leaves nothing in the API shown, where the matches are.
// ES module.
import { queryWords } from '../query.js';
import { opsFilter } from '../requests.js';
import { loadSearchWhenIdle, needSearch, searchEngine, searchFailed } from '../search-loader.js';
import { config, firstList, indexByApi, notify, page } from '../state.js';
import { h, react, useLocation } from './react.js';

/**
 * Where the search stands while its engine is not here yet (see search-loader.js): loading, or
 * failed (the next key in the search box tries again).
 * @returns {string}
 */
export const searchPending = () =>
  searchFailed() ? 'The search could not load; edit the query to try again.' : 'Searching\u2026';

/** @param {{ q: string, engine: import('../search-loader.js').SearchEngine }} props the search's words */
export function NoMatch({ q, engine }) {
  const elsewhere = engine.search(config.index, q).filter((r) => r.api !== page.api && r.operations.length);
  const here = indexByApi[page.api]?.name ?? page.api;
  return h(
    'div',
    { className: 'svc-no-match', role: 'status' },
    h('h3', null, 'Nothing in ' + here + ' matches "' + q + '".'),
    elsewhere.length
      ? h(
          'p',
          null,
          'Matches in other APIs: ',
          elsewhere.map((r, i) =>
            h(
              react.React.Fragment,
              { key: r.api },
              i ? ', ' : '',
              h(
                'a',
                { href: '?api=' + r.api + '&q=' + encodeURIComponent(q) },
                r.name + ' (' + r.operations.length + ')',
              ),
            ),
          ),
          '.',
        )
      : h(
          'p',
          null,
          'No API has a matching operation (tags, methods, paths, operationIds, summaries and descriptions were searched). Try fewer or other words.',
        ),
  );
}

/** Swagger UI's operation list (`operations`), or NoMatch. @param {{ Original: any, sys: any, props: any }} props */
export function OperationsOrNoMatch({ Original, sys, props }) {
  useLocation(); // the search engine's arrival
  // Once the spec's operations are rendered (the bench's first operation list), the page's own
  // work that waited for them: the sidebar's tree, then the search engine.
  react.React.useEffect(() => {
    if (firstList.shown || !sys.specSelectors.specJson().size) return;
    firstList.shown = true;
    loadSearchWhenIdle();
    notify();
  });
  const filter = sys.layoutSelectors.currentFilter();
  if (typeof filter === 'string' && queryWords(filter).length) {
    const engine = searchEngine();
    if (!engine) {
      needSearch();
      return h('p', { className: 'svc-no-match', role: 'status' }, searchPending());
    }
    if (opsFilter(sys.specSelectors.taggedOperations(), filter).size === 0) return h(NoMatch, { q: filter, engine });
  }
  // The tags are h3 under the API's h1: an h2 between them keeps the heading order.
  return h(react.React.Fragment, null, h('h2', { className: 'svc-visually-hidden' }, 'Operations'), h(Original, props));
}
