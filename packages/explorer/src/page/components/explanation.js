// The explanation of an error answer, above Swagger UI's response, with what the page can do
// about it (fixes.js). ES module.
import { answerOf } from '../answer.js';
import { explain } from '../errors.js';
import { loggedInUser } from '../requests.js';
import { Fixes } from './fixes.js';
import { h, useStoreUpdates } from './react.js';

/** @param {{ response: any, sys: any, path: string, method: string }} props Swagger UI's response (Immutable) */
export function Explanation({ response, sys, path, method }) {
  useStoreUpdates(sys);
  const { status, headers, text } = answerOf(response);
  const why = explain({ status, headers, text, user: loggedInUser(sys) });
  const fixes = status >= 400 ? h(Fixes, { sys, path, method, answer: { status, text } }) : null;
  if (!why) return fixes ? h('div', { className: 'svc-explanation' }, fixes) : null;
  return h(
    'div',
    { className: 'svc-explanation', role: 'alert' },
    h('p', { className: 'svc-explanation-title' }, why.title),
    h(
      'ul',
      null,
      why.lines.map((line, i) => h('li', { key: i }, line)),
    ),
    fixes,
  );
}
