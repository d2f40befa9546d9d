// The explanation of an error answer, above Swagger UI's response. ES module.
import { answerOf } from '../answer.js';
import { explain } from '../errors.js';
import { loggedInUser } from '../requests.js';
import { h, useStoreUpdates } from './react.js';

/** @param {{ response: any, sys: any }} props Swagger UI's response (Immutable) */
export function Explanation({ response, sys }) {
  useStoreUpdates(sys);
  const { status, headers, text } = answerOf(response);
  const why = explain({ status, headers, text, user: loggedInUser(sys) });
  if (!why) return null;
  return h(
    'div',
    { className: 'svc-explanation', role: 'alert' },
    h('p', { className: 'svc-explanation-title' }, why.title),
    h(
      'ul',
      null,
      why.lines.map((line, i) => h('li', { key: i }, line)),
    ),
  );
}
