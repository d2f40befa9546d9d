// Swagger UI's Execute, which waits for the operation it sends and says what a file upload
// misses. ES module.
import { namesEntities, serverKind } from '../defaults.js';
import { listsSettled } from '../live-state.js';
import { fileMissing } from '../requests.js';
import { page } from '../state.js';
import { h, react, useLocation } from './react.js';

/**
 * Execute of an operation: disabled (and saying why) until Swagger UI has resolved the
 * operation's `$ref`s, which it does after first showing it: until then the form lacks its
 * parameters and body, an Execute would send a request without them, and the form growing
 * under the pointer moves the button. Against the local svc, an operation whose form names other
 * entities waits too while the local svc's lists are read (its defaults come from them, bounded
 * by the lists' timeout). A file upload without a file says what is missing (Swagger UI would do
 * nothing).
 * @param {{ Original: any, sys: any, props: { path: string, method: string } }} props
 */
export function ExecuteWithFileCheck({ Original, sys, props }) {
  const [tried, setTried] = react.React.useState(false);
  useLocation(); // the lists' arrival
  const resolved = Boolean(sys.specSelectors.specResolvedSubtree(['paths', props.path, props.method]));
  const server = serverKind(sys);
  const reading =
    resolved &&
    (server === 'unknown' || (server === 'local' && !listsSettled(page.api))) &&
    namesEntities(sys, props.path, props.method);
  if (!resolved || reading)
    return h(
      'div',
      { className: 'svc-execute' },
      h('button', { type: 'button', className: 'btn execute opblock-control__btn', disabled: true }, 'Execute'),
      h(
        'p',
        { className: 'svc-execute-wait', role: 'status' },
        resolved ? 'Reading what the local svc holds…' : 'Reading the operation…',
      ),
    );
  const noFile = fileMissing(sys, props.path, props.method);
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
