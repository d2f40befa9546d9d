// The search engine arrives as a script of its own (dist/explorer-search.js, about half of the
// page's code), so that it is not parsed beside Swagger UI's bundle before the first operation
// list: the page asks for it once that list is shown and the browser is idle, or at once when the
// search is used first (a query in the link, Ctrl+K, a key in the search box). Until it arrives,
// the sidebar and the operation list say so and keep the query; they render again once it is here
// (the page state's notify). ES module.
import { notify, pageWindow } from './state.js';

/** @typedef {{ search: typeof import('./search.js').search, matchingIds: typeof import('./search.js').matchingIds }} SearchEngine */

/** Beside the page's own script, whether served or opened from disk. */
const script = document.currentScript;
const chunkUrl = new URL(
  'explorer-search.js',
  script instanceof HTMLScriptElement && script.src ? script.src : location.href,
).href;

/** @type {SearchEngine | undefined} */
let engine;
/** @type {'idle' | 'loading' | 'failed'} */
let status = 'idle';

/**
 * The search engine, once its script has run.
 * @returns {SearchEngine | undefined}
 */
export const searchEngine = () => engine;

/** Whether the last attempt to load the engine failed (the next use tries again). */
export const searchFailed = () => status === 'failed';

/**
 * Adds the engine's script to the page, once (again after a failure: a use of the search); tells
 * the page when it ran or failed.
 */
export function loadSearch() {
  if (engine || status === 'loading') return;
  status = 'loading';
  const script = document.createElement('script');
  script.src = chunkUrl;
  script.onload = () => {
    engine = pageWindow.SVC_EXPLORER_SEARCH;
    status = engine ? 'idle' : 'failed';
    notify();
  };
  script.onerror = () => {
    script.remove();
    status = 'failed';
    notify();
  };
  document.head.appendChild(script);
}

/** Loads the engine unless it failed to load already (what a render asks: no retry loop). */
export function needSearch() {
  if (status !== 'failed') loadSearch();
}

/** Loads the engine once the browser has nothing else to do (within 2 s). */
export function loadSearchWhenIdle() {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(needSearch, { timeout: 2000 });
  else setTimeout(needSearch, 200);
}
