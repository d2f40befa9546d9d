// The explorer page: Swagger UI with the house plugin. scripts/build.mjs bundles this module and
// its imports into dist/explorer.js (one classic script, so that the page also works opened from
// disk), after `window.SVC_EXPLORER = { apis: [{ api, name, url }], index: [...] }`.
import { keepAccessible } from './a11y.js';
import { checkOperationLink, showNotice } from './notices.js';
import { ExplorerPlugin } from './plugin.js';
import { fromDisk, requestInterceptor } from './requests.js';
import { loadSearch } from './search-loader.js';
import { config, initial, pageParams, pageWindow, subscribe, unknownApi } from './state.js';

/**
 * Opened from disk (a downloaded CI artifact), the browser refuses fetch() of file: URLs: the
 * specs then come from specs/specs.js (a script, which file: pages may load) as blob: URLs, which
 * replace the URLs of the configuration.
 */
function specUrls(done) {
  if (!fromDisk) return done();
  const script = document.createElement('script');
  script.src = './specs/specs.js';
  script.onload = () => {
    const specs = pageWindow.SVC_EXPLORER_SPECS || {};
    for (const entry of config.apis) {
      const spec = specs[entry.api];
      if (spec) entry.url = URL.createObjectURL(new Blob([JSON.stringify(spec)], { type: 'application/json' }));
    }
    done();
  };
  script.onerror = () => done();
  document.head.appendChild(script);
}

let pageReady = false;
specUrls(start);

function start() {
  const query = pageParams.get('q');
  const { SwaggerUIBundle } = pageWindow;
  pageWindow.ui = SwaggerUIBundle({
    dom_id: '#swagger-ui',
    // The API of the link; the page's top bar (components/top-bar.js) offers the others.
    url: initial.url,
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl, ExplorerPlugin],
    layout: 'SvcLayout',
    deepLinking: true,
    // The sidebar's search sets the filter (?q= in the address); a string starts with it.
    filter: query || true,
    docExpansion: 'list',
    // Swagger UI would keep the credentials in localStorage (on disk); ExplorerPlugin keeps them
    // in sessionStorage instead.
    persistAuthorization: false,
    tryItOutEnabled: true,
    requestSnippetsEnabled: true,
    displayRequestDuration: true,
    // The Request URL and curl show the endpoint the user chose, not the /forward/ detour.
    showMutatedRequest: false,
    requestInterceptor,
    // Extensions (x-svc-workflow, x-svc-idempotent) are not shown as raw tables.
    showExtensions: false,
    // No request to the public validator at validator.swagger.io.
    validatorUrl: null,
    // Swagger UI calls this after every definition it loads (each API switch): set up once.
    onComplete: () => {
      if (pageReady) return;
      pageReady = true;
      if (unknownApi) showNotice('api', { text: unknownApi });
      subscribe(checkOperationLink);
      keepAccessible(document.getElementById('swagger-ui'));
      // Ctrl+K (Cmd+K) focuses the search from anywhere, as in Scalar and many documentation
      // sites; "/" too, as on GitHub and MDN, when not typing into a field.
      document.addEventListener('keydown', (event) => {
        const target = /** @type {HTMLElement} */ (event.target);
        const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey;
        const ctrlK = event.key.toLowerCase() === 'k' && (event.ctrlKey || event.metaKey) && !event.altKey;
        if (!ctrlK && !(slash && !target.closest?.('input, textarea, select, [contenteditable]'))) return;
        const input = /** @type {HTMLInputElement | null} */ (document.getElementById('svc-search-input'));
        if (!input) return;
        event.preventDefault();
        loadSearch();
        const tree = input.closest('nav')?.querySelector('details.svc-nav-tree');
        if (tree && !(/** @type {HTMLDetailsElement} */ (tree).open)) tree.setAttribute('open', '');
        input.focus();
        input.select();
      });
      // A link pasted into the address bar of an open page changes only the fragment: open it too.
      window.addEventListener('hashchange', () => {
        let hash;
        try {
          hash = decodeURIComponent(location.hash);
        } catch {
          return;
        } // as Swagger UI does on load
        pageWindow.ui.layoutActions.parseDeepLinkHash(hash);
      });
    },
  });
}
