// The entry of dist/explorer-search.js: the search engine (MiniSearch, uFuzzy and search.js) as a
// script of its own, which search-loader.js adds to the page. Classic script, no page state of its
// own: it hands its functions to the page's script through the window.
import { matchingIds, search } from './search.js';

/** @type {import('./state.js').PageWindow} */ (window).SVC_EXPLORER_SEARCH = { search, matchingIds };
