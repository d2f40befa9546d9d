import { documentWithPaths, operation, validDocument } from './support/documents.js';
import { describeRule } from './support/lint.js';

/** A document with the given server URLs (or server objects) and one operation per path. */
const api = (servers, paths) =>
  documentWithPaths(
    Object.fromEntries(paths.map((p) => [p, { get: operation({ operationId: 'x_list' }) }])),
    servers.map((s) => (typeof s === 'string' ? { url: s } : s)),
  );

describeRule('svc-path-version-prefix', [
  { name: 'passes: server URL ends with /api/svc/v3', given: validDocument(), want: [] },
  {
    name: 'passes: /oss/api/svc/v3 server, relative URL',
    given: api(['/oss/api/svc/v3'], ['/buckets', '/buckets/{uuid}']),
    want: [],
  },
  {
    name: 'passes: /api/svc server and every path starts with a version',
    given: api(['https://{host}:9440/api/svc'], ['/v0.8/images', '/v0.8/images/{uuid}/upload']),
    want: [],
  },
  {
    name: 'passes: /services/rest server and /v2.0 paths',
    given: api(['https://pc.svc.test:9440/PrismGateway/services/rest'], ['/v2.0/storage_containers']),
    want: [],
  },
  {
    name: 'passes: the version is a server variable whose values are versions',
    given: api(
      [
        {
          url: 'https://pc.svc.test/api/svc/{version}',
          variables: { version: { default: 'v3', enum: ['v3', 'v3.1'] } },
        },
      ],
      ['/images'],
    ),
    want: [],
  },
  {
    name: 'fails: /api/svc server with unversioned paths (each reported)',
    given: api(['https://{host}:9440/api/svc'], ['/v0.8/images', '/images', '/clusters/list']),
    want: [
      { path: ['paths', '/images'], field: '/images', says: ['version segment', 'https://{host}:9440/api/svc'] },
      { path: ['paths', '/clusters/list'], field: '/clusters/list', says: ['version segment'] },
    ],
  },
  {
    name: 'fails: server path without a version and not an unversioned base',
    given: api(['https://pc.svc.test:9440/api/other'], ['/images']),
    want: [
      { path: ['servers', 0, 'url'], field: 'https://pc.svc.test:9440/api/other', says: ['/api/other', '/api/svc/v3'] },
    ],
  },
  {
    name: 'fails: malformed version segments (version3, v3.x) do not count',
    given: api(['https://pc.svc.test/api/svc/version3', 'https://pc.svc.test/api/svc/v3.x'], ['/images']),
    want: [
      { path: ['servers', 0, 'url'], field: 'https://pc.svc.test/api/svc/version3' },
      { path: ['servers', 1, 'url'], field: 'https://pc.svc.test/api/svc/v3.x' },
    ],
  },
  {
    name: 'fails: /services/rest server with a path whose version is not the first segment',
    given: api(['https://pc.svc.test:9440/PrismGateway/services/rest'], ['/storage_containers/v2.0']),
    want: [
      { path: ['paths', '/storage_containers/v2.0'], field: '/storage_containers/v2.0', says: ['carries no version'] },
    ],
  },
]);
