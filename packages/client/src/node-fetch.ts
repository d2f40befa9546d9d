// Loads Node's own fetch, so that it installs its dispatcher before undici is loaded (transport.ts
// imports this module first): undici's main entry installs its own Agent as the dispatcher of
// every fetch in the process when none is installed yet (nodejs/undici#5500). Reading the global
// `Response` loads Node's fetch; after that undici leaves the dispatcher as it is.

/** Node's own `Response` class (read here for its side effect: see above). */
export const NodeResponse: typeof Response = globalThis.Response;
