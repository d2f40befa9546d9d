// The operation list, or, when the search leaves nothing in the API shown, where the matches are.
// ES module.
import { opsFilter } from '../requests.js';
import { queryWords, search } from '../search.js';
import { config, indexByApi, page } from '../state.js';
import { h, react } from './react.js';

/** @param {{ q: string }} props the search's words */
export function NoMatch({ q }) {
  const elsewhere = search(config.index, q).filter((r) => r.api !== page.api && r.operations.length);
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
  const filter = sys.layoutSelectors.currentFilter();
  if (
    typeof filter === 'string' &&
    queryWords(filter).length &&
    opsFilter(sys.specSelectors.taggedOperations(), filter).size === 0
  ) {
    return h(NoMatch, { q: filter });
  }
  // The tags are h3 under the API's h1: an h2 between them keeps the heading order.
  return h(react.React.Fragment, null, h('h2', { className: 'svc-visually-hidden' }, 'Operations'), h(Original, props));
}
