// Authorize: the user logged in beside the button, and the keyboard's way back to it when its
// dialog closes. ES module.
import { focusOpener } from '../focus.js';
import { loggedInUser } from '../requests.js';
import { h, react } from './react.js';

/** Authorize's button, where the focus goes back to. */
export const AUTHORIZE_BUTTON = '.scheme-container button.authorize';

/** Swagger UI's `authorizeBtn`, with "Logged in as <user>" beside it. @param {{ Original: any, sys: any, props: any }} props */
export function AuthorizeWithUser({ Original, sys, props }) {
  const user = loggedInUser(sys);
  return h(
    react.React.Fragment,
    null,
    h(Original, props),
    user ? h('span', { className: 'svc-auth-user' }, 'Logged in as ' + user) : null,
  );
}

/**
 * Swagger UI's `authorizationPopup`: when it closes (Close, Escape, the backdrop), the focus goes
 * back to the button that opened it (Authorize, or the Authorize of a 401's explanation) instead
 * of falling to the page's start.
 * @param {{ Original: any, props: any }} props
 */
export function AuthorizationDialog({ Original, props }) {
  react.React.useEffect(
    () => () => {
      const button = /** @type {HTMLElement | null} */ (document.querySelector(AUTHORIZE_BUTTON));
      // after the dialog's own nodes are gone
      requestAnimationFrame(() => focusOpener(button));
    },
    [],
  );
  return h(Original, props);
}
