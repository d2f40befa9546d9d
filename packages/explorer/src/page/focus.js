// Where the keyboard focus goes when the page changes under it: to an answer's status after an
// Execute (scrolled into view), back to the control that opened a dialog when it closes.
// ES module.
import { indexByApi, page } from './state.js';

/** How long to wait for Swagger UI to render an answer (ms). */
const GIVE_UP_MS = 10_000;

/** The last control focused outside a dialog: where the focus goes back when one closes. */
let opener = /** @type {HTMLElement | null} */ (null);
document.addEventListener('focusin', (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  if (target instanceof HTMLElement && !target.closest('.modal-ux')) opener = target;
});

/**
 * Moves the focus back to the control that opened a dialog (the last one focused outside it),
 * else to `fallback`, unless the user has put it somewhere since.
 * @param {HTMLElement | null} fallback
 */
export function focusOpener(fallback) {
  const lost = !document.activeElement || document.activeElement === document.body;
  if (!lost) return;
  const target = opener?.isConnected ? opener : fallback;
  target?.focus();
}

/** Executes that must not take the focus (each attempt of "Poll until done"). */
let quiet = 0;

/**
 * Runs `work` without moving the focus to the answers it brings.
 * @template T
 * @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function quietly(work) {
  quiet++;
  try {
    return await work();
  } finally {
    quiet--;
  }
}

/** Stops the wait of the last focusAnswer (a navigation elsewhere came first). */
let cancelPending = () => {};

/** Leaves an answer that is still to come where it is: the user has gone to another operation. */
export function cancelAnswerFocus() {
  cancelPending();
}

/**
 * After an Execute, moves the focus to the answer's status and scrolls it into view, once Swagger
 * UI has rendered it (watched, given up after 10 s).
 * @param {string} path the operation's path template
 * @param {string} method
 * @param {number} status the answer's status (0: none came; Swagger UI then shows no status)
 */
export function focusAnswer(path, method, status) {
  if (quiet) return;
  const operations = indexByApi[page.api]?.operations ?? {};
  const operationId = Object.keys(operations).find(
    (id) => operations[id].path === path && operations[id].method === method,
  );
  if (!operationId) return;
  const root = document.getElementById('swagger-ui') || document.body;
  const find = () => {
    const cell = /** @type {HTMLElement | null} */ (
      root.querySelector(
        `.opblock[id$="-${CSS.escape(operationId)}"] .live-responses-table .response .response-col_status`,
      )
    );
    // the old answer stays until the new one is rendered over it
    return cell && (!status || cell.textContent?.trim() === String(status)) ? cell : null;
  };
  const show = (status) => {
    status.tabIndex = -1;
    status.focus({ preventScroll: true });
    status.scrollIntoView({ block: 'center' });
  };
  cancelPending();
  const now = find();
  if (now) return show(now);
  const observer = new MutationObserver(() => {
    const status = find();
    if (!status) return;
    cancelPending();
    show(status);
  });
  const timer = setTimeout(() => observer.disconnect(), GIVE_UP_MS);
  cancelPending = () => {
    observer.disconnect();
    clearTimeout(timer);
  };
  observer.observe(root, { subtree: true, childList: true });
}
