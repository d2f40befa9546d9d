// Page state: the explorer's configuration, the API shown (with subscribe), the address bar's
// parameters and the session storage. ES module, bundled into the page's script.

/**
 * The explorer's configuration, written by scripts/build.mjs before the page's modules.
 * @typedef {object} ExplorerConfig
 * @property {{ api: string, name: string, url: string }[]} apis the APIs, the first shown by default
 * @property {ReturnType<typeof import('../../scripts/search-index.mjs').searchIndexOf>[]} index
 *   every API's tags, operations and workflows
 */

/**
 * The globals the page's classic scripts share: the configuration, the specs of a page opened from
 * disk (`specs/specs.js`), Swagger UI's bundle (untyped) and its instance.
 * @typedef {Window & typeof globalThis & {
 *   SVC_EXPLORER: ExplorerConfig,
 *   SVC_EXPLORER_SPECS?: Record<string, any>,
 *   SVC_EXPLORER_SEARCH?: import('./search-loader.js').SearchEngine,
 *   SwaggerUIBundle: any,
 *   ui?: any,
 * }} PageWindow
 */
export const pageWindow = /** @type {PageWindow} */ (window);

export const config = pageWindow.SVC_EXPLORER;
export const AUTH_KEY = 'svc-explorer.auth';
export const INSECURE_KEY = 'svc-explorer.self-signed';
export const ANSWERS_KEY = 'svc-explorer.workflow-answers';
export const HISTORY_KEY = 'svc-explorer.history';
export const NAV_OPEN_KEY = 'svc-explorer.nav-open';
export const FORWARD_HEADER = 'X-Svc-Explorer-Forward';
export const indexByApi = Object.fromEntries(config.index.map((entry) => [entry.api, entry]));

// ---- Which API: ?api=<name> in the URL, so that a deep link names the API and the operation.
export const pageParams = new URLSearchParams(location.search);
export const apiParam = pageParams.get('api');
export const initial = config.apis.find((a) => a.api === apiParam) || config.apis[0];
export const unknownApi =
  apiParam && initial.api !== apiParam
    ? 'Unknown API "' +
      apiParam +
      '" in the link (?api=); showing "' +
      initial.api +
      '". Known: ' +
      config.apis.map((a) => a.api).join(', ') +
      '.'
    : null;
/**
 * Whether the first operation list of the page (or what stands for it: no match, a search
 * pending) has been rendered; OperationsOrNoMatch sets it and notifies.
 */
export const firstList = { shown: false };
const listeners = new Set();
let shown = initial.api;

/**
 * The page's own state beside Swagger UI's store: the API shown. Changing it, the address bar
 * (setUrlParams) or the fragment notifies every subscriber.
 */
export const page = {
  /** @returns {string} the API shown (`central`) */
  get api() {
    return shown;
  },
  set api(value) {
    shown = value;
    notify();
  },
};

/**
 * Calls `listener` after every change of the page state (API, address bar, fragment).
 * @param {() => void} listener
 * @returns {() => void} unsubscribes
 */
export function subscribe(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells the subscribers that the page state changed. */
export function notify() {
  for (const listener of [...listeners]) listener();
}
window.addEventListener('hashchange', notify);

export function absolute(url) {
  try {
    return new URL(url, location.href).href;
  } catch {
    return String(url);
  }
}

/** Rewrites query parameters of the address bar (keeping the fragment) without reloading. */
export function setUrlParams(changes, hash = location.hash) {
  const params = new URLSearchParams(location.search);
  params.delete('urls.primaryName'); // Swagger UI's own top bar wrote this; ?api= replaces it.
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || value === '') params.delete(name);
    else params.set(name, value);
  }
  history.replaceState(history.state, '', location.pathname + '?' + params.toString() + hash);
  notify();
}

// ---- Session storage: credentials, the self-signed choice and workflow answers go with the tab.
export function readSession(key, fallback) {
  try {
    return JSON.parse(sessionStorage.getItem(key) || 'null') ?? fallback;
  } catch {
    return fallback;
  }
}
export function writeSession(key, value) {
  try {
    if (value === null || (typeof value === 'object' && !Object.keys(value).length)) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage disabled: kept until the next reload */
  }
}
export function toJS(value) {
  return value && typeof value.toJS === 'function' ? value.toJS() : value;
}

/** @type {WeakMap<object, object>} */
const plainSpecs = new WeakMap();

/**
 * The loaded spec (`specSelectors.specJson()`) as plain, frozen JSON, converted once per spec:
 * Swagger UI's Immutable values never change, and converting the whole spec on every render of
 * the samples and links cost more than any other work of ours on the page.
 * @param {any} system Swagger UI's system
 * @returns {any} the document's root object; read-only (a write throws)
 */
export function specObject(system) {
  const spec = system.specSelectors.specJson();
  let plain = plainSpecs.get(spec);
  if (!plain) {
    plain = deepFreeze(toJS(spec) ?? {});
    plainSpecs.set(spec, plain);
  }
  return plain;
}

/** Freezes `value` and everything under it; returns `value`. */
function deepFreeze(value) {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export function isBasic(schema) {
  return schema && schema.type === 'http' && /^basic$/i.test(String(schema.scheme));
}

/**
 * The API whose spec Swagger UI loads now (the top bar or the page's start): shown, named in the
 * link (`?api=`), and the notice about an unknown `?api=` gone once the user picks another.
 * @param {string} url the spec's URL
 */
export function apiChosen(url) {
  const entry = config.apis.find((a) => absolute(a.url) === absolute(url));
  if (!entry) return;
  const switched = entry.api !== page.api;
  page.api = entry.api;
  // Once Swagger UI's action is over: the API switch, not a workflow step. Another API leaves the
  // operation of the last.
  setTimeout(() => setUrlParams({ api: entry.api }, switched ? '' : location.hash), 0);
  if (entry.api !== initial.api) document.querySelector('.svc-notice[data-kind="api"]')?.remove();
}
