// The sidebar: the search over every API, the APIs with their workflows, tags and operations (or
// the matches of the search), and the history of this tab. ES module.

import { operationLink, queryWords } from '../query.js';
import { inPageWorkflowLink, showOperation } from '../runner.js';
import { loadSearch, searchEngine } from '../search-loader.js';
import { config, firstList, NAV_OPEN_KEY, page, readSession, setUrlParams, writeSession } from '../state.js';
import { HistoryList } from './history-list.js';
import { searchPending } from './no-match.js';
import { h, react, useLocation, useStoreUpdates } from './react.js';

/**
 * Whether the operations menu is open: as the user last left it in this tab, else open on a wide
 * screen and closed on a phone (where it would push the operations off the first screen).
 * @returns {boolean}
 */
export function navOpen() {
  const chosen = readSession(NAV_OPEN_KEY, null);
  if (typeof chosen === 'boolean') return chosen;
  return window.matchMedia?.('(min-width: 900px)').matches ?? true;
}

/** Whether the sidebar sits above the operations (the narrow layout of explorer.css). */
const NARROW = '(max-width: 899px)';

/**
 * Keeps `--svc-sticky-top` (the page's `scroll-padding-top`) at the height of the sidebar where it
 * is stuck to the top of a narrow window: an operation scrolled to stops under it.
 * @param {HTMLElement | null} sidebar
 * @returns {() => void} stops watching
 */
function keepStickyTop(sidebar) {
  if (!sidebar || typeof ResizeObserver !== 'function') return () => {};
  const set = () => {
    const narrow = window.matchMedia?.(NARROW).matches ?? false;
    document.documentElement.style.setProperty(
      '--svc-sticky-top',
      narrow ? Math.ceil(sidebar.getBoundingClientRect().height) + 8 + 'px' : '0px',
    );
  };
  const observer = new ResizeObserver(set);
  observer.observe(sidebar);
  window.addEventListener('resize', set);
  set();
  return () => {
    observer.disconnect();
    window.removeEventListener('resize', set);
  };
}

/** The link of a workflow's first step. */
const workflowLink = (api, workflowId) => '?api=' + api + '&workflow=' + encodeURIComponent(workflowId) + '&step=0';

/** @param {{ sys: any }} props */
export function Sidebar({ sys }) {
  const { React } = react;
  useStoreUpdates(sys);
  useLocation();
  const query = sys.layoutSelectors.currentFilter();
  const q = typeof query === 'string' ? query : '';
  const [draft, setDraft] = React.useState(q);
  const [open, setOpen] = React.useState(navOpen);
  const nav = React.useRef(null);
  React.useEffect(() => keepStickyTop(nav.current), []);
  const onSearch = (event) => {
    loadSearch();
    const value = event.target.value;
    setDraft(value);
    sys.layoutActions.updateFilter(value);
    setUrlParams({ q: value || null });
  };
  const hash = decodeURIComponent(location.hash);
  const opItem = (api, op) => {
    const href = operationLink(api, op.tag, op.operationId, q ? { q } : {});
    const current = api === page.api && hash === '#/' + op.tag + '/' + op.operationId;
    const onClick = (event) => {
      if (api !== page.api || event.metaKey || event.ctrlKey || event.shiftKey) return; // another API: a page load
      event.preventDefault();
      showOperation(sys, op.tag, op.operationId);
    };
    return h(
      'li',
      { key: api + op.operationId },
      h(
        'a',
        { href, onClick, className: 'svc-nav-op', 'aria-current': current ? 'true' : undefined },
        h('span', { className: 'svc-method svc-method-' + op.method }, op.method.toUpperCase()),
        h('span', { className: 'svc-nav-op-name' }, op.summary || op.operationId),
      ),
    );
  };
  let tree;
  const engine = searchEngine();
  if (!firstList.shown && sys.specSelectors.loadingStatus() !== 'failed') {
    // Not before the first operation list: what the user came for is drawn first.
    tree = null;
  } else if (queryWords(q).length && !engine) {
    tree = h('p', { className: 'svc-results-count', role: 'status' }, searchPending());
  } else if (engine && queryWords(q).length) {
    const results = engine.search(config.index, q);
    const total = results.reduce((n, r) => n + r.operations.length, 0);
    tree = h(
      'div',
      { className: 'svc-results' },
      h(
        'p',
        { className: 'svc-results-count', role: 'status' },
        total
          ? total + ' operation' + (total === 1 ? '' : 's') + ' match' + (total === 1 ? 'es' : '')
          : 'Nothing matches "' + q + '" in any API.',
      ),
      results
        .filter((r) => r.operations.length)
        .map((r) =>
          h(
            'section',
            { key: r.api, className: 'svc-nav-api' },
            h('h2', null, r.name + ' (' + r.operations.length + ')'),
            h(
              'ul',
              null,
              r.operations.map((op) => opItem(r.api, op)),
            ),
          ),
        ),
    );
  } else {
    tree = config.index.map((entry) =>
      h(
        'section',
        { key: entry.api, className: 'svc-nav-api' + (entry.api === page.api ? ' current' : '') },
        h(
          'h2',
          null,
          h(
            'a',
            { href: '?api=' + entry.api, 'aria-current': entry.api === page.api ? 'page' : undefined },
            entry.name,
          ),
        ),
        entry.workflows.length
          ? h(
              'div',
              { className: 'svc-nav-workflows' },
              // Named as workflows, apart from the operations: "Create an image from a URL" is six
              // calls, not the operation "Create an image" listed under it.
              h('h3', { id: 'svc-nav-workflows-' + entry.api }, 'Workflows (Start here)'),
              h(
                'ul',
                { 'aria-labelledby': 'svc-nav-workflows-' + entry.api },
                entry.workflows.map((w) =>
                  h(
                    'li',
                    { key: w.workflowId },
                    h(
                      'a',
                      {
                        href: workflowLink(entry.api, w.workflowId),
                        className: 'svc-nav-workflow',
                        onClick: inPageWorkflowLink(sys, entry.api, w.workflowId),
                      },
                      h('span', { className: 'svc-nav-workflow-badge' }, 'Workflow'),
                      h('span', { className: 'svc-nav-op-name' }, w.summary),
                      h('span', { className: 'svc-nav-workflow-steps' }, w.steps.length + ' steps'),
                    ),
                  ),
                ),
              ),
            )
          : null,
        entry.api === page.api
          ? entry.tags.map((tag) =>
              h(
                'details',
                { key: tag.name, open: true },
                h('summary', null, tag.name),
                h(
                  'ul',
                  null,
                  tag.operations.map((id) => opItem(entry.api, { ...entry.operations[id], operationId: id })),
                ),
              ),
            )
          : null,
      ),
    );
  }
  return h(
    'nav',
    { className: 'svc-sidebar', 'aria-label': 'APIs and operations', ref: nav },
    h(
      'div',
      { className: 'svc-search', role: 'search' },
      h('label', { htmlFor: 'svc-search-input' }, 'Search all APIs'),
      h('input', {
        id: 'svc-search-input',
        type: 'search',
        value: draft,
        onChange: onSearch,
        onFocus: loadSearch,
        autoComplete: 'off',
        placeholder: 'e.g. upload, get v2.0, task status',
        'aria-describedby': 'svc-search-help',
        'aria-keyshortcuts': 'Control+K /',
      }),
      h(
        'p',
        { id: 'svc-search-help', className: 'svc-search-help' },
        'Matches tags, methods, paths, operationIds, summaries and descriptions (Ctrl+K or / to search).',
      ),
    ),
    h(
      'details',
      {
        className: 'svc-nav-tree',
        open,
        // The user's choice stays over an API switch (a page load) in this tab.
        onToggle: (event) => {
          const now = event.currentTarget.open;
          if (now === open) return;
          setOpen(now);
          writeSession(NAV_OPEN_KEY, now);
        },
      },
      h('summary', null, 'Browse APIs and operations'),
      tree,
    ),
    h(HistoryList, { sys }),
  );
}
