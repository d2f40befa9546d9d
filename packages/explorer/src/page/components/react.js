// Swagger UI's React, which the page's components render with (its bundle carries the only copy).
// ES module.
import { subscribe as subscribeToPage } from '../state.js';
/** @type {{ React: any }} set by the house plugin before any component renders */
export const react = { React: null };

/**
 * Takes Swagger UI's React for the components (the plugin calls it once, with `system.React`).
 * @param {any} React
 */
export function useReact(React) {
  react.React = React;
}

/** `React.createElement` of Swagger UI's React. */
export const h = (...args) => react.React.createElement(...args);

/** Re-renders a component whenever Swagger UI's state changes (form values, server). */
export function useStoreUpdates(sys) {
  const [, setTick] = react.React.useState(0);
  react.React.useEffect(() => sys.getStore().subscribe(() => setTick((t) => t + 1)), []);
}

/** Re-renders a component when the page's state changes (address, search, workflow step, history). */
export function useLocation() {
  const [, setTick] = react.React.useState(0);
  react.React.useEffect(() => subscribeToPage(() => setTick((t) => t + 1)), []);
}
