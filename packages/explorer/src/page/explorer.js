// The explorer page's script: Swagger UI with the house plugins. scripts/build.mjs prepends
// `window.SVC_EXPLORER = { apis: [{ api, name, url }] }` and writes the result to dist/explorer.js.
// Plain browser script (no modules) so that the page also works opened from disk.
/* global SwaggerUIBundle, SwaggerUIStandalonePreset */
(function () {
  'use strict';

  var config = window.SVC_EXPLORER;
  var AUTH_KEY = 'svc-explorer.auth';
  var INSECURE_KEY = 'svc-explorer.self-signed';
  var FORWARD_HEADER = 'X-Svc-Explorer-Forward';

  // ---- Which API: ?api=<name> in the URL, so that a deep link names the API and the operation.
  var apiParam = new URLSearchParams(location.search).get('api');
  var initial = config.apis.find(function (a) { return a.api === apiParam; }) || config.apis[0];
  var unknownApi = apiParam && initial.api !== apiParam
    ? 'Unknown API "' + apiParam + '" in the link (?api=); showing "' + initial.api + '". Known: ' +
      config.apis.map(function (a) { return a.api; }).join(', ') + '.'
    : null;

  function absolute(url) {
    try { return new URL(url, location.href).href; } catch (e) { return String(url); }
  }

  /** Rewrites the address bar to `?api=<name>` (keeping the fragment) without reloading. */
  function showApiInUrl(api) {
    var params = new URLSearchParams(location.search);
    params.delete('urls.primaryName'); // Swagger UI's own top bar writes this; ?api= replaces it.
    params.set('api', api);
    history.replaceState(history.state, '', location.pathname + '?' + params.toString() + location.hash);
  }

  // ---- Credentials: kept in sessionStorage (gone with the tab), never in localStorage.
  function readAuth() {
    try { return JSON.parse(sessionStorage.getItem(AUTH_KEY) || '{}') || {}; } catch (e) { return {}; }
  }
  function writeAuth(saved) {
    try {
      if (Object.keys(saved).length) sessionStorage.setItem(AUTH_KEY, JSON.stringify(saved));
      else sessionStorage.removeItem(AUTH_KEY);
    } catch (e) { /* storage disabled: the credentials last until the next reload */ }
  }
  function toJS(value) { return value && typeof value.toJS === 'function' ? value.toJS() : value; }
  function isBasic(schema) { return schema && schema.type === 'http' && /^basic$/i.test(String(schema.scheme)); }

  /** Logs in again with the credentials of this session when a spec is loaded (reload, API switch). */
  function restoreAuth(system) {
    var saved = readAuth();
    var schemes = toJS(system.specSelectors.specJson().getIn(['components', 'securitySchemes'])) || {};
    Object.keys(schemes).forEach(function (name) {
      if (isBasic(schemes[name]) && saved[name]) system.preauthorizeBasic(name, saved[name].username, saved[name].password);
    });
  }

  // ---- Self-signed endpoints: a tick box next to the servers, read by the request interceptor.
  function selfSigned() {
    try { return sessionStorage.getItem(INSECURE_KEY) === '1'; } catch (e) { return false; }
  }
  function setSelfSigned(on) {
    try { if (on) sessionStorage.setItem(INSECURE_KEY, '1'); else sessionStorage.removeItem(INSECURE_KEY); } catch (e) { /* ignore */ }
  }
  function isOtherOrigin(url) {
    try { return new URL(url, location.href).origin !== location.origin; } catch (e) { return false; }
  }

  // What the serving process offers: startExplorer answers { forward: true }; the build's static
  // copy says false, and a page opened from disk cannot fetch it.
  var fromDisk = location.protocol === 'file:';
  var serverInfo = fromDisk
    ? Promise.resolve({ forward: false })
    : fetch('/explorer-server.json', { cache: 'no-store' })
      .then(function (r) { return r.ok ? r.json() : { forward: false }; })
      .catch(function () { return { forward: false }; });

  /**
   * Requests to another origin (a real endpoint) go through the explorer server's /forward/
   * when it offers it: no CORS needed, and a self-signed certificate can be accepted.
   * Without it the browser calls the endpoint directly (it must allow CORS).
   */
  async function requestInterceptor(req) {
    req.curlOptions = [];
    if (!isOtherOrigin(req.url)) return req;
    var info = await serverInfo;
    if (!info.forward) return req;
    var url = new URL(req.url);
    req.url = location.origin + '/forward/' + url.protocol.replace(':', '') + '/' + url.host + url.pathname + url.search;
    req.headers = Object.assign({}, req.headers);
    req.headers[FORWARD_HEADER] = selfSigned() ? 'insecure' : 'verify';
    return req;
  }

  /**
   * The request as the page shows it (Request URL and curl): the endpoint the user chose, `-u
   * '<user>'` instead of the Authorization header (curl asks for the password, so the page never
   * shows it), `-k` for an https endpoint marked self-signed.
   */
  function displayedRequest(req) {
    var headers = Object.assign({}, req.headers);
    var options = [];
    if (selfSigned() && /^https:/i.test(absolute(req.url)) && isOtherOrigin(req.url)) options.push('-k');
    Object.keys(headers).forEach(function (name) {
      var basic = /^authorization$/i.test(name) && /^Basic\s+(\S+)$/i.exec(String(headers[name]));
      if (!basic) return;
      var user = '';
      try { user = decodeURIComponent(escape(atob(basic[1]))).split(':')[0]; } catch (e) { user = ''; }
      delete headers[name];
      options.push('-u', user); // Swagger UI's curl generator quotes each word itself.
    });
    return Object.assign({}, req, { headers: headers, curlOptions: options });
  }

  // ---- Filter: every word must appear in the tag, method, path, operationId or summary.
  var METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
  function opsFilter(taggedOps, phrase) {
    var words = String(phrase || '').toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) return taggedOps;
    return taggedOps
      .map(function (tagObj, tag) {
        var operations = tagObj.get('operations');
        if (!operations || typeof operations.filter !== 'function') return null;
        var kept = operations.filter(function (op) {
          var operation = op.get('operation');
          var text = [tag, op.get('method'), op.get('path'),
            operation && operation.get('operationId'), operation && operation.get('summary')].join(' ').toLowerCase();
          // A method name (`get`, `post`...) matches the method only, not `target` or `images_get`.
          return words.every(function (w) {
            return METHODS.indexOf(w) !== -1 ? String(op.get('method')).toLowerCase() === w : text.indexOf(w) !== -1;
          });
        });
        return kept.size ? tagObj.set('operations', kept) : null;
      })
      .filter(function (tagObj) { return tagObj !== null; });
  }

  // ---- x-codeSamples (made at build time from the bundle): tabs above the responses.
  function codeSamplesComponent(React) {
    return function CodeSamples(props) {
      var samples = props.samples;
      var state = React.useState(0);
      var selected = Math.min(state[0], samples.length - 1);
      var copiedState = React.useState(false);
      var h = React.createElement;
      var source = samples[selected].source;
      return h('div', { className: 'svc-code-samples' },
        h('div', { className: 'opblock-section-header' }, h('h4', { className: 'opblock-title' }, 'Code samples')),
        h('div', { className: 'svc-code-samples-tabs', role: 'tablist' },
          samples.map(function (sample, i) {
            return h('button', {
              key: sample.label, type: 'button', role: 'tab', 'aria-selected': i === selected ? 'true' : 'false',
              className: 'svc-code-sample-tab' + (i === selected ? ' active' : ''),
              onClick: function () { state[1](i); copiedState[1](false); },
            }, sample.label + ' (' + sample.lang + ')');
          }),
          h('button', {
            type: 'button', className: 'btn svc-code-sample-copy',
            onClick: function () {
              if (navigator.clipboard) navigator.clipboard.writeText(source).then(function () { copiedState[1](true); }, function () {});
            },
          }, copiedState[0] ? 'Copied' : 'Copy')),
        h('pre', { className: 'svc-code-sample microlight', 'data-label': samples[selected].label }, source));
    };
  }

  function ExplorerPlugin(system) {
    var React = system.React;
    var CodeSamples = codeSamplesComponent(React);
    return {
      fn: { opsFilter: opsFilter },
      statePlugins: {
        auth: {
          wrapActions: {
            authorize: function (ori) {
              return function (payload) {
                var saved = readAuth();
                Object.keys(payload || {}).forEach(function (name) {
                  var entry = payload[name] || {};
                  var value = toJS(entry.value) || {};
                  if (isBasic(toJS(entry.schema)) && value.username) saved[name] = { username: String(value.username), password: String(value.password || '') };
                });
                writeAuth(saved);
                return ori(payload);
              };
            },
            logout: function (ori) {
              return function (names) {
                var saved = readAuth();
                (Array.isArray(names) ? names : toJS(names) || []).forEach(function (name) { delete saved[name]; });
                writeAuth(saved);
                return ori(names);
              };
            },
          },
        },
        spec: {
          wrapActions: {
            updateUrl: function (ori) {
              return function (url) {
                var result = ori(url);
                var entry = config.apis.find(function (a) { return absolute(a.url) === absolute(url); });
                // After the top bar's own address-bar update, which runs right after this action.
                if (entry) setTimeout(function () { showApiInUrl(entry.api); }, 0);
                // The notice about an unknown ?api= is stale once the user picks an API.
                var notice = document.querySelector('.svc-notice');
                if (notice && entry && entry.api !== initial.api) notice.remove();
                return result;
              };
            },
            updateJsonSpec: function (ori, sys) {
              return function (json) {
                var result = ori(json);
                setTimeout(function () { restoreAuth(sys); }, 0);
                return result;
              };
            },
            setRequest: function (ori) {
              return function (path, method, req) { return ori(path, method, displayedRequest(req)); };
            },
          },
        },
      },
      wrapComponents: {
        responses: function (Original, sys) {
          return function (props) {
            var samples = toJS(sys.specSelectors.specJson().getIn(['paths', props.path, props.method, 'x-codeSamples']));
            var list = Array.isArray(samples) ? samples.filter(function (s) { return s && typeof s.source === 'string'; }) : [];
            return React.createElement(React.Fragment, null,
              list.length ? React.createElement(CodeSamples, { samples: list }) : null,
              React.createElement(Original, props));
          };
        },
        ServersContainer: function (Original) {
          return function (props) {
            return React.createElement(React.Fragment, null,
              React.createElement(Original, props),
              React.createElement('label', { className: 'svc-self-signed', title: 'Accept the certificate of an https endpoint that this browser does not trust (curl -k)' },
                React.createElement('input', {
                  type: 'checkbox', defaultChecked: selfSigned(),
                  onChange: function (event) { setSelfSigned(event.target.checked); },
                }),
                ' Self-signed certificate (real endpoints only)'));
          };
        },
      },
    };
  }

  /**
   * Opened from disk (a downloaded CI artifact), the browser refuses fetch() of file: URLs: the
   * specs then come from specs/specs.js (a script, which file: pages may load) as blob: URLs.
   */
  function specUrls(done) {
    var plain = config.apis.map(function (a) { return { url: a.url, name: a.name }; });
    if (!fromDisk) return done(plain);
    var script = document.createElement('script');
    script.src = './specs/specs.js';
    script.onload = function () {
      var specs = window.SVC_EXPLORER_SPECS || {};
      done(config.apis.map(function (a) {
        var spec = specs[a.api];
        if (!spec) return { url: a.url, name: a.name };
        var blobUrl = URL.createObjectURL(new Blob([JSON.stringify(spec)], { type: 'application/json' }));
        config.apis.forEach(function (entry) { if (entry.api === a.api) entry.url = blobUrl; });
        return { url: blobUrl, name: a.name };
      }));
    };
    script.onerror = function () { done(plain); };
    document.head.appendChild(script);
  }

  var pageReady = false;
  specUrls(function (urls) { start(urls); });

  function start(urls) {
    window.ui = SwaggerUIBundle({
      dom_id: '#swagger-ui',
      urls: urls,
      'urls.primaryName': initial.name,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      plugins: [SwaggerUIBundle.plugins.DownloadUrl, ExplorerPlugin],
      layout: 'StandaloneLayout',
      deepLinking: true,
      filter: true,
      docExpansion: 'list',
      // Swagger UI would keep the credentials in localStorage (on disk); ExplorerPlugin keeps them
      // in sessionStorage instead.
      persistAuthorization: false,
      tryItOutEnabled: true,
      requestSnippetsEnabled: true,
      displayRequestDuration: true,
      // The Request URL and curl show the endpoint the user chose, not the /forward/ detour.
      showMutatedRequest: false,
      requestInterceptor: requestInterceptor,
      // The x-codeSamples are shown as code, not as a raw extension table.
      showExtensions: false,
      // No request to the public validator at validator.swagger.io.
      validatorUrl: null,
      // Swagger UI calls this after every definition it loads (each API switch): set up once.
      onComplete: function () {
        if (pageReady) return;
        pageReady = true;
        if (unknownApi) {
          var notice = document.createElement('p');
          notice.className = 'svc-notice';
          notice.setAttribute('role', 'alert');
          notice.textContent = unknownApi;
          document.getElementById('swagger-ui').prepend(notice);
        }
        // A link pasted into the address bar of an open page changes only the fragment: open it too.
        window.addEventListener('hashchange', function () {
          var hash;
          try { hash = decodeURIComponent(location.hash); } catch (e) { return; } // as Swagger UI does on load
          window.ui.layoutActions.parseDeepLinkHash(hash);
        });
        var filter = document.querySelector('.operation-filter-input');
        if (filter) filter.setAttribute('placeholder', 'Filter by tag, method, path, operationId or summary');
      },
    });
  }
})();
