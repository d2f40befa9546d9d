// What the workflow panel and the step bar say of a workflow followed: each step's state, the
// current step's words, whether it can be Executed, polled or left for the next. ES module.
import { stepState } from '../workflow.js';

/** The words of a step's state. */
export const STATE_WORDS = {
  waiting: 'not run yet',
  done: 'done',
  repeat: 'not yet: Execute again',
  failed: 'failed',
};

/**
 * Why an answer failed, in a few words: its status and the service's message (a v3 error's first
 * `message_list` entry, an element error's `message`), or that no answer came.
 * @param {{ status?: number, body?: any } | undefined} answer
 * @returns {string}
 */
export function failureWords(answer) {
  if (!answer) return '';
  if (!answer.status) return 'no answer came';
  const body = answer.body;
  const message =
    (Array.isArray(body?.message_list) && body.message_list.find((m) => m?.message)?.message) ||
    (typeof body?.message === 'string' && body.message) ||
    '';
  return String(answer.status) + (message ? ' ' + message : '');
}

/**
 * @param {{ workflow: { steps: any[] }, step: number }} active the workflow followed and its current step
 * @param {Record<string, any>} answers the answers recorded so far, by stepId
 * @param {{ needsFile?: boolean }} [current] of the current step: its operation sends a file and
 *   none is chosen yet
 * @returns {{ states: ReturnType<typeof stepState>[], complete: boolean, words: string, state: string,
 *   execute: boolean, poll: boolean, next: boolean }}
 *   `state` is the current step's (or `complete`); `execute` whether its Execute is offered (not
 *   once the workflow is complete), `poll` whether "Poll until done" is (not after a failure:
 *   polling an error does not fix it), `next` whether "Next step" is
 */
export function workflowView(active, answers, { needsFile = false } = {}) {
  const { steps } = active.workflow;
  const states = steps.map((s) => stepState(s, answers[s.stepId]));
  const complete = states.every((s) => s.state === 'done');
  const step = steps[active.step];
  const now = states[active.step];
  const value = now.value !== undefined ? ' (' + step.until.pointer + ' = ' + JSON.stringify(now.value) + ')' : '';
  let words = STATE_WORDS[now.state] + value;
  // a failed answer says why, and the step offers its fix (fixes.js), not a poll
  if (now.state === 'failed' && now.value === undefined) words = 'failed: ' + failureWords(answers[step.stepId]);
  if (complete) words = 'Workflow complete: all ' + steps.length + ' steps done.';
  else if (now.state === 'waiting' && needsFile)
    words = 'needs a file: choose it under Request body ("Choose File"), then Execute';
  return {
    states,
    complete,
    words,
    state: complete ? 'complete' : needsFile && now.state === 'waiting' ? 'file' : now.state,
    execute: !complete,
    poll: !complete && Boolean(step.until) && (now.state === 'waiting' || now.state === 'repeat'),
    next: active.step + 1 < steps.length && now.state === 'done',
  };
}
