// @svc/explorer: serves the built API explorer (see server.js and the README's "Serve").

/** @typedef {import('./live-reload.js').DevProblem} DevProblem what `npm run dev` tells the page of the spec */

export { EVENTS_PATH, injectReload } from './live-reload.js';
export { FORWARD_HEADER } from './relay.js';
export { SERVER_INFO_PATH, startExplorer } from './server.js';
export {
  basePathOf,
  LOCAL_SERVER_DESCRIPTION,
  MOCK_SERVER_DESCRIPTION,
  withLocalServer,
  withMockServer,
} from './servers.js';
export { CONTENT_TYPES } from './static-files.js';
