// The local svc's state, above the operations when the server selected is the local svc: its
// images, tasks (with their progress) and object stores, the request journal with each request's
// verdict (a violation against the operation and the field it broke), and Reset, Download
// snapshot and Restore. Closed, one line of counts; open, watched (local-svc-state.js). ES module.
import { readLiveState, serverKind } from '../defaults.js';
import {
  clearJournal,
  invalidOnlyShown,
  operationNamed,
  readSummary,
  resetLocalSvc,
  restoreSnapshot,
  saveSnapshot,
  showInvalidOnly,
  stateNow,
  subscribeState,
  watchState,
} from '../local-svc-state.js';
import { operationLink } from '../query.js';
import { showOperation } from '../runner.js';
import { page, readSession, writeSession } from '../state.js';
import { AUTHORIZE_BUTTON } from './authorize.js';
import { h, react, useStoreUpdates } from './react.js';
import { bytes, count, stateKind, summaryLine, taskTitle, violationField } from './state-words.js';

/** Session key: whether the view is open (as the user last left it in this tab). */
export const STATE_OPEN_KEY = 'svc-explorer.state-open';
/** How many journal entries the view shows before "Show more". */
const JOURNAL_SHOWN = 25;

/** A time of day from an ISO date: `17:36:04` (`ms`: `17:36:04.520`). */
const clock = (iso, ms = false) => (typeof iso === 'string' ? iso.slice(11, ms ? 23 : 19) : '');

// ---- The component.

/** Re-renders on every change of what the view shows. */
function useStateNow() {
  const [, setTick] = react.React.useState(0);
  react.React.useEffect(() => subscribeState(() => setTick((t) => t + 1)), []);
  return stateNow();
}

/** A state word with its colour. */
const Badge = (state) => h('span', { className: 'svc-badge', 'data-kind': stateKind(state) }, String(state ?? '?'));

/** A link to an operation of the explorer: in this page for the API shown, else a page load. */
function OperationLink({ sys, op, children }) {
  const href = operationLink(op.api, op.tag, op.operationId);
  const onClick = (event) => {
    if (op.api !== page.api || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    showOperation(sys, op.tag, op.operationId);
  };
  return h('a', { href, onClick, className: 'svc-state-op' }, children);
}

/** Where a list comes from: the operation, linked. */
function From({ sys, listed }) {
  if (!listed) return null;
  const { from } = listed;
  const shown = listed.items.length < listed.total ? 'the newest ' + listed.items.length + ' of ' + listed.total : '';
  return h(
    'p',
    { className: 'svc-state-from' },
    'From ',
    h(OperationLink, { sys, op: from }, from.summary),
    ' (' + from.method.toUpperCase() + ' ' + from.path + ')' + (shown ? ', ' + shown : '') + '.',
  );
}

/** A section of the view: a heading with its count, where it comes from, its items. */
function Part({ id, title, listed, sys, empty, render }) {
  if (!listed) return null;
  return h(
    'section',
    { className: 'svc-state-part', 'aria-labelledby': id },
    h('h3', { id }, title + ' (' + listed.total + ')'),
    h(From, { sys, listed }),
    listed.items.length ? h('ul', { className: 'svc-state-list' }, listed.items.map(render)) : h('p', null, empty),
  );
}

function imageItem(image) {
  const uuid = image.metadata?.uuid ?? '';
  const resources = image.status?.resources ?? image.spec?.resources ?? {};
  const size = resources.size_bytes;
  return h(
    'li',
    { key: uuid, className: 'svc-entity', 'data-uuid': uuid },
    h('span', { className: 'svc-entity-name' }, image.spec?.name ?? image.status?.name ?? uuid),
    Badge(image.status?.state),
    h(
      'span',
      { className: 'svc-entity-meta' },
      [resources.image_type, Number.isFinite(size) ? bytes(size) : ''].filter(Boolean).join(' · '),
    ),
    h('code', { className: 'svc-uuid' }, uuid),
  );
}

function taskItem(task) {
  const title = taskTitle(task);
  const percent = Math.max(0, Math.min(100, Number(task.percentage_complete) || 0));
  return h(
    'li',
    { key: task.uuid, className: 'svc-entity svc-task', 'data-uuid': task.uuid, 'data-status': task.status },
    h('span', { className: 'svc-entity-name' }, title),
    Badge(task.status),
    h(
      'span',
      { className: 'svc-progress' },
      h('progress', { max: 100, value: percent, 'aria-label': 'Progress of ' + title }),
      h('span', { className: 'svc-progress-text' }, percent + '%'),
    ),
    task.error_detail ? h('span', { className: 'svc-entity-error' }, task.error_detail) : null,
    h('code', { className: 'svc-uuid' }, task.uuid),
  );
}

function storeItem(store) {
  const uuid = store.metadata?.uuid ?? '';
  const state = store.status?.state;
  const percent = Number(store.status?.percent_complete);
  return h(
    'li',
    { key: uuid, className: 'svc-entity', 'data-uuid': uuid },
    h('span', { className: 'svc-entity-name' }, store.spec?.name ?? store.status?.name ?? uuid),
    Badge(state),
    stateKind(state) === 'run' && Number.isFinite(percent)
      ? h(
          'span',
          { className: 'svc-progress' },
          h('progress', { max: 100, value: percent, 'aria-label': 'Progress of ' + (store.spec?.name ?? uuid) }),
          h('span', { className: 'svc-progress-text' }, percent + '%'),
        )
      : null,
    h('span', { className: 'svc-entity-meta' }, store.spec?.resources?.domain ?? ''),
    h('code', { className: 'svc-uuid' }, uuid),
  );
}

/** One request of the journal: what it was, its answer, and its verdict against the description. */
function JournalEntry({ sys, entry, own }) {
  const op = operationNamed(entry.operation_id);
  const method = String(entry.method).toLowerCase();
  const outcome = entry.status < 400 ? 'ok' : 'error';
  return h(
    'li',
    { className: 'svc-journal-entry', 'data-id': entry.id, 'data-valid': String(entry.valid) },
    h(
      'p',
      { className: 'svc-journal-line' },
      h('span', { className: 'svc-method svc-method-' + method }, entry.method),
      ' ',
      h('code', { className: 'svc-journal-path' }, entry.path),
      ' ',
      h('span', { className: 'svc-history-status', 'data-outcome': outcome }, String(entry.status)),
      ' ',
      h(
        'span',
        { className: 'svc-verdict', 'data-valid': String(entry.valid) },
        entry.valid ? 'valid' : op ? 'broke the description' : 'no such operation',
      ),
      ' ',
      op ? h(OperationLink, { sys, op }, op.summary || op.operationId) : null,
      own ? h('span', { className: 'svc-journal-own' }, ' (this page)') : null,
      ' ',
      h('time', { dateTime: entry.time }, clock(entry.time, true)),
    ),
    !entry.valid && entry.violations?.length
      ? h(
          'ul',
          { className: 'svc-violations', 'aria-label': 'What it broke' },
          entry.violations.map((v, i) =>
            h(
              'li',
              { key: i },
              h('code', null, violationField(v)),
              ' in the ' + v.in + ': ' + v.message,
              v.lenient ? ' (production accepts this: the local svc answered as production does)' : '',
            ),
          ),
        )
      : null,
  );
}

/** The request journal: newest first, the page's own reads left out unless asked. */
function Journal({ sys, journal, onClear }) {
  const { React } = react;
  const [showOwn, setShowOwn] = React.useState(false);
  const [more, setMore] = React.useState(false);
  const [invalidOnly, setInvalidOnly] = React.useState(invalidOnlyShown);
  if (!journal) return null;
  const entries = journal.entries.filter((e) => showOwn || !journal.own.has(e.id));
  const broke = journal.entries.filter((e) => !e.valid && !journal.own.has(e.id)).length;
  const shown = more ? entries : entries.slice(0, JOURNAL_SHOWN);
  return h(
    'section',
    { className: 'svc-state-part svc-journal', 'aria-labelledby': 'svc-journal-title' },
    h(
      'h3',
      { id: 'svc-journal-title' },
      // the page's own reads left out of the count too, unless shown
      'Requests' +
        (invalidOnly ? ' that broke the description' : '') +
        ' (' +
        (showOwn ? journal.total : journal.total - journal.own.size) +
        ')',
    ),
    h(
      'p',
      { className: 'svc-state-from' },
      'The request journal (GET /_svc/requests), newest first: each request with its operation and whether it ' +
        'followed the description' +
        (broke && !invalidOnly ? '; ' + count(broke, 'request') + ' of these broke it' : '') +
        '.',
    ),
    h(
      'div',
      { className: 'svc-journal-filters' },
      h(
        'label',
        null,
        h('input', {
          type: 'checkbox',
          checked: invalidOnly,
          onChange: (event) => {
            setInvalidOnly(event.target.checked);
            showInvalidOnly(event.target.checked);
          },
        }),
        ' Only those that broke the description',
      ),
      h(
        'label',
        null,
        h('input', { type: 'checkbox', checked: showOwn, onChange: (event) => setShowOwn(event.target.checked) }),
        " This page's own reads (" + journal.own.size + ')',
      ),
      h('button', { type: 'button', className: 'btn svc-journal-clear', onClick: onClear }, 'Empty the journal'),
    ),
    shown.length
      ? h(
          'ol',
          { className: 'svc-journal-list' },
          shown.map((entry) => h(JournalEntry, { key: entry.id, sys, entry, own: journal.own.has(entry.id) })),
        )
      : h('p', null, invalidOnly ? 'No request broke the description.' : 'No request yet.'),
    entries.length > shown.length
      ? h(
          'button',
          { type: 'button', className: 'btn svc-journal-more', onClick: () => setMore(true) },
          'Show all ' + entries.length,
        )
      : null,
  );
}

/** What the watch does now, in words. */
function watchWords(state) {
  if (state.status === 'reading') return 'Reading…';
  if (state.status === 'failed') return 'Could not read the local svc: ' + state.error;
  const at = state.at ? 'Updated ' + clock(state.at) : '';
  const next = state.next;
  if (next && 'tasks' in next)
    return at + ' · following ' + count(next.tasks, 'running task') + ' (tasks/poll, as they move)';
  if (next && 'ms' in next) return at + ' · nothing runs: looking again in ' + Math.round(next.ms / 1000) + ' s';
  return at;
}

/** @param {{ sys: any }} props */
export function StateView({ sys }) {
  const { React } = react;
  useStoreUpdates(sys);
  const state = useStateNow();
  const local = serverKind(sys) === 'local';
  const [open, setOpen] = React.useState(() => readSession(STATE_OPEN_KEY, false) === true);
  const [confirming, setConfirming] = React.useState(false);
  const [message, setMessage] = React.useState('');
  const [busy, setBusy] = React.useState('');
  const resetButton = React.useRef(null);
  const confirmButton = React.useRef(null);
  const fileInput = React.useRef(null);
  React.useEffect(() => {
    if (!local) return;
    if (open) return watchState();
    readSummary();
  }, [local, open]);
  React.useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);
  if (!local) return null;

  const toggle = () => {
    setOpen(!open);
    writeSession(STATE_OPEN_KEY, !open);
  };
  /** Runs an action of the control API (one at a time), saying what it did or why it failed. */
  const act = async (name, action) => {
    if (busy) return;
    setBusy(name);
    setMessage('');
    try {
      setMessage(await action());
    } catch (error) {
      setMessage(String(error?.message ?? error));
    } finally {
      setBusy('');
    }
  };
  const reset = () =>
    act('reset', async () => {
      setConfirming(false);
      // (the confirmation goes: the focus stays with the action)
      resetButton.current?.focus();
      const removed = await resetLocalSvc();
      readLiveState(sys, { force: true });
      return (
        'Reset: removed ' +
        [
          count(removed.image ?? 0, 'image'),
          count(removed.task ?? 0, 'task'),
          count(removed.object_store ?? 0, 'object store'),
        ].join(', ') +
        '.'
      );
    });
  const download = () =>
    act('snapshot', async () => {
      const { blob, name } = await saveSnapshot();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      return 'Saved ' + name + ' (' + bytes(blob.size) + '): Restore takes it back.';
    });
  const restore = (event) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    act('restore', async () => {
      const entities = await restoreSnapshot(file);
      readLiveState(sys, { force: true });
      return (
        'Restored ' +
        file.name +
        ': ' +
        [
          count(entities.image ?? 0, 'image'),
          count(entities.task ?? 0, 'task'),
          count(entities.object_store ?? 0, 'object store'),
        ].join(', ') +
        '.'
      );
    });
  };
  const clear = () =>
    act('clear', async () => {
      await clearJournal();
      return 'The journal is empty.';
    });

  const summary = summaryLine(state);
  return h(
    'section',
    { className: 'svc-state', 'aria-labelledby': 'svc-state-title', 'data-status': state.status },
    h(
      'h2',
      { id: 'svc-state-title' },
      h(
        'button',
        {
          type: 'button',
          className: 'svc-state-toggle',
          'aria-expanded': open,
          'aria-controls': 'svc-state-body',
          onClick: toggle,
        },
        'Local svc state',
      ),
    ),
    summary ? h('p', { className: 'svc-state-summary' }, summary) : null,
    open
      ? h(
          'div',
          { id: 'svc-state-body', className: 'svc-state-body' },
          state.status === 'unauthorized'
            ? h(
                'p',
                { className: 'svc-state-auth' },
                "The local svc's state needs its credentials. ",
                h(
                  'button',
                  {
                    type: 'button',
                    className: 'btn svc-fix',
                    onClick: () =>
                      /** @type {HTMLElement | null} */ (document.querySelector(AUTHORIZE_BUTTON))?.click(),
                  },
                  'Authorize',
                ),
              )
            : null,
          h(
            'div',
            { className: 'svc-state-actions', role: 'group', 'aria-label': 'Local svc actions' },
            h(
              'button',
              {
                type: 'button',
                className: 'btn svc-state-reset',
                ref: resetButton,
                'aria-disabled': Boolean(busy),
                'aria-expanded': confirming,
                onClick: () => !busy && setConfirming(!confirming),
              },
              'Reset…',
            ),
            h(
              'button',
              {
                type: 'button',
                className: 'btn svc-state-snapshot',
                'aria-disabled': Boolean(busy),
                onClick: download,
              },
              'Download snapshot',
            ),
            h(
              'button',
              {
                type: 'button',
                className: 'btn svc-state-restore',
                'aria-disabled': Boolean(busy),
                onClick: () => !busy && fileInput.current?.click(),
              },
              'Restore a snapshot…',
            ),
            h('input', {
              type: 'file',
              ref: fileInput,
              hidden: true,
              accept: '.tar,application/x-tar',
              className: 'svc-state-file',
              onChange: restore,
            }),
          ),
          confirming
            ? h(
                'div',
                {
                  className: 'svc-state-confirm',
                  role: 'group',
                  'aria-label': 'Confirm the reset',
                  onKeyDown: (event) => {
                    if (event.key !== 'Escape') return;
                    setConfirming(false);
                    resetButton.current?.focus();
                  },
                },
                h(
                  'p',
                  null,
                  'Remove every image (with its bytes), task and object store the APIs created? The clusters, ' +
                    'subnets and storage containers, the fault rules, the settings and the journal stay.',
                ),
                h(
                  'button',
                  { type: 'button', className: 'btn svc-state-reset-now', ref: confirmButton, onClick: reset },
                  'Reset the local svc',
                ),
                ' ',
                h(
                  'button',
                  {
                    type: 'button',
                    className: 'btn',
                    onClick: () => {
                      setConfirming(false);
                      resetButton.current?.focus();
                    },
                  },
                  'Cancel',
                ),
              )
            : null,
          h('p', { className: 'svc-state-message', role: 'status' }, busy ? 'Working…' : message),
          h('p', { className: 'svc-state-watch' }, watchWords(state)),
          h(
            'div',
            { className: 'svc-state-parts' },
            h(Part, {
              id: 'svc-state-images',
              title: 'Images',
              listed: state.images,
              sys,
              empty: 'No image.',
              render: imageItem,
            }),
            h(Part, {
              id: 'svc-state-tasks',
              title: 'Tasks',
              listed: state.tasks,
              sys,
              empty: 'No task.',
              render: taskItem,
            }),
            h(Part, {
              id: 'svc-state-stores',
              title: 'Object stores',
              listed: state.stores,
              sys,
              empty: 'No object store.',
              render: storeItem,
            }),
          ),
          h(Journal, { sys, journal: state.journal, onClear: clear }),
        )
      : null,
  );
}
