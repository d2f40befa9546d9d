// The next calls an answer leads to (its response's OpenAPI `links`), under the answer: each
// opens its operation with the values taken from this answer. ES module.
import { answerOf } from '../answer.js';
import { answerLinks } from '../links.js';
import { activeWorkflow, setParameters, showOperation, stepApi } from '../runner.js';
import { indexByApi, page, specObject } from '../state.js';
import { h } from './react.js';

/** @param {{ sys: any, response: any, path: string, method: string }} props */
export function FollowLinks({ sys, response, path, method }) {
  const links = answerLinks(specObject(sys), indexByApi[page.api]?.operations ?? {}, path, method, answerOf(response));
  if (!links.length) return null;
  const open = (link) => {
    // Inside a workflow the link keeps it: on the later step that calls this operation, if any.
    const active = activeWorkflow();
    let keep;
    if (active) {
      const later = active.workflow.steps.findIndex(
        (s, j) => j > active.step && s.operationId === link.operationId && stepApi(active, s) === page.api,
      );
      keep = { workflow: active.workflow.workflowId, step: String(later >= 0 ? later : active.step) };
    }
    showOperation(sys, link.target.tag, link.operationId, keep);
    setParameters(sys, link.target, link.values);
  };
  return h(
    'div',
    { className: 'svc-follow-links' },
    h('p', null, 'Next, with the values of this answer:'),
    h(
      'ul',
      null,
      links.map((link) =>
        h(
          'li',
          { key: link.name },
          h('button', { type: 'button', className: 'btn svc-follow', onClick: () => open(link) }, link.description),
          ' ',
          h('code', null, link.target.method.toUpperCase() + ' ' + link.target.path),
          ' ',
          link.values.map((v) => v.name + ' = ' + v.value).join(', '),
        ),
      ),
    ),
  );
}
