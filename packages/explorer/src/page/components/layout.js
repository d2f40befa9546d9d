// The page's frame: the svc logo, the skip link, the sidebar beside Swagger UI's layout, "Start
// here" above it and the step bar under it. ES module.
import { AUTHORIZE_BUTTON } from './authorize.js';
import { h } from './react.js';
import { Sidebar } from './sidebar.js';
import { StartHere } from './start-here.js';
import { StateView } from './state-view.js';
import { StepBar } from './step-bar.js';

export function Logo() {
  return h(
    'span',
    { className: 'svc-logo' },
    h('span', { className: 'svc-logo-mark', 'aria-hidden': 'true' }, 'svc'),
    h('span', { className: 'svc-logo-text' }, 'API explorer'),
  );
}

/** "Skip to the operation": the first stop of the Tab order, to the open operation or the list. */
export function SkipLink() {
  const onClick = (event) => {
    event.preventDefault();
    const id = decodeURIComponent(location.hash).split('/')[2];
    const block = id && document.querySelector('.opblock.is-open[id$="-' + CSS.escape(id) + '"]');
    const target = /** @type {HTMLElement | null} */ (
      block?.querySelector('.opblock-summary-control') || document.getElementById('svc-main')
    );
    target?.focus();
    target?.scrollIntoView({ block: 'start' });
  };
  // An in-page href: axe-core knows a skip link by it (its target outside every landmark is fine).
  return h('a', { href: '#svc-main', className: 'svc-skip', onClick }, 'Skip to the operation');
}

/** "Skip to Authorize": the second stop of the Tab order, to Authorize (the credentials). */
export function SkipToAuthorize() {
  const onClick = (event) => {
    event.preventDefault();
    const button = /** @type {HTMLElement | null} */ (document.querySelector(AUTHORIZE_BUTTON));
    button?.focus();
    button?.scrollIntoView({ block: 'center' });
  };
  return h('a', { href: '#svc-authorize', className: 'svc-skip', onClick }, 'Skip to Authorize');
}

/**
 * The layout (Swagger UI's `layout: 'SvcLayout'`).
 * @param {any} system Swagger UI's system
 */
export function layoutOf(system) {
  return function SvcLayout() {
    const Topbar = system.getComponent('Topbar', true);
    const BaseLayout = system.getComponent('BaseLayout', true);
    return h(
      'div',
      { className: 'swagger-ui svc-app' },
      h(SkipLink),
      h(SkipToAuthorize),
      h(Topbar),
      h(
        'div',
        { className: 'svc-columns' },
        h(Sidebar, { sys: system }),
        h(
          // Not a <main>: Swagger UI's operations are the page's one main landmark.
          'div',
          { className: 'svc-main', id: 'svc-main', tabIndex: -1 },
          h(StateView, { sys: system }),
          h(StartHere, { sys: system }),
          h(BaseLayout),
        ),
      ),
      h(StepBar, { sys: system }),
    );
  };
}
