// Under a request body, what the page filled in and where from: against the local svc, each
// reference to another entity (the newest live one) and each image source (the local svc's own
// sample); against a real endpoint, the example's references, which name nothing there. ES module.
import { bodySource } from '../defaults.js';
import { sourceText } from './prefilled-parameter.js';
import { h, useLocation } from './react.js';

/** A kind in words, one of it (`storage_containers` -> `storage container`). */
const one = (kind) => String(kind).replace(/_/g, ' ').replace(/s$/, '');

/** @param {{ sys: any, specPath: any }} props `specPath`: Swagger UI's `['paths', path, method, 'requestBody']` */
export function BodyNote({ sys, specPath }) {
  useLocation(); // the live state's changes (Swagger UI renders it again for the form's)
  const [, path, method] = specPath?.toJS?.() ?? [];
  if (!path || !method) return null;
  const source = bodySource(sys, [path, method], sys.oas3Selectors.requestBodyValue(path, method));
  if (!source) return null;
  const at = (pointer) => h('code', null, pointer.slice(1).replace(/\//g, '.'));
  if ('examples' in source)
    return h(
      'div',
      { className: 'svc-body-note', 'data-source': 'example' },
      h(
        'p',
        null,
        "The spec's example: ",
        source.examples.map((field, i) => [i ? ', ' : '', h('code', { key: field }, field)]),
        ' name nothing on your endpoint. Put UUIDs of yours.',
      ),
    );
  return h(
    'div',
    { className: 'svc-body-note', 'data-source': 'live' },
    h('p', null, 'Filled in for the local svc:'),
    h(
      'ul',
      null,
      source.filled.map((f) =>
        h(
          'li',
          { key: f.pointer },
          at(f.pointer),
          f.sample
            ? ": the local svc's own sample image (nothing is downloaded from the internet)."
            : f.known
              ? ' (' + one(f.kind) + '): ' + sourceText(f.known)
              : '',
        ),
      ),
    ),
  );
}
