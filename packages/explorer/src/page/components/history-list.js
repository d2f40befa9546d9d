// The requests of this tab, newest first, every API's, each with its status (or "no answer" when
// none came) and Replay (the sidebar's "History of this tab"). ES module.
import { historyEntries, replay } from '../history.js';
import { indexByApi, page } from '../state.js';
import { h, useLocation } from './react.js';

/** The words of an entry's status: the HTTP status, or that no answer came. */
export const statusWords = (status) => (status ? String(status) : 'no answer');

/** @param {{ sys: any }} props */
export function HistoryList({ sys }) {
  useLocation();
  const entries = historyEntries();
  if (!entries.length) return null;
  return h(
    'details',
    // open beside the operations; on a phone it would take the sticky sidebar's room
    { className: 'svc-history', open: window.matchMedia?.('(min-width: 900px)').matches ?? true },
    h('summary', null, 'History of this tab (' + entries.length + ')'),
    h(
      'ol',
      null,
      entries.map((entry) => {
        const action = entry.body?.kind === 'file' ? 'Open' : 'Replay';
        const time = entry.at.slice(11, 19);
        const other = entry.api !== page.api;
        const outcome = !entry.status ? 'none' : entry.status < 400 ? 'ok' : 'error';
        return h(
          'li',
          { key: entry.id, 'data-history': entry.id, 'data-api': entry.api },
          h('span', { className: 'svc-method svc-method-' + entry.method }, entry.method.toUpperCase()),
          ' ',
          h('code', { className: 'svc-history-url', title: entry.url }, entry.path),
          other
            ? h('span', { className: 'svc-history-api' }, ' (' + (indexByApi[entry.api]?.name ?? entry.api) + ')')
            : null,
          ' ',
          h('span', { className: 'svc-history-status', 'data-outcome': outcome }, statusWords(entry.status)),
          ' ',
          h('time', { dateTime: entry.at }, time),
          ' ',
          h(
            'button',
            {
              type: 'button',
              className: 'btn svc-history-replay',
              // The name starts with the visible word (axe label-content-name-mismatch).
              'aria-label': action + ' ' + entry.method.toUpperCase() + ' ' + entry.path + ' of ' + time,
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
