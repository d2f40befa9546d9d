// Under a parameter that names another entity, where its value came from: the live entity the
// page filled in against the local svc (an answer of this tab, or a list read in the background),
// or, against a real endpoint, that it is the spec's example, which names nothing there. ES module.
import { parameterSource } from '../defaults.js';
import { toJS } from '../state.js';
import { h, react, useLocation } from './react.js';

/** A time of an ISO date as the history shows it (`12:00:01`). */
const clock = (at) => String(at).slice(11, 19);

/**
 * Where a value the page filled in came from, in words.
 * @param {{ at: string, name?: string, from: { method: string, path: string, list?: boolean } }} known
 * @returns {string}
 */
export function sourceText(known) {
  const request = known.from.method.toUpperCase() + ' ' + known.from.path;
  if (!known.from.list) return 'From the answer of ' + request + ' at ' + clock(known.at) + ' (History of this tab).';
  return (
    'From the local svc: the newest' +
    (known.name ? ' ("' + known.name + '")' : '') +
    ' of ' +
    request +
    ', read at ' +
    clock(known.at) +
    '.'
  );
}

/** The note of a spec example that stands in a field against a real endpoint. */
export const EXAMPLE_NOTE = "The spec's example: it names nothing on your endpoint. Type the UUID of one of yours.";

/**
 * Swagger UI's `parameterRow`, with a line under it saying where its value came from while it is
 * the value the page gave. The line keeps its room once the user types another value: the form
 * must not move under the pointer between a keystroke and a click on Execute.
 * @param {{ Original: any, sys: any, props: any }} props
 */
export function PrefilledParameter({ Original, sys, props }) {
  useLocation(); // the live state's changes (Swagger UI renders it again for the form's)
  const param = props.param;
  const value = toJS(sys.specSelectors.parameterWithMetaByIdentity(props.pathMethod, props.rawParam)?.get('value'));
  const source = param?.get ? parameterSource(sys, props.pathMethod, props.rawParam, value) : null;
  const seen = react.React.useRef(false);
  if (source) seen.current = true;
  if (!seen.current) return h(Original, props);
  const text = !source ? '' : 'known' in source ? sourceText(source.known) : EXAMPLE_NOTE;
  return h(
    react.React.Fragment,
    null,
    h(Original, props),
    h(
      'tr',
      { className: 'svc-prefilled', style: source ? undefined : { visibility: 'hidden' } },
      h(
        'td',
        { colSpan: 2, 'aria-hidden': source ? undefined : 'true' },
        h(
          'span',
          { className: 'svc-prefilled-note', 'data-source': !source ? '' : 'known' in source ? 'live' : 'example' },
          param.get('name') + ': ' + (text || '\u00a0'),
        ),
      ),
    ),
  );
}
