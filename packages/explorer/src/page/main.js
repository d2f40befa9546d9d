// The explorer page: Swagger UI with the house plugin. scripts/build.mjs bundles this module and
// its imports into dist/explorer.js (one classic script, so that the page also works opened from
// disk), after `window.SVC_EXPLORER = { apis: [{ api, name, url }], index: [...] }`.
/* global SwaggerUIBundle, SwaggerUIStandalonePreset */
import { exampleOf, mediaKind } from '@svc/oas';
import { keepAccessible } from './a11y.js';
import { explain } from './errors.js';
import { samplesOf } from './samples.js';
import { matches, operationLink, queryWords, search } from './search.js';
import { linkValues, pointerSet, stepInputs, stepState } from './workflow.js';

const config = window.SVC_EXPLORER;
const AUTH_KEY = 'svc-explorer.auth';
const INSECURE_KEY = 'svc-explorer.self-signed';
const ANSWERS_KEY = 'svc-explorer.workflow-answers';
const FORWARD_HEADER = 'X-Svc-Explorer-Forward';
const indexByApi = Object.fromEntries(config.index.map((entry) => [entry.api, entry]));

// ---- Which API: ?api=<name> in the URL, so that a deep link names the API and the operation.
const pageParams = new URLSearchParams(location.search);
const apiParam = pageParams.get('api');
const initial = config.apis.find((a) => a.api === apiParam) || config.apis[0];
const unknownApi =
  apiParam && initial.api !== apiParam
    ? 'Unknown API "' +
      apiParam +
      '" in the link (?api=); showing "' +
      initial.api +
      '". Known: ' +
      config.apis.map((a) => a.api).join(', ') +
      '.'
    : null;
let currentApi = initial.api;

function absolute(url) {
  try {
    return new URL(url, location.href).href;
  } catch {
    return String(url);
  }
}

/** Rewrites query parameters of the address bar (keeping the fragment) without reloading. */
function setUrlParams(changes, hash = location.hash) {
  const params = new URLSearchParams(location.search);
  params.delete('urls.primaryName'); // Swagger UI's own top bar writes this; ?api= replaces it.
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || value === '') params.delete(name);
    else params.set(name, value);
  }
  history.replaceState(history.state, '', location.pathname + '?' + params.toString() + hash);
}

// ---- Session storage: credentials, the self-signed choice and workflow answers go with the tab.
function readSession(key, fallback) {
  try {
    return JSON.parse(sessionStorage.getItem(key) || 'null') ?? fallback;
  } catch {
    return fallback;
  }
}
function writeSession(key, value) {
  try {
    if (value === null || (typeof value === 'object' && !Object.keys(value).length)) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage disabled: kept until the next reload */
  }
}
function toJS(value) {
  return value && typeof value.toJS === 'function' ? value.toJS() : value;
}
function isBasic(schema) {
  return schema && schema.type === 'http' && /^basic$/i.test(String(schema.scheme));
}

/** Logs in again with the credentials of this session when a spec is loaded (reload, API switch). */
function restoreAuth(system) {
  const saved = readSession(AUTH_KEY, {});
  const schemes = toJS(system.specSelectors.specJson().getIn(['components', 'securitySchemes'])) || {};
  for (const name of Object.keys(schemes)) {
    if (isBasic(schemes[name]) && saved[name])
      system.preauthorizeBasic(name, saved[name].username, saved[name].password);
  }
}

const selfSigned = () => readSession(INSECURE_KEY, false) === true;
function isOtherOrigin(url) {
  try {
    return new URL(url, location.href).origin !== location.origin;
  } catch {
    return false;
  }
}

// What the serving process offers: startExplorer answers { forward: true }; the build's static
// copy says false, and a page opened from disk cannot fetch it.
const fromDisk = location.protocol === 'file:';
const serverInfo = fromDisk
  ? Promise.resolve({ forward: false })
  : fetch('/explorer-server.json', { cache: 'no-store' })
      .then((r) => (r.ok ? r.json() : { forward: false }))
      .catch(() => ({ forward: false }));

/**
 * Requests to another origin (a real endpoint) go through the explorer server's /forward/
 * when it offers it: no CORS needed, and a self-signed certificate can be accepted.
 */
async function requestInterceptor(req) {
  req.curlOptions = [];
  if (!isOtherOrigin(req.url)) return req;
  const info = await serverInfo;
  if (!info.forward) return req;
  const url = new URL(req.url);
  req.url = location.origin + '/forward/' + url.protocol.replace(':', '') + '/' + url.host + url.pathname + url.search;
  req.headers = { ...req.headers, [FORWARD_HEADER]: selfSigned() ? 'insecure' : 'verify' };
  return req;
}

/** Whether curl (and so every sample) skips TLS verification for a URL: https, ticked self-signed. */
const insecureFor = (url) => selfSigned() && /^https:/i.test(absolute(url)) && isOtherOrigin(url);

/**
 * The request as the page shows it (Request URL and curl): the endpoint the user chose, `-u
 * '<user>'` instead of the Authorization header (curl asks for the password, so the page never
 * shows it), `-k` for an https endpoint marked self-signed.
 */
function displayedRequest(req) {
  const headers = { ...req.headers };
  const options = insecureFor(req.url) ? ['-k'] : [];
  for (const name of Object.keys(headers)) {
    const basic = /^authorization$/i.test(name) && /^Basic\s+(\S+)$/i.exec(String(headers[name]));
    if (!basic) continue;
    let user = '';
    try {
      user = decodeURIComponent(escape(atob(basic[1]))).split(':')[0];
    } catch {
      user = '';
    }
    delete headers[name];
    options.push('-u', user); // Swagger UI's curl generator quotes each word itself.
  }
  return { ...req, headers, curlOptions: options };
}

/** Swagger UI's filter, with the index's matching: descriptions included. */
function opsFilter(taggedOps, phrase) {
  const words = queryWords(phrase);
  const ops = indexByApi[currentApi]?.operations ?? {};
  if (!words.length) return taggedOps;
  return taggedOps
    .map((tagObj) => {
      const operations = tagObj.get('operations');
      if (!operations || typeof operations.filter !== 'function') return null;
      const kept = operations.filter((op) => {
        const entry = ops[op.getIn(['operation', 'operationId'])];
        return entry ? matches(entry, words) : false;
      });
      return kept.size ? tagObj.set('operations', kept) : null;
    })
    .filter((tagObj) => tagObj !== null);
}

// ---- Live samples: the request of the form, with the selected server.

/** The media types of the 2xx answers of an operation (Immutable operation). */
function successTypes(operation) {
  const types = new Set();
  for (const [code, response] of Object.entries(toJS(operation.get('responses')) || {})) {
    if (/^2/.test(code)) for (const type of Object.keys(response?.content || {})) types.add(type);
  }
  return [...types];
}

/**
 * What "Try it out" would send now, as a samples request: the parameters typed (path ones
 * always), the body in the editor or the chosen file, the selected server made absolute.
 * @returns {import('./samples.js').SampleRequest}
 */
function liveRequest(system, path, method) {
  const { specSelectors, oas3Selectors } = system;
  const operation = specSelectors.operationWithMeta(path, method);
  const params = { path: [], query: [], header: [] };
  for (const param of operation.get('parameters') || []) {
    const where = param.get('in');
    if (!(where in params)) continue;
    let value = toJS(param.get('value'));
    if (Array.isArray(value)) value = value.join(',');
    if (value === undefined || value === '') {
      if (where !== 'path') continue;
      value = '<' + param.get('name') + '>';
    }
    params[where].push({ name: param.get('name'), value });
  }
  const server = absolute(
    oas3Selectors.serverEffectiveValue({ server: oas3Selectors.selectedServer() }) || location.origin,
  );
  let body = null;
  const content = toJS(operation.getIn(['requestBody', 'content']));
  if (content && Object.keys(content).length) {
    const contentType = oas3Selectors.requestContentType(path, method) || Object.keys(content)[0];
    const value = oas3Selectors.requestBodyValue(path, method);
    if (mediaKind(contentType) === 'json') {
      let parsed = exampleOf(toJS(specSelectors.specJson()), content[contentType]);
      if (typeof value === 'string' && value.trim()) {
        try {
          parsed = JSON.parse(value);
        } catch {
          parsed = value;
        }
      }
      body = { kind: 'json', contentType, value: parsed ?? {} };
    } else {
      body = {
        kind: 'file',
        contentType,
        file: value && typeof value === 'object' && value.name ? value.name : 'image.qcow2',
      };
    }
  }
  return {
    api: currentApi,
    method,
    server: [{ text: server }],
    path,
    params,
    body,
    accept: successTypes(operation),
    insecure: insecureFor(server),
  };
}

// ---- Workflows ("Start here"): answers recorded per workflow step, in this session.
function activeWorkflow() {
  const params = new URLSearchParams(location.search);
  const id = params.get('workflow');
  if (!id) return null;
  for (const entry of config.index) {
    const workflow = entry.workflows.find((w) => w.workflowId === id);
    if (workflow) {
      const step = Math.max(0, Math.min(workflow.steps.length - 1, Number(params.get('step') || 0) || 0));
      return { api: entry.api, workflow, step };
    }
  }
  return null;
}
function stepApi(active, step) {
  return step.api || active.api;
}

/** Where a step's operation is: its API's index entry. */
function stepOperation(active, step) {
  return indexByApi[stepApi(active, step)]?.operations[step.operationId];
}

const answersOf = (workflowId) => readSession(ANSWERS_KEY, {})[workflowId] || {};
/** Keeps the latest answer of a step; `count` says how many it had (a repeated step counts up). */
function recordAnswer(workflowId, stepId, answer) {
  const all = readSession(ANSWERS_KEY, {});
  const before = all[workflowId]?.[stepId];
  all[workflowId] = { ...(all[workflowId] || {}), [stepId]: { ...answer, count: (before?.count ?? 0) + 1 } };
  writeSession(ANSWERS_KEY, all);
}

/**
 * Opens a step's operation with the values of the previous answers filled in. Another API's
 * operation loads that API (a page load: the answers stay in session storage).
 */
function openStep(system, active, index) {
  const step = active.workflow.steps[index];
  const op = stepOperation(active, step);
  if (!op) return;
  const link = operationLink(stepApi(active, step), op.tag, step.operationId, {
    workflow: active.workflow.workflowId,
    step: String(index),
  });
  if (stepApi(active, step) !== currentApi) {
    location.assign(link);
    return;
  }
  history.replaceState(history.state, '', link);
  window.dispatchEvent(new Event('svc-explorer:location'));
  system.layoutActions.parseDeepLinkHash(decodeURIComponent(location.hash));
  fillStep(system, { ...active, step: index });
}

/**
 * Puts values into an operation's parameters in the "Try it out" form.
 * @param {{ path: string, method: string }} op
 * @param {{ name: string, in?: string, value: any }[]} values `in` defaults to where the spec has the parameter
 */
function setParameters(system, op, values) {
  const resolved = system.specSelectors
    .specJsonWithResolvedSubtrees()
    .getIn(['paths', op.path, op.method, 'parameters']);
  for (const { name, in: declared, value } of values) {
    const param = resolved && resolved.find((p) => p.get('name') === name && (!declared || p.get('in') === declared));
    const where = declared || (param ? param.get('in') : 'path');
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    system.specActions.changeParam([op.path, op.method], name, where, text);
    // A value Swagger UI already keeps under the parameter's identity wins over the one above.
    if (param) system.specActions.changeParamByIdentity([op.path, op.method], param, text);
  }
}

/** Opens an operation of the API shown (deep link), leaving any workflow. */
function showOperation(system, tag, operationId) {
  setUrlParams({ workflow: null, step: null }, '#/' + encodeURIComponent(tag) + '/' + encodeURIComponent(operationId));
  window.dispatchEvent(new Event('svc-explorer:location'));
  system.layoutActions.parseDeepLinkHash(decodeURIComponent(location.hash));
}

/** Puts the step's inputs into the operation's form (parameters, request body). */
function fillStep(system, active) {
  const step = active.workflow.steps[active.step];
  const op = stepOperation(active, step);
  if (!op) return;
  const inputs = stepInputs(step, answersOf(active.workflow.workflowId));
  const pathMethod = [op.path, op.method];
  setParameters(system, op, inputs.parameters);
  const spec = toJS(system.specSelectors.specJson());
  const example = step.requestBodyExample ? spec.components?.examples?.[step.requestBodyExample]?.value : undefined;
  if (example !== undefined || inputs.body.length) {
    const content = spec.paths?.[op.path]?.[op.method]?.requestBody?.content || {};
    const json = Object.keys(content).find((t) => mediaKind(t) === 'json');
    if (json) {
      const body = structuredClone(example ?? exampleOf(spec, content[json]) ?? {});
      for (const { pointer, value } of inputs.body) pointerSet(body, pointer, value);
      system.oas3Actions.setRetainRequestBodyValueFlag?.({ value: true, pathMethod });
      system.oas3Actions.setRequestBodyValue({ value: JSON.stringify(body, null, 2), pathMethod });
    }
  }
}

/** Inline markdown of step texts: `code` only (the rest as text). */
function inlineCode(h, text) {
  return String(text || '')
    .split(/(`[^`]+`)/)
    .map((part, i) => (/^`[^`]+`$/.test(part) ? h('code', { key: i }, part.slice(1, -1)) : part));
}

function ExplorerPlugin(system) {
  const React = system.React;
  const h = React.createElement;

  /** Re-renders a component whenever Swagger UI's state changes (form values, server). */
  function useStoreUpdates(sys) {
    const [, setTick] = React.useState(0);
    React.useEffect(() => sys.getStore().subscribe(() => setTick((t) => t + 1)), []);
  }

  /** Forces a re-render when the page's address changes (search, workflow step). */
  function useLocation() {
    const [, setTick] = React.useState(0);
    React.useEffect(() => {
      const update = () => setTick((t) => t + 1);
      window.addEventListener('svc-explorer:location', update);
      window.addEventListener('hashchange', update);
      return () => {
        window.removeEventListener('svc-explorer:location', update);
        window.removeEventListener('hashchange', update);
      };
    }, []);
  }

  function Logo() {
    return h(
      'span',
      { className: 'svc-logo' },
      h('span', { className: 'svc-logo-mark', 'aria-hidden': 'true' }, 'svc'),
      h('span', { className: 'svc-logo-text' }, 'API explorer'),
    );
  }

  function CodeSamples(props) {
    const { sys, path, method } = props;
    useStoreUpdates(sys);
    useLocation();
    const [selected, select] = React.useState(0);
    const [copied, setCopied] = React.useState(false);
    const samples = samplesOf(liveRequest(sys, path, method));
    const index = Math.min(selected, samples.length - 1);
    const id = 'svc-samples-' + method + path.replace(/[^A-Za-z0-9]+/g, '-');
    return h(
      'section',
      { className: 'svc-code-samples', 'aria-labelledby': id + '-title' },
      h(
        'div',
        { className: 'opblock-section-header' },
        h('h4', { className: 'opblock-title', id: id + '-title' }, 'Code samples (follow the form and the server)'),
      ),
      h(
        'div',
        { className: 'svc-code-samples-bar' },
        h(
          'div',
          {
            className: 'svc-code-samples-tabs',
            role: 'tablist',
            'aria-label': 'Language',
            // Arrow keys move between the tabs (only the selected one is in the Tab order).
            onKeyDown: (event) => {
              const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: samples.length - 1 }[event.key];
              if (next === undefined) return;
              event.preventDefault();
              const to = (next + samples.length) % samples.length;
              select(to);
              setCopied(false);
              document.getElementById(id + '-tab-' + to)?.focus();
            },
          },
          samples.map((sample, i) =>
            h(
              'button',
              {
                key: sample.label,
                type: 'button',
                role: 'tab',
                id: id + '-tab-' + i,
                'aria-controls': id + '-panel',
                'aria-selected': i === index ? 'true' : 'false',
                tabIndex: i === index ? 0 : -1,
                className: 'svc-code-sample-tab' + (i === index ? ' active' : ''),
                onClick: () => {
                  select(i);
                  setCopied(false);
                },
              },
              sample.label,
            ),
          ),
        ),
        h(
          'button',
          {
            type: 'button',
            className: 'btn svc-code-sample-copy',
            onClick: () => {
              if (navigator.clipboard)
                navigator.clipboard.writeText(samples[index].source).then(
                  () => setCopied(true),
                  () => {},
                );
            },
          },
          copied ? 'Copied' : 'Copy',
        ),
      ),
      h(
        'pre',
        {
          className: 'svc-code-sample',
          id: id + '-panel',
          role: 'tabpanel',
          tabIndex: 0,
          'aria-labelledby': id + '-tab-' + index,
          'data-label': samples[index].label,
        },
        samples[index].source,
      ),
    );
  }

  /** The explanation of an error answer, above Swagger UI's response. */
  function Explanation({ response }) {
    const headers = {};
    for (const [k, v] of Object.entries(toJS(response.get('headers')) || {})) headers[k.toLowerCase()] = String(v);
    const text = response.get('text');
    const why = explain({
      status: Number(response.get('status')),
      headers,
      text: typeof text === 'string' ? text : '',
    });
    if (!why) return null;
    return h(
      'div',
      { className: 'svc-explanation', role: 'alert' },
      h('p', { className: 'svc-explanation-title' }, why.title),
      h(
        'ul',
        null,
        why.lines.map((line, i) => h('li', { key: i }, line)),
      ),
    );
  }

  /**
   * The next calls an answer leads to (the OpenAPI `links` of its response): each opens its
   * operation with the values taken from this answer.
   */
  function FollowLinks({ sys, response, path, method }) {
    const status = String(response.get('status'));
    const spec = toJS(sys.specSelectors.specJson());
    const local = (ref) =>
      typeof ref === 'string' && ref.startsWith('#/')
        ? ref
            .slice(2)
            .split('/')
            .reduce((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], spec)
        : undefined;
    let declared = spec.paths?.[path]?.[method]?.responses?.[status];
    if (declared?.$ref) declared = local(declared.$ref);
    const links = Object.entries(declared?.links || {}).map(([name, l]) => [name, l?.$ref ? local(l.$ref) : l]);
    if (!links.length) return null;
    let body = response.get('body');
    body = toJS(body);
    if (body === undefined || typeof body !== 'object') {
      try {
        body = JSON.parse(response.get('text'));
      } catch {
        body = undefined;
      }
    }
    const headers = {};
    for (const [k, v] of Object.entries(toJS(response.get('headers')) || {})) headers[k.toLowerCase()] = String(v);
    const items = links
      .map(([name, link]) => {
        const target = link && indexByApi[currentApi]?.operations[link.operationId];
        const values = target && linkValues(link, { headers, body });
        if (!values) return null;
        const open = () => {
          showOperation(sys, target.tag, link.operationId);
          setParameters(sys, target, values);
        };
        return h(
          'li',
          { key: name },
          h(
            'button',
            { type: 'button', className: 'btn svc-follow', onClick: open },
            link.description || link.operationId,
          ),
          ' ',
          h('code', null, target.method.toUpperCase() + ' ' + target.path),
          ' ',
          values.map((v) => v.name + ' = ' + v.value).join(', '),
        );
      })
      .filter(Boolean);
    if (!items.length) return null;
    return h(
      'div',
      { className: 'svc-follow-links' },
      h('p', null, 'Next, with the values of this answer:'),
      h('ul', null, items),
    );
  }

  /** The API selector, tags and operations; with a query, the matches of every API. */
  function Sidebar({ sys }) {
    useStoreUpdates(sys);
    useLocation();
    const query = sys.layoutSelectors.currentFilter();
    const q = typeof query === 'string' ? query : '';
    const [draft, setDraft] = React.useState(q);
    const onSearch = (event) => {
      const value = event.target.value;
      setDraft(value);
      sys.layoutActions.updateFilter(value);
      setUrlParams({ q: value || null });
    };
    const open = decodeURIComponent(location.hash);
    const opItem = (api, op) => {
      const href = operationLink(api, op.tag, op.operationId, q ? { q } : {});
      const current = api === currentApi && open === '#/' + op.tag + '/' + op.operationId;
      const onClick = (event) => {
        if (api !== currentApi || event.metaKey || event.ctrlKey || event.shiftKey) return; // another API: a page load
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
    if (queryWords(q).length) {
      const results = search(config.index, q);
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
          { key: entry.api, className: 'svc-nav-api' + (entry.api === currentApi ? ' current' : '') },
          h(
            'h2',
            null,
            h(
              'a',
              { href: '?api=' + entry.api, 'aria-current': entry.api === currentApi ? 'page' : undefined },
              entry.name,
            ),
          ),
          entry.workflows.length
            ? h(
                'ul',
                { className: 'svc-nav-workflows' },
                entry.workflows.map((w) =>
                  h(
                    'li',
                    { key: w.workflowId },
                    h(
                      'a',
                      {
                        href: '?api=' + entry.api + '&workflow=' + encodeURIComponent(w.workflowId) + '&step=0',
                        className: 'svc-nav-workflow',
                      },
                      'Start here: ' + w.summary,
                    ),
                  ),
                ),
              )
            : null,
          entry.api === currentApi
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
      { className: 'svc-sidebar', 'aria-label': 'APIs and operations' },
      h(
        'div',
        { className: 'svc-search', role: 'search' },
        h('label', { htmlFor: 'svc-search-input' }, 'Search all APIs'),
        h('input', {
          id: 'svc-search-input',
          type: 'search',
          value: draft,
          onChange: onSearch,
          autoComplete: 'off',
          placeholder: 'e.g. upload, get v2.0, task status',
          'aria-describedby': 'svc-search-help',
        }),
        h(
          'p',
          { id: 'svc-search-help', className: 'svc-search-help' },
          'Matches tags, methods, paths, operationIds, summaries and descriptions.',
        ),
      ),
      h(
        'details',
        { className: 'svc-nav-tree', open: window.matchMedia?.('(min-width: 900px)').matches ?? true },
        h('summary', null, 'Browse APIs and operations'),
        tree,
      ),
    );
  }

  /** The operation list; when the search leaves nothing here, says so and where matches are. */
  function NoMatch({ q }) {
    const elsewhere = search(config.index, q).filter((r) => r.api !== currentApi && r.operations.length);
    const here = indexByApi[currentApi]?.name ?? currentApi;
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
                React.Fragment,
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

  /** "Start here": the workflows of the API, or the steps of the one being followed. */
  function StartHere({ sys }) {
    useStoreUpdates(sys);
    useLocation();
    const active = activeWorkflow();
    const entry = indexByApi[currentApi];
    if (!active) {
      if (!entry || !entry.workflows.length) return null;
      return h(
        'section',
        { className: 'svc-start', 'aria-labelledby': 'svc-start-title' },
        h('h2', { id: 'svc-start-title' }, 'Start here'),
        h(
          'ul',
          null,
          entry.workflows.map((w) =>
            h(
              'li',
              { key: w.workflowId },
              h(
                'a',
                {
                  href: '?api=' + currentApi + '&workflow=' + encodeURIComponent(w.workflowId) + '&step=0',
                  className: 'svc-start-link',
                },
                w.summary,
              ),
              ' (' + w.steps.length + ' steps)',
            ),
          ),
        ),
      );
    }
    const { workflow } = active;
    const answers = answersOf(workflow.workflowId);
    return h(
      'section',
      {
        className: 'svc-start svc-workflow',
        'aria-labelledby': 'svc-start-title',
        'data-workflow': workflow.workflowId,
      },
      h('h2', { id: 'svc-start-title' }, 'Start here: ' + workflow.summary),
      workflow.description ? h('p', null, inlineCode(h, workflow.description)) : null,
      h(
        'ol',
        { className: 'svc-steps' },
        workflow.steps.map((step, i) => {
          const state = stepState(step, answers[step.stepId]);
          const op = stepOperation(active, step);
          const status = { waiting: '', done: 'done', repeat: 'not yet: Execute again', failed: 'failed' }[state.state];
          return h(
            'li',
            {
              key: step.stepId,
              'data-step': step.stepId,
              'data-state': state.state,
              'data-answers': answers[step.stepId]?.count ?? 0,
              className: 'svc-step' + (i === active.step ? ' current' : ''),
              'aria-current': i === active.step ? 'step' : undefined,
            },
            h(
              'button',
              { type: 'button', className: 'btn svc-step-open', onClick: () => openStep(sys, active, i) },
              (i === active.step ? 'Reopen' : 'Open') + ' step ' + (i + 1),
            ),
            ' ',
            h(
              'code',
              null,
              (op ? op.method.toUpperCase() + ' ' + op.path : step.operationId) +
                (step.api && step.api !== active.api ? ' (' + step.api + ')' : ''),
            ),
            status
              ? h(
                  'span',
                  { className: 'svc-step-state' },
                  ' ' +
                    status +
                    (state.value !== undefined
                      ? ' (' + step.until.pointer + ' = ' + JSON.stringify(state.value) + ')'
                      : ''),
                )
              : null,
            step.description ? h('p', null, inlineCode(h, step.description)) : null,
            i === active.step && stepInputs(step, answers).missing.length
              ? h(
                  'p',
                  { className: 'svc-step-missing', role: 'status' },
                  'This step takes values from the answer of ' +
                    stepInputs(step, answers)
                      .missing.map((id) => 'step ' + (workflow.steps.findIndex((s) => s.stepId === id) + 1))
                      .join(', ') +
                    ': Execute that step first.',
                )
              : null,
          );
        }),
      ),
      active.step + 1 < workflow.steps.length &&
        stepState(workflow.steps[active.step], answers[workflow.steps[active.step].stepId]).state === 'done'
        ? h(
            'button',
            {
              type: 'button',
              className: 'btn execute svc-step-next',
              onClick: () => openStep(sys, active, active.step + 1),
            },
            'Next step: ' + (active.step + 2),
          )
        : null,
      h('p', { className: 'svc-workflow-leave' }, h('a', { href: '?api=' + currentApi }, 'Leave this workflow')),
    );
  }

  function SvcLayout() {
    const Topbar = system.getComponent('Topbar', true);
    const BaseLayout = system.getComponent('BaseLayout', true);
    return h(
      'div',
      { className: 'swagger-ui svc-app' },
      h(Topbar),
      h(
        'div',
        { className: 'svc-columns' },
        h(Sidebar, { sys: system }),
        h('div', { className: 'svc-main', id: 'svc-main' }, h(StartHere, { sys: system }), h(BaseLayout)),
      ),
    );
  }

  return {
    fn: { opsFilter },
    components: { Logo, SvcLayout, FilterContainer: () => null },
    statePlugins: {
      auth: {
        wrapActions: {
          authorize: (ori) => (payload) => {
            const saved = readSession(AUTH_KEY, {});
            for (const name of Object.keys(payload || {})) {
              const entry = payload[name] || {};
              const value = toJS(entry.value) || {};
              if (isBasic(toJS(entry.schema)) && value.username)
                saved[name] = { username: String(value.username), password: String(value.password || '') };
            }
            writeSession(AUTH_KEY, saved);
            return ori(payload);
          },
          logout: (ori) => (names) => {
            const saved = readSession(AUTH_KEY, {});
            for (const name of Array.isArray(names) ? names : toJS(names) || []) delete saved[name];
            writeSession(AUTH_KEY, saved);
            return ori(names);
          },
        },
      },
      spec: {
        wrapActions: {
          updateUrl: (ori) => (url) => {
            const result = ori(url);
            const entry = config.apis.find((a) => absolute(a.url) === absolute(url));
            if (entry) {
              currentApi = entry.api;
              // After the top bar's own address-bar update, which runs right after this action.
              setTimeout(() => {
                setUrlParams({ api: entry.api });
                window.dispatchEvent(new Event('svc-explorer:location'));
              }, 0);
            }
            // The notice about an unknown ?api= is stale once the user picks an API.
            const notice = document.querySelector('.svc-notice');
            if (notice && entry && entry.api !== initial.api) notice.remove();
            return result;
          },
          updateJsonSpec: (ori, sys) => (json) => {
            const result = ori(json);
            setTimeout(() => {
              restoreAuth(sys);
              // A workflow step opened by link (another API's step, a reload): fill its form.
              const active = activeWorkflow();
              // A workflow link without an operation opens the step (on its API: maybe a page load).
              if (active && !location.hash) openStep(sys, active, active.step);
              else if (active && stepApi(active, active.workflow.steps[active.step]) === currentApi)
                setTimeout(() => fillStep(sys, active), 300);
            }, 0);
            return result;
          },
          setRequest: (ori) => (path, method, req) => ori(path, method, displayedRequest(req)),
          setResponse: (ori) => (path, method, res) => {
            const active = activeWorkflow();
            const step = active && active.workflow.steps[active.step];
            const op = step && stepOperation(active, step);
            if (op && stepApi(active, step) === currentApi && op.path === path && op.method === method) {
              let body = res.body;
              if (body === undefined || typeof body !== 'object') {
                try {
                  body = JSON.parse(res.text);
                } catch {
                  body = res.text;
                }
              }
              const headers = {};
              for (const [k, v] of Object.entries(res.headers || {})) headers[k.toLowerCase()] = String(v);
              recordAnswer(active.workflow.workflowId, step.stepId, { status: res.status, headers, body });
            }
            return ori(path, method, res);
          },
        },
      },
    },
    wrapComponents: {
      responses: (Original, sys) => (props) =>
        h(React.Fragment, null, h(CodeSamples, { sys, path: props.path, method: props.method }), h(Original, props)),
      liveResponse: (Original, sys) => (props) =>
        h(
          React.Fragment,
          null,
          props.response ? h(Explanation, { response: props.response }) : null,
          h(Original, props),
          props.response
            ? h(FollowLinks, { sys, response: props.response, path: props.path, method: props.method })
            : null,
        ),
      operations: (Original, sys) => (props) => {
        const filter = sys.layoutSelectors.currentFilter();
        if (
          typeof filter === 'string' &&
          queryWords(filter).length &&
          opsFilter(sys.specSelectors.taggedOperations(), filter).size === 0
        ) {
          return h(NoMatch, { q: filter });
        }
        return h(Original, props);
      },
      execute: (Original, sys) => (props) => {
        // A file upload without a file: Swagger UI would do nothing; say what is missing.
        const [tried, setTried] = React.useState(false);
        const type = sys.oas3Selectors.requestContentType(props.path, props.method) || '';
        const value = sys.oas3Selectors.requestBodyValue(props.path, props.method);
        const wantsFile =
          /octet-stream|^image\/|^application\/x-/.test(type) ||
          (!type &&
            sys.specSelectors
              .operationWithMeta(props.path, props.method)
              .getIn(['requestBody', 'content', 'application/octet-stream']));
        const noFile = wantsFile && !(value && typeof value === 'object' && typeof value.size === 'number');
        return h(
          'div',
          { className: 'svc-execute', onClickCapture: () => setTried(true) },
          h(Original, props),
          tried && noFile
            ? h(
                'p',
                { className: 'svc-explanation', role: 'alert' },
                'Choose the file to upload first (Request body: "Choose File"), then Execute.',
              )
            : null,
        );
      },
      ServersContainer: (Original) => (props) =>
        h(
          React.Fragment,
          null,
          h(Original, props),
          h(
            'label',
            {
              className: 'svc-self-signed',
              title: 'Accept the certificate of an https endpoint that this browser does not trust (curl -k)',
            },
            h('input', {
              type: 'checkbox',
              defaultChecked: selfSigned(),
              onChange: (event) => {
                writeSession(INSECURE_KEY, event.target.checked ? true : null);
                window.dispatchEvent(new Event('svc-explorer:location')); // the samples' -k follows it
              },
            }),
            ' Self-signed certificate (real endpoints only)',
          ),
        ),
    },
  };
}

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
    const specs = window.SVC_EXPLORER_SPECS || {};
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
  window.ui = SwaggerUIBundle({
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
      if (unknownApi) {
        const notice = document.createElement('p');
        notice.className = 'svc-notice';
        notice.setAttribute('role', 'alert');
        notice.textContent = unknownApi;
        document.getElementById('swagger-ui').prepend(notice);
      }
      keepAccessible(document.getElementById('swagger-ui'));
      // A link pasted into the address bar of an open page changes only the fragment: open it too.
      window.addEventListener('hashchange', () => {
        let hash;
        try {
          hash = decodeURIComponent(location.hash);
        } catch {
          return;
        } // as Swagger UI does on load
        window.ui.layoutActions.parseDeepLinkHash(hash);
      });
    },
  });
}
