// "Start here": the workflows of the API shown, or the steps of the one being followed. ES module.
import { activeWorkflow, answersOf, inPageWorkflowLink, openStep, restartWorkflow, stepOperation } from '../runner.js';
import { indexByApi, page } from '../state.js';
import { stepInputs } from '../workflow.js';
import { NextStep } from './next-step.js';
import { h, useLocation, useStoreUpdates } from './react.js';
import { failureWords, workflowView } from './workflow-view.js';

/**
 * Inline markdown of step texts: `code` only (the rest as text).
 * @param {string} text
 * @returns {any[]} strings and `<code>` elements
 */
export function inlineCode(text) {
  return String(text || '')
    .split(/(`[^`]+`)/)
    .map((part, i) => (/^`[^`]+`$/.test(part) ? h('code', { key: i }, part.slice(1, -1)) : part));
}

/** The words of a step's state in the panel ('' while it has not run). */
const PANEL_WORDS = { waiting: '', done: 'done', repeat: 'not yet: Execute again', failed: 'failed' };

/** @param {{ sys: any }} props */
export function StartHere({ sys }) {
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
  const view = workflowView(active, answers);
  const missing = stepInputs(workflow.steps[active.step], answers).missing;
  return h(
    'section',
    { className: 'svc-start svc-workflow', 'aria-labelledby': 'svc-start-title', 'data-workflow': workflow.workflowId },
    h('h2', { id: 'svc-start-title' }, 'Start here: ' + workflow.summary),
    workflow.description ? h('p', null, inlineCode(workflow.description)) : null,
    h(
      'ol',
      { className: 'svc-steps' },
      workflow.steps.map((step, i) => {
        const state = view.states[i];
        const op = stepOperation(active, step);
        const status =
          state.state === 'failed' && state.value === undefined
            ? 'failed: ' + failureWords(answers[step.stepId])
            : PANEL_WORDS[state.state];
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
          step.description ? h('p', null, inlineCode(step.description)) : null,
          i === active.step && missing.length
            ? h(
                'p',
                { className: 'svc-step-missing', role: 'status' },
                'This step takes values from the answer of ' +
                  missing.map((id) => 'step ' + (workflow.steps.findIndex((s) => s.stepId === id) + 1)).join(', ') +
                  ': Execute that step first.',
              )
            : null,
        );
      }),
    ),
    view.next ? h(NextStep, { sys, active, className: 'svc-step-next' }) : null,
    view.complete
      ? h(
          'p',
          { className: 'svc-workflow-complete', role: 'status' },
          'Workflow complete: all ' + workflow.steps.length + ' steps done.',
        )
      : null,
    h(
      'p',
      { className: 'svc-workflow-leave' },
      h(
        'button',
        { type: 'button', className: 'btn svc-workflow-restart', onClick: () => restartWorkflow(sys, active) },
        'Restart the workflow',
      ),
      ' ',
      h('a', { href: '?api=' + page.api, onClick: inPageWorkflowLink(sys, page.api, null) }, 'Leave this workflow'),
    ),
  );
}
