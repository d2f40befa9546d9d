// The live code samples of an operation: curl, @svc/client, Python, Go and PowerShell of the
// request the form would send now, as tabs (arrow keys move between them) with Copy. ES module.
import { liveRequest } from '../requests.js';
import { samplesOf } from '../samples.js';
import { h, react, useLocation, useStoreUpdates } from './react.js';

/**
 * The tab an arrow key, Home or End moves to from `index` among `count` tabs (round the ends).
 * @param {string} key `KeyboardEvent.key`
 * @param {number} index
 * @param {number} count
 * @returns {number | undefined} undefined for another key
 */
export function tabAfterKey(key, index, count) {
  const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: count - 1 }[key];
  return next === undefined ? undefined : (next + count) % count;
}

/** @param {{ sys: any, path: string, method: string }} props */
export function CodeSamples({ sys, path, method }) {
  const { React } = react;
  useStoreUpdates(sys);
  useLocation();
  const [selected, select] = React.useState(0);
  const [copied, setCopied] = React.useState(false);
  const samples = samplesOf(liveRequest(sys, path, method));
  const index = Math.min(selected, samples.length - 1);
  const id = 'svc-samples-' + method + path.replace(/[^A-Za-z0-9]+/g, '-');
  const choose = (i) => {
    select(i);
    setCopied(false);
  };
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
            const to = tabAfterKey(event.key, index, samples.length);
            if (to === undefined) return;
            event.preventDefault();
            choose(to);
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
              onClick: () => choose(i),
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
            navigator.clipboard?.writeText(samples[index].source).then(
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
