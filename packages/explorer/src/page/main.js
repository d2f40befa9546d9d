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
 * specs then come from specs/specs.js (a script, which file: pages may load) as blob: URLs.
 */
function specUrls(done) {
  const plain = config.apis.map((a) => ({ url: a.url, name: a.name }));
  if (!fromDisk) return done(plain);
  const script = document.createElement('script');
  script.src = './specs/specs.js';
  script.onload = () => {
    const specs = pageWindow.SVC_EXPLORER_SPECS || {};
    done(
      config.apis.map((a) => {
        const spec = specs[a.api];
        if (!spec) return { url: a.url, name: a.name };
        const blobUrl = URL.createObjectURL(new Blob([JSON.stringify(spec)], { type: 'application/json' }));
        for (const entry of config.apis) if (entry.api === a.api) entry.url = blobUrl;
        return { url: blobUrl, name: a.name };
      }),
    );
  };
  script.onerror = () => done(plain);
  document.head.appendChild(script);
}

let pageReady = false;
specUrls(start);

function start(urls) {
  const query = pageParams.get('q');
  const { SwaggerUIBundle, SwaggerUIStandalonePreset } = pageWindow;
  pageWindow.ui = SwaggerUIBundle({
    dom_id: '#swagger-ui',
    urls,
    'urls.primaryName': initial.name,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
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
