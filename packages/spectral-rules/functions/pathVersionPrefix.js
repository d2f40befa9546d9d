import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject } from '@svc/oas';
import { VERSION_SEGMENT } from './lib/house.js';

/**
 * Enforces the version prefix (`svc-path-version-prefix`): the server URL
 * path plus every path carries the API version, in one of two ways:
 *
 * - the server URL path ends with a version segment (`/api/svc/v3`,
 *   `/oss/api/svc/v3`; a `{variable}` segment counts when its default and
 *   enum values are versions), or
 * - the server URL path ends with an unversioned base (`/api/svc`,
 *   `/services/rest`) and every path starts with a version segment
 *   (`/v0.8/images`, `/v2.0/storage_containers`).
 *
 * A version segment is `v` + digits with optional `.digits`. Without
 * `servers` (spectral:oas `oas3-api-servers` reports that) the paths must
 * carry the version themselves.
 *
 * Why: several versions of the same API are served side by side, and the
 * version in the URL is the only thing that tells them apart for routing,
 * the mock and the client.
 *
 * Given: `$` (with `resolved: false`).
 */
export default createRulesetFunction(
  {
    input: { type: 'object' },
    options: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: {
        unversionedBases: {
          type: 'array',
          items: { type: 'string', pattern: '^/' },
          description: 'server URL path endings that need versioned paths (default /api/svc, /services/rest)',
        },
      },
    },
  },
  function pathVersionPrefix(doc, options, context) {
    const bases = options?.unversionedBases ?? ['/api/svc', '/services/rest'];
    const results = [];
    const servers = Array.isArray(doc.servers) ? doc.servers : [];
    let pathsNeedVersion = servers.length === 0 ? 'the document has no servers' : null;

    servers.forEach((server, i) => {
      if (!isObject(server) || typeof server.url !== 'string') return;
      const path = urlPath(server.url);
      const segments = path.split('/').filter((s) => s !== '');
      const last = segments[segments.length - 1];
      if (last !== undefined && isVersion(last, server.variables)) return;
      if (bases.some((base) => path === base || path.endsWith(base))) {
        pathsNeedVersion ??= `server "${server.url}" carries no version`;
        return;
      }
      results.push({
        message:
          `server URL "${server.url}" has path "${path || '/'}", which neither ends with a version segment ` +
          `(e.g. /api/svc/v3) nor is an unversioned base (${bases.join(', ')}) followed by versioned paths`,
        path: [...context.path, 'servers', i, 'url'],
      });
    });

    if (pathsNeedVersion !== null && isObject(doc.paths)) {
      for (const key of Object.keys(doc.paths)) {
        const first = key.split('/').filter((s) => s !== '')[0];
        if (first !== undefined && VERSION_SEGMENT.test(first)) continue;
        results.push({
          message: `path "${key}" must start with a version segment (e.g. /v4.0${key === '/' ? '' : key}) because ${pathsNeedVersion}`,
          path: [...context.path, 'paths', key],
        });
      }
    }
    return results;
  },
);

/** `{protocol}://{host}:{port}/api/svc/v3?x` -> `/api/svc/v3`; relative URLs are paths already. */
function urlPath(url) {
  const authority = /^[^/]*\/\/[^/]*/.exec(url);
  const rest = authority === null ? url : url.slice(authority[0].length);
  return rest.split(/[?#]/)[0].replace(/\/+$/, '');
}

/** A version segment, or a `{variable}` whose default and enum values are all versions. */
function isVersion(segment, variables) {
  if (VERSION_SEGMENT.test(segment)) return true;
  const variable = /^\{([^{}]+)\}$/.exec(segment);
  if (variable === null || !isObject(variables) || !isObject(variables[variable[1]])) return false;
  const { default: value, enum: values } = variables[variable[1]];
  const candidates = [value, ...(Array.isArray(values) ? values : [])];
  return typeof value === 'string' && candidates.every((v) => typeof v === 'string' && VERSION_SEGMENT.test(v));
}
