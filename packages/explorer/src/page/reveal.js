// In-page navigation that takes the reader to what they clicked: Swagger UI scrolls to an
// operation only when it first renders, so an operation opened from the sidebar, a workflow step
// or a followed link is scrolled to and focused here. ES module.

import { cancelAnswerFocus } from './focus.js';

/** How long to wait for Swagger UI to render an operation open (ms): a filtered-out one never shows. */
const GIVE_UP_MS = 10_000;

/**
 * The operation's block once Swagger UI shows it open (`.opblock.is-open`), else null.
 * @param {ParentNode} root
 * @param {string} operationId
 * @returns {HTMLElement | null}
 */
export function openOperation(root, operationId) {
  const block = root.querySelector('.opblock[id$="-' + CSS.escape(operationId) + '"]');
  return block?.classList.contains('is-open') ? /** @type {HTMLElement} */ (block) : null;
}

/**
 * Scrolls an operation to the top of the viewport and moves the focus to its summary, as soon
 * as Swagger UI has rendered it open (watched with a MutationObserver, given up after 10 s).
 * @param {string} operationId
 * @param {{ focus?: boolean }} [options] `focus: false` scrolls only
 * @returns {Promise<HTMLElement | null>} the operation's block, null when it did not show
 */
export function revealOperation(operationId, { focus = true } = {}) {
  cancelAnswerFocus();
  const root = document.getElementById('swagger-ui') || document.body;
  const show = (block) => {
    block.scrollIntoView({ block: 'start' });
    if (focus) block.querySelector('.opblock-summary-control')?.focus({ preventScroll: true });
    return block;
  };
  const now = openOperation(root, operationId);
  if (now) return Promise.resolve(show(now));
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      const block = openOperation(root, operationId);
      if (!block) return;
      observer.disconnect();
      clearTimeout(timer);
      resolve(show(block));
    });
    const timer = setTimeout(() => {
      observer.disconnect();
      resolve(null);
    }, GIVE_UP_MS);
    observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
  });
}
