// @svc/explorer: serves the built API explorer (see server.js and the README's "Serve").
export { startExplorer, SERVER_INFO_PATH } from './server.js';
export { basePathOf, withMockServer, withLocalServer, MOCK_SERVER_DESCRIPTION, LOCAL_SERVER_DESCRIPTION } from './servers.js';
export { CONTENT_TYPES } from './static-files.js';
export { FORWARD_HEADER } from './relay.js';
export { EVENTS_PATH, injectReload } from './live-reload.js';
