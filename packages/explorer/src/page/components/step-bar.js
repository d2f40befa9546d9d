// The current workflow step where the work is: a bar fixed at the bottom of the window with the
// step and its state, its Execute, "Poll until done" for a step that waits on a state, and
// "Next step". ES module.
import { quietly } from '../focus.js';
import { fileMissing } from '../requests.js';
import { activeWorkflow, answersOf, executeStep, POLL, stepApi, stepOperation } from '../runner.js';
import { page } from '../state.js';
import { stepState } from '../workflow.js';
import { Fixes } from './fixes.js';
import { NextStep } from './next-step.js';
import { h, react, useLocation, useStoreUpdates } from './react.js';
import { workflowView } from './workflow-view.js';

/** @param {{ sys: any }} props */
export function StepBar({ sys }) {
  const { React } = react;
  useStoreUpdates(sys);
  useLocation();
  const [polling, setPolling] = React.useState(0);
  const active = activeWorkflow();
  if (!active) return null;
  const { workflow } = active;
  const step = workflow.steps[active.step];
  const op = stepOperation(active, step);
  if (!op || stepApi(active, step) !== page.api) return null;
  const answers = answersOf(workflow.workflowId);
  const view = workflowView(active, answers, {
    needsFile: fileMissing(sys, op.path, op.method),
  });
  const poll = async () => {
    for (let attempt = 1; attempt <= POLL.attempts; attempt++) {
      setPolling(attempt);
      // the first attempt's answer takes the focus, not every one after it
      const answer = await (attempt === 1 ? executeStep(sys, active) : quietly(() => executeStep(sys, active)));
      if (!answer || stepState(step, answer).state !== 'repeat') break;
      if (attempt < POLL.attempts) await new Promise((r) => setTimeout(r, POLL.intervalMs));
    }
    setPolling(0);
  };
  const answer = answers[step.stepId];
  const failed = view.state === 'failed' && answer;
  return h(
    'section',
    { className: 'svc-stepbar', 'aria-label': 'Current workflow step' },
    h(
      'p',
      { className: 'svc-stepbar-text' },
      h('strong', null, 'Step ' + (active.step + 1) + ' of ' + workflow.steps.length + ': '),
      h('code', null, op.method.toUpperCase() + ' ' + op.path),
      ' ',
      h('span', { className: 'svc-stepbar-state', role: 'status', 'data-state': view.state }, view.words),
    ),
    h(
      'div',
      { className: 'svc-stepbar-actions' },
      view.execute
        ? h(
            'button',
            {
              type: 'button',
              className: 'btn svc-stepbar-execute',
              onClick: () => executeStep(sys, active),
              disabled: polling > 0,
            },
            'Execute step ' + (active.step + 1),
          )
        : null,
      view.poll
        ? h(
            'button',
            { type: 'button', className: 'btn svc-stepbar-poll', onClick: poll, disabled: polling > 0 },
            polling
              ? 'Polling: ' + polling + ' of ' + POLL.attempts
              : 'Poll until done (every ' + POLL.intervalMs / 1000 + ' s, at most ' + POLL.attempts + ' times)',
          )
        : null,
      view.next ? h(NextStep, { sys, active, className: 'svc-stepbar-next' }) : null,
    ),
    failed
      ? h(
          'div',
          { className: 'svc-stepbar-fixes' },
          h(Fixes, {
            sys,
            path: op.path,
            method: op.method,
            answer: {
              status: answer.status,
              text: typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? ''),
            },
          }),
        )
      : null,
  );
}
