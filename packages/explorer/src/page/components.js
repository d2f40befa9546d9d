// The page's components: sidebar and search, "Start here" and the step bar, live samples and the
// one curl, error explanations, followed links, the skip link. ES module.
import { resolveRef } from '@svc/oas';
import { explain } from './errors.js';
import { historyEntries, replay } from './history.js';
import { liveRequest, loggedInUser, opsFilter, selfSigned } from './requests.js';
import {
  activeWorkflow,
  answersOf,
  executeStep,
  openStep,
  POLL,
  setParameters,
  showOperation,
  stepApi,
  stepOperation,
} from './runner.js';
import { curl, samplesOf } from './samples.js';
import { operationLink, queryWords, search } from './search.js';
import {
  config,
  INSECURE_KEY,
  indexByApi,
  notify,
  page,
  setUrlParams,
  specObject,
  subscribe,
  toJS,
  writeSession,
} from './state.js';
import { linkValues, stepInputs, stepState } from './workflow.js';

/** Inline markdown of step texts: `code` only (the rest as text). */
export function inlineCode(h, text) {
  return String(text || '')
    .split(/(`[^`]+`)/)
    .map((part, i) => (/^`[^`]+`$/.test(part) ? h('code', { key: i }, part.slice(1, -1)) : part));
}

/**
 * The file name of a downloaded answer: `image-<uuid>.img` for `.../images/<uuid>/file`, else the
 * last segment of the path with `.bin`.
 * @param {string} url the request URL
 * @returns {string}
 */
export function downloadName(url) {
  let path = '';
  try {
    path = new URL(url, location.href).pathname;
  } catch {
    path = '';
  }
  const image = /\/images\/([0-9A-Za-z-]+)\/file$/.exec(path);
  if (image) return 'image-' + image[1] + '.img';
  const last = path.split('/').filter(Boolean).pop() || 'download';
  return last.replace(/[^A-Za-z0-9._-]+/g, '_') + '.bin';
}

/**
 * The page's React components over Swagger UI's system (its React, store and selectors).
 * @param {any} system Swagger UI's system
 */
export function createComponents(system) {
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
    React.useEffect(() => subscribe(() => setTick((t) => t + 1)), []);
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
      // A group, not a region: a landmark here would be one of many alike (axe landmark-unique).
      'div',
      { className: 'svc-code-samples', role: 'group', 'aria-labelledby': id + '-title' },
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
  function Explanation({ response, sys }) {
    useStoreUpdates(sys);
    /** @type {Record<string, string>} */
    const headers = {};
    for (const [k, v] of Object.entries(toJS(response.get('headers')) || {})) headers[k.toLowerCase()] = String(v);
    const text = response.get('text');
    const why = explain({
      status: Number(response.get('status')),
      headers,
      text: typeof text === 'string' ? text : '',
      user: loggedInUser(sys),
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
    const spec = specObject(sys);
    // a broken reference shows no link rather than breaking the answer's rendering
    const local = (node) => resolveRef(spec, node).value;
    const declared = local(spec.paths?.[path]?.[method]?.responses?.[status]);
    const links = Object.entries(declared?.links || {}).map(([name, l]) => [name, local(l)]);
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
    /** @type {Record<string, string>} */
    const headers = {};
    for (const [k, v] of Object.entries(toJS(response.get('headers')) || {})) headers[k.toLowerCase()] = String(v);
    const items = links
      .map(([name, link]) => {
        const target = link && indexByApi[page.api]?.operations[link.operationId];
        const values = target && linkValues(link, { headers, body });
        if (!values) return null;
        const open = () => {
          // Inside a workflow the link keeps it: on the later step that calls this operation, if any.
          const active = activeWorkflow();
          let keep;
          if (active) {
            const later = active.workflow.steps.findIndex(
              (s, j) => j > active.step && s.operationId === link.operationId && stepApi(active, s) === page.api,
            );
            keep = { workflow: active.workflow.workflowId, step: String(later >= 0 ? later : active.step) };
          }
          showOperation(sys, target.tag, link.operationId, keep);
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
      const current = api === page.api && open === '#/' + op.tag + '/' + op.operationId;
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
      h(History, { sys }),
    );
  }

  /** The requests of this tab to the API shown, newest first, each with Replay. */
  function History({ sys }) {
    useLocation();
    const entries = historyEntries().filter((e) => e.api === page.api);
    if (!entries.length) return null;
    return h(
      'details',
      { className: 'svc-history', open: true },
      h('summary', null, 'History of this tab (' + entries.length + ')'),
      h(
        'ol',
        null,
        entries.map((entry) => {
          const action = entry.body?.kind === 'file' ? 'Open' : 'Replay';
          return h(
            'li',
            { key: entry.id, 'data-history': entry.id },
            h('span', { className: 'svc-method svc-method-' + entry.method }, entry.method.toUpperCase()),
            ' ',
            h('code', { className: 'svc-history-url', title: entry.url }, entry.path),
            ' ',
            h('span', { className: 'svc-history-status' }, entry.status ? String(entry.status) : 'no answer'),
            ' ',
            h('time', { dateTime: entry.at }, entry.at.slice(11, 19)),
            ' ',
            h(
              'button',
              {
                type: 'button',
                className: 'btn svc-history-replay',
                // The name starts with the visible word (axe label-content-name-mismatch).
                'aria-label':
                  action + ' ' + entry.method.toUpperCase() + ' ' + entry.path + ' of ' + entry.at.slice(11, 19),
                onClick: () => replay(sys, entry),
              },
              action,
            ),
            entry.preview ? h('pre', { className: 'svc-history-preview', tabIndex: 0 }, entry.preview) : null,
          );
        }),
      ),
    );
  }

  /** The operation list; when the search leaves nothing here, says so and where matches are. */
  function NoMatch({ q }) {
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
    const entry = indexByApi[page.api];
    if (!active) {
      if (!entry?.workflows.length) return null;
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
                  href: '?api=' + page.api + '&workflow=' + encodeURIComponent(w.workflowId) + '&step=0',
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
      workflow.steps.every((s) => stepState(s, answers[s.stepId]).state === 'done')
        ? h(
            'p',
            { className: 'svc-workflow-complete', role: 'status' },
            'Workflow complete: all ' + workflow.steps.length + ' steps done.',
          )
        : null,
      h('p', { className: 'svc-workflow-leave' }, h('a', { href: '?api=' + page.api }, 'Leave this workflow')),
    );
  }

  /**
   * The one curl of an executed call: the curl sample of the form (credentials from
   * $SVC_USER/$SVC_PASSWORD, as `npm start` prints them), in place of Swagger UI's own.
   */
  function LiveCurl({ sys, path, method }) {
    useStoreUpdates(sys);
    return h(
      'div',
      { className: 'request-snippets svc-live-curl' },
      h('h4', null, 'Curl (runs as pasted after the export line npm start prints)'),
      h('pre', { className: 'curl', tabIndex: 0 }, curl(liveRequest(sys, path, method))),
    );
  }

  /**
   * The current workflow step where the work is: a bar fixed at the bottom of the window with the
   * step, its Execute, "Poll until done" for a step that waits on a state, and "Next step".
   */
  function StepBar({ sys }) {
    useStoreUpdates(sys);
    useLocation();
    const [polling, setPolling] = React.useState(0);
    const active = activeWorkflow();
    if (!active) return null;
    const { workflow } = active;
    const step = workflow.steps[active.step];
    const op = stepOperation(active, step);
    if (!op || stepApi(active, step) !== page.api) return null;
    const answers = answersOf(workflow.workflowId);
    const state = stepState(step, answers[step.stepId]);
    const complete = workflow.steps.every((s) => stepState(s, answers[s.stepId]).state === 'done');
    const words = {
      waiting: 'not run yet',
      done: 'done',
      repeat: 'not yet: Execute again',
      failed: 'failed: see the answer',
    }[state.state];
    const execute = () => executeStep(sys, active);
    const poll = async () => {
      for (let attempt = 1; attempt <= POLL.attempts; attempt++) {
        setPolling(attempt);
        const answer = await executeStep(sys, active);
        if (!answer || stepState(step, answer).state !== 'repeat') break;
        if (attempt < POLL.attempts) await new Promise((r) => setTimeout(r, POLL.intervalMs));
      }
      setPolling(0);
    };
    const next = active.step + 1 < workflow.steps.length && state.state === 'done';
    return h(
      'section',
      { className: 'svc-stepbar', 'aria-label': 'Current workflow step' },
      h(
        'p',
        { className: 'svc-stepbar-text' },
        h('strong', null, 'Step ' + (active.step + 1) + ' of ' + workflow.steps.length + ': '),
        h('code', null, op.method.toUpperCase() + ' ' + op.path),
        ' ',
        h(
          'span',
          { className: 'svc-stepbar-state', role: 'status', 'data-state': complete ? 'complete' : state.state },
          complete
            ? 'Workflow complete: all ' + workflow.steps.length + ' steps done.'
            : words +
                (state.value !== undefined
                  ? ' (' + step.until.pointer + ' = ' + JSON.stringify(state.value) + ')'
                  : ''),
        ),
      ),
      h(
        'div',
        { className: 'svc-stepbar-actions' },
        h(
          'button',
          { type: 'button', className: 'btn svc-stepbar-execute', onClick: execute, disabled: polling > 0 },
          'Execute step ' + (active.step + 1),
        ),
        step.until && state.state !== 'done'
          ? h(
              'button',
              { type: 'button', className: 'btn svc-stepbar-poll', onClick: poll, disabled: polling > 0 },
              polling
                ? 'Polling: ' + polling + ' of ' + POLL.attempts
                : 'Poll until done (every ' + POLL.intervalMs / 1000 + ' s, at most ' + POLL.attempts + ' times)',
            )
          : null,
        next
          ? h(
              'button',
              {
                type: 'button',
                className: 'btn execute svc-stepbar-next',
                onClick: () => openStep(sys, active, active.step + 1),
              },
              'Next step: ' + (active.step + 2),
            )
          : null,
      ),
    );
  }

  /** "Skip to the operation": the first stop of the Tab order, to the open operation or the list. */
  function SkipLink() {
    const onClick = (event) => {
      event.preventDefault();
      const id = decodeURIComponent(location.hash).split('/')[2];
      const block = id && document.querySelector('.opblock.is-open[id$="-' + CSS.escape(id) + '"]');
      const target = /** @type {HTMLElement | null} */ (
        block?.querySelector('.opblock-summary-control') || document.getElementById('svc-main')
      );
      target?.focus();
      target?.scrollIntoView({ block: 'start' });
    };
    // An in-page href: axe-core knows a skip link by it (its target outside every landmark is fine).
    return h('a', { href: '#svc-main', className: 'svc-skip', onClick }, 'Skip to the operation');
  }

  function SvcLayout() {
    const Topbar = system.getComponent('Topbar', true);
    const BaseLayout = system.getComponent('BaseLayout', true);
    return h(
      'div',
      { className: 'swagger-ui svc-app' },
      h(SkipLink),
      h(Topbar),
      h(
        'div',
        { className: 'svc-columns' },
        h(Sidebar, { sys: system }),
        h(
          // Not a <main>: Swagger UI's operations are the page's one main landmark.
          'div',
          { className: 'svc-main', id: 'svc-main', tabIndex: -1 },
          h(StartHere, { sys: system }),
          h(BaseLayout),
        ),
      ),
      h(StepBar, { sys: system }),
    );
  }

  /** Authorize, with the user logged in beside it. */
  function AuthorizeWithUser({ Original, sys, props }) {
    const user = loggedInUser(sys);
    return h(
      React.Fragment,
      null,
      h(Original, props),
      user ? h('span', { className: 'svc-auth-user' }, 'Logged in as ' + user) : null,
    );
  }

  /**
   * A downloaded answer with a file name: Swagger UI names one without Content-Disposition
   * "<type>:<segment>:<blob URL>"; this gives it image-<uuid>.img for an image's bytes.
   */
  function NamedDownload({ Original, props }) {
    const headers = props.headers || {};
    const named = Object.entries(headers).some(
      ([k, v]) => k.toLowerCase() === 'content-disposition' && /filename/i.test(String(v)),
    );
    if (named || !/octet-stream|^image\//i.test(String(props.contentType || ''))) return h(Original, props);
    const disposition = 'attachment; filename="' + downloadName(String(props.url || '')) + '"';
    return h(Original, { ...props, headers: { ...headers, 'content-disposition': disposition } });
  }

  /** The operation list, or where matches are when the search leaves nothing in this API. */
  function OperationsOrNoMatch({ Original, sys, props }) {
    const filter = sys.layoutSelectors.currentFilter();
    if (
      typeof filter === 'string' &&
      queryWords(filter).length &&
      opsFilter(sys.specSelectors.taggedOperations(), filter).size === 0
    ) {
      return h(NoMatch, { q: filter });
    }
    // The tags are h3 under the API's h1: an h2 between them keeps the heading order.
    return h(React.Fragment, null, h('h2', { className: 'svc-visually-hidden' }, 'Operations'), h(Original, props));
  }

  /** Execute; a file upload without a file says what is missing (Swagger UI would do nothing). */
  function ExecuteWithFileCheck({ Original, sys, props }) {
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
  }

  /** "Self-signed certificate" beside the servers: curl -k and its equivalents for real endpoints. */
  function SelfSignedToggle() {
    return h(
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
          notify(); // the samples' -k follows it
        },
      }),
      ' Self-signed certificate (real endpoints only)',
    );
  }

  return {
    Logo,
    CodeSamples,
    Explanation,
    FollowLinks,
    Sidebar,
    History,
    NoMatch,
    StartHere,
    LiveCurl,
    StepBar,
    SkipLink,
    SvcLayout,
    AuthorizeWithUser,
    NamedDownload,
    OperationsOrNoMatch,
    ExecuteWithFileCheck,
    SelfSignedToggle,
  };
}
