// A UUID path parameter filled from this tab's history: the newest answer that named a UUID of
// its kind (a task from the last create, an image from the last list), said where it came from,
// instead of the spec's example UUID, which names nothing that exists. ES module.
import { historyEntries } from '../history.js';
import { activeWorkflow, stepApi, stepOperation } from '../runner.js';
import { page, toJS } from '../state.js';
import { kindOf, newestUuid } from '../uuid-sources.js';
import { h, react } from './react.js';

/**
 * Where a prefilled value came from, in words.
 * @param {{ method: string, path: string, at: string }} entry
 * @returns {string}
 */
export function sourceText(entry) {
  return (
    'From the answer of ' +
    entry.method.toUpperCase() +
    ' ' +
    entry.path +
    ' at ' +
    entry.at.slice(11, 19) +
    ' (History of this tab).'
  );
}

/** Whether the operation is the current step of the workflow followed (the workflow fills it). */
function inWorkflowStep(path, method) {
  const active = activeWorkflow();
  if (!active) return false;
  const step = active.workflow.steps[active.step];
  const op = stepOperation(active, step);
  return Boolean(op && stepApi(active, step) === page.api && op.path === path && op.method === method);
}

/**
 * Swagger UI's `parameterRow`: a UUID path parameter that still holds the spec's example takes
 * the newest UUID of its kind from the history; a line under it says where it came from while
 * the value is that one.
 * @param {{ Original: any, sys: any, props: any }} props
 */
export function PrefilledParameter({ Original, sys, props }) {
  const { React } = react;
  const param = props.param;
  const [path, method] = props.pathMethod ?? [];
  const name = param?.get?.('name');
  const isUuid = param?.get?.('in') === 'path' && param.getIn(['schema', 'format']) === 'uuid';
  const kind = isUuid ? kindOf(path, name) : null;
  // the history as the operation opened
  const [source] = React.useState(() => (kind ? newestUuid(historyEntries(), page.api, kind) : null));
  const current = () =>
    toJS(sys.specSelectors.parameterWithMetaByIdentity(props.pathMethod, props.rawParam)?.get('value'));
  // as the row itself changes its value (its onChange), so that Swagger UI keeps one entry for it
  const onChange = (value) => props.onChange(props.rawParam, value);
  React.useEffect(() => {
    if (!source || inWorkflowStep(path, method)) return;
    const example = toJS(param.get('example') ?? param.getIn(['schema', 'example']));
    const value = current();
    if (value === undefined || value === null || String(value) === String(example)) onChange(source.uuid);
  }, []);
  // the workflow followed fills this operation itself (its panel says from which step)
  if (!source || inWorkflowStep(path, method)) return h(React.Fragment, null, h(Original, props), null);
  // Once the user types another value the note is hidden but keeps its room: the form must not
  // move under the pointer between a keystroke and a click on Execute.
  const shown = String(current()) === source.uuid;
  return h(
    React.Fragment,
    null,
    h(Original, props),
    h(
      'tr',
      { className: 'svc-prefilled', style: shown ? undefined : { visibility: 'hidden' } },
      h(
        'td',
        { colSpan: 2, 'aria-hidden': shown ? undefined : 'true' },
        h('span', { className: 'svc-prefilled-note' }, name + ': ' + sourceText(source.entry)),
      ),
    ),
  );
}
