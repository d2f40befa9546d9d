// The top bar: the svc logo, the API selector and the dark-mode button, in Swagger UI's markup
// (`.topbar`, `select#select`) so that its styles apply. The page's own: Swagger UI's top bar
// comes with swagger-ui-standalone-preset.js (268 KB), which the page does not load: its first
// operation list comes sooner. ES module.
import { absolute, config, initial } from '../state.js';
import { h, react } from './react.js';

/**
 * The top bar (Swagger UI's `Topbar` component, rendered by SvcLayout as a container: the props
 * are Swagger UI's system and re-render with its store). Choosing an API loads its spec as
 * Swagger UI's own top bar did; the `updateUrl` wrapper of the house plugin then names it in the
 * address bar (`?api=`).
 * @param {{ specSelectors: any, specActions: any, authActions: any, getComponent: (name: string) => any }} props
 */
export function TopBar({ specSelectors, specActions, authActions, getComponent }) {
  const Logo = getComponent('Logo');
  const Link = getComponent('Link'); // an <a> without href: Swagger UI's styles of the logo
  const url = absolute(specSelectors.url());
  const shown = config.apis.find((a) => absolute(a.url) === url) ?? initial;
  const onChange = (event) => {
    const chosen = event.target.value;
    // Credentials go with the API shown; restoreAuth gives the tab's own back once it is loaded.
    authActions.restoreAuthorization({ authorized: {} });
    specActions.updateUrl(chosen);
    specActions.download(chosen);
  };
  return h(
    'header',
    { className: 'topbar', role: 'banner' },
    h(
      'div',
      { className: 'wrapper' },
      h(
        'div',
        { className: 'topbar-wrapper' },
        h(Link, null, h(Logo)),
        h(
          'form',
          { className: 'download-url-wrapper', onSubmit: (event) => event.preventDefault() },
          h(
            'label',
            { className: 'select-label', htmlFor: 'select' },
            h('span', null, 'Select a definition'),
            h(
              'select',
              { id: 'select', disabled: specSelectors.loadingStatus() === 'loading', value: shown.url, onChange },
              config.apis.map((a) => h('option', { key: a.api, value: a.url }, a.name)),
            ),
          ),
        ),
        h(DarkModeToggle),
      ),
    ),
  );
}

const DARK = '(prefers-color-scheme: dark)';

/**
 * Swagger UI's dark mode (the `dark-mode` class of the page's root): on from the system setting at
 * load, then the button's.
 */
function DarkModeToggle() {
  const React = react.React;
  const [dark, setDark] = React.useState(false);
  // Before the first paint, as Swagger UI's own: no light flash on a dark system.
  React.useLayoutEffect(() => {
    if (window.matchMedia(DARK).matches) {
      document.documentElement.classList.add('dark-mode');
      setDark(true);
    }
  }, []);
  const label = dark ? 'Switch to light mode' : 'Switch to dark mode';
  const toggle = () => setDark(document.documentElement.classList.toggle('dark-mode'));
  return h(
    'div',
    { className: 'dark-mode-toggle' },
    h(
      'button',
      { 'aria-label': label, title: label, type: 'button', 'aria-pressed': dark, onClick: toggle },
      h(
        'svg',
        { xmlns: 'http://www.w3.org/2000/svg', viewBox: '0 0 24 24', 'aria-hidden': 'true', height: '24' },
        h('path', { d: dark ? LIGHT_BULB : LIGHT_BULB_OFF }),
      ),
    ),
  );
}

// Swagger UI's own icons (swagger-ui-dist, Apache-2.0: the page ships its LICENSE and NOTICE).
const LIGHT_BULB =
  'M12 2a7 7 0 0 0-7 7c0 2.38 1.19 4.47 3 5.74V17a1 1 0 0 0 1 1h6a1 1 0 0 0 1-1v-2.26c1.81-1.27 3-3.36 3-5.74a7 7 0 0 0-7-7M9 21a1 1 0 0 0 1 1h4a1 1 0 0 0 1-1v-1H9z';
const LIGHT_BULB_OFF =
  'M12 2C9.76 2 7.78 3.05 6.5 4.68l9.81 9.82C17.94 13.21 19 11.24 19 9a7 7 0 0 0-7-7M3.28 4 2 5.27 5.04 8.3C5 8.53 5 8.76 5 9c0 2.38 1.19 4.47 3 5.74V17a1 1 0 0 0 1 1h5.73l4 4L20 20.72zM9 20v1a1 1 0 0 0 1 1h4a1 1 0 0 0 1-1v-1z';
