// The fixes of an error answer (errors.js fixesFor), as buttons: Authorize for a 401; for a
// referenced entity that does not exist, the operation that lists them and a button that reads
// them from the local svc and fills the field; for a name that exists, a new name. Under the
// answer and in the workflow step bar. ES module.
import { fixesFor } from '../errors.js';
import { knowns, listerOf, listsPending, markGone, pickLive, readLists } from '../live-state.js';
import { operationLink } from '../query.js';
import { parameterKind } from '../references.js';
import { isLocalSvc, liveRequest } from '../requests.js';
import { setParameters, showOperation } from '../runner.js';
import { page } from '../state.js';
import { kindOf } from '../uuid-sources.js';
import { pointerSet } from '../workflow.js';
import { AUTHORIZE_BUTTON } from './authorize.js';
import { h, react } from './react.js';

/** A kind in words, one of it or several (`storage_containers` -> `storage container(s)`). */
const words = (kind, many = false) =>
  String(kind)
    .replace(/_/g, ' ')
    .replace(/s$/, many ? 's' : '');

/**
 * The request of the form as the fixes read it: its parameters with the kind each refers to, the
 * parsed JSON body, and the collection the operation acts on.
 * @param {any} system
 * @param {string} path
 * @param {string} method
 */
function formRequest(system, path, method) {
  const request = liveRequest(system, path, method);
  const params = ['path', 'query', 'header'].flatMap((where) =>
    request.params[where].map((p) => ({ ...p, in: where, kind: parameterKind(path, { name: p.name, in: where }) })),
  );
  return {
    params,
    body: request.body?.kind === 'json' ? request.body.value : null,
    kind: kindOf(path),
    local: isLocalSvc(request.server.map((part) => ('text' in part ? part.text : '')).join('')),
  };
}

/** Sets a JSON pointer of the form's body. */
function setBodyMember(system, path, method, pointer, value) {
  const text = system.oas3Selectors.requestBodyValue(path, method);
  let body;
  try {
    body = JSON.parse(String(text));
  } catch {
    return;
  }
  pointerSet(body, pointer, value);
  system.oas3Actions.setRequestBodyValue({ value: JSON.stringify(body, null, 2), pathMethod: [path, method] });
}

/**
 * @param {{ sys: any, path: string, method: string, answer: { status: number, text: string } }} props
 */
export function Fixes({ sys, path, method, answer }) {
  const { React } = react;
  const [said, say] = React.useState('');
  const request = formRequest(sys, path, method);
  const names = (kind) =>
    knowns()
      .filter((k) => k.kind === kind && k.name)
      .map((k) => /** @type {string} */ (k.name));
  const fixes = fixesFor(answer, request, names);
  if (!fixes.length) return null;
  const op = { path, method };
  const fill = async (fix) => {
    say('Reading the ' + words(fix.kind, true) + ' of the local svc…');
    markGone(fix.uuids);
    await readLists(page.api, { force: true, kinds: [fix.kind] });
    const picked = pickLive(fix.kind, { not: new Set(fix.uuids) });
    if (!picked.length) {
      say('The local svc has no ' + words(fix.kind) + ' yet: create one first, then Execute again.');
      return;
    }
    const uuid = picked[0].uuid;
    for (const field of fix.fields) {
      if (field.where === 'parameter') {
        const value = Array.isArray(request.params.find((p) => p.name === field.name)?.value) ? [uuid] : uuid;
        setParameters(sys, op, [{ name: /** @type {string} */ (field.name), in: field.in, value }]);
      } else setBodyMember(sys, path, method, /** @type {string} */ (field.pointer), uuid);
    }
    say(
      'Filled ' +
        fix.fields.map((f) => f.field).join(', ') +
        ' with ' +
        uuid +
        (picked[0].name ? ' ("' + picked[0].name + '")' : '') +
        ': Execute again.',
    );
  };
  return h(
    'div',
    { className: 'svc-fixes' },
    fixes.map((fix) => {
      if (fix.type === 'authorize')
        return h(
          'p',
          { key: 'authorize' },
          h(
            'button',
            {
              type: 'button',
              className: 'btn svc-fix svc-fix-authorize',
              onClick: () => /** @type {HTMLElement | null} */ (document.querySelector(AUTHORIZE_BUTTON))?.click(),
            },
            'Authorize',
          ),
        );
      if (fix.type === 'rename')
        return h(
          'p',
          { key: 'rename' },
          'The name "' + fix.from + '" is taken. ',
          h(
            'button',
            {
              type: 'button',
              className: 'btn svc-fix svc-fix-rename',
              onClick: () => {
                setBodyMember(sys, path, method, fix.pointer, fix.to);
                say('The body now names it "' + fix.to + '": Execute again.');
              },
            },
            'Use the name ' + fix.to,
          ),
        );
      const lister = listerOf(fix.kind, page.api);
      const fields = fix.fields.map((f) => f.field).join(', ');
      const link = lister
        ? h(
            'a',
            {
              className: 'svc-fix-lister',
              href: operationLink(lister.api, lister.tag, lister.operationId),
              onClick: (event) => {
                if (lister.api !== page.api || event.ctrlKey || event.metaKey || event.shiftKey) return;
                event.preventDefault();
                showOperation(sys, lister.tag, lister.operationId);
              },
            },
            lister.summary || lister.operationId,
            ' (' + lister.method.toUpperCase() + ' ' + lister.path + ')',
          )
        : null;
      return h(
        'p',
        { key: 'missing-' + fix.kind },
        'No ' + words(fix.kind) + ' has the UUID ' + fix.uuids.join(', ') + ' (' + fields + '). ',
        link ? ['The operation that lists them: ', link, '. '] : null,
        request.local && lister
          ? h(
              'button',
              {
                type: 'button',
                className: 'btn svc-fix svc-fix-fill',
                disabled: listsPending(),
                onClick: () => fill(fix),
              },
              'Fill ' + fields + ' from ' + (lister.summary || lister.operationId),
            )
          : null,
      );
    }),
    said ? h('p', { className: 'svc-fix-said', role: 'status' }, said) : null,
  );
}
