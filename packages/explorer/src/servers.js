// The servers the served specs offer: the local svc and the Prism mock in front of the spec's own.
import { basePathOf } from '@svc/oas';

export { basePathOf };

/** Description of the mock server entry inserted in front of a spec's servers. */
export const MOCK_SERVER_DESCRIPTION = 'Prism mock (this machine)';

/** Description of the local svc server entry, the first (default) server when a local svc runs. */
export const LOCAL_SERVER_DESCRIPTION = 'Local svc (this machine)';

/**
 * A copy of `document` whose first server is the explorer's mock proxy for `api`:
 * `{ url: '/mock/<api>' + <base path of the first server>, description: 'Prism mock (this machine)' }`.
 * The other servers stay selectable after it.
 * @param {any} document an OpenAPI 3.x document (not modified)
 * @param {string} api the API name (`central`)
 * @param {string} [basePath] the production base path (default: of the first server)
 * @returns {any}
 */
export function withMockServer(document, api, basePath = basePathOf(document)) {
  return withFirstServer(document, {
    url: `/mock/${api}${basePath}`,
    description: MOCK_SERVER_DESCRIPTION,
  });
}

/**
 * A copy of `document` whose first server is the local svc at its own address:
 * `{ url: <local svc origin> + <base path of the first server>, description: 'Local svc (this machine)' }`.
 * The page sends its requests through the explorer (`/local/...`, which trusts the local svc's
 * certificate); the Request URL and the code samples show the service's own URL, which works
 * without the explorer.
 * @param {any} document an OpenAPI 3.x document (not modified)
 * @param {string} origin the local svc's origin (`https://127.0.0.1:9440`)
 * @param {string} [basePath] the production base path (default: of the first server)
 * @returns {any}
 */
export function withLocalServer(document, origin, basePath = basePathOf(document)) {
  return withFirstServer(document, { url: `${origin}${basePath}`, description: LOCAL_SERVER_DESCRIPTION });
}

/**
 * A copy of `document` without its own servers: for the local svc's control API (`/_svc`), which
 * no real endpoint has and which the forwarder never sends on, when the explorer offers the local
 * svc or a mock of it instead.
 * @param {any} document an OpenAPI 3.x document (not modified)
 * @returns {any}
 */
export function withoutOwnServers(document) {
  return { ...document, servers: [] };
}

/** @returns {any} a copy of `document` with `server` before its servers */
function withFirstServer(document, server) {
  const servers = Array.isArray(document.servers) ? document.servers : [];
  return { ...document, servers: [server, ...servers] };
}
