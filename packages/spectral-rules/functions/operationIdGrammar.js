import { isObject, resolveRef } from '@svc/oas';
import { isBinaryContent } from '@svc/oas/schema';
import { PARAM_SEGMENT, perOperation, VERSION_SEGMENT } from './lib/house.js';

/** Lower snake case: `images_upload_file`, `storage_containers_list`. */
const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
/** Last path segments that name a binary sub-resource read with GET. */
const DOWNLOAD_SEGMENTS = new Set(['file', 'download', 'content', 'binary']);
/** Last path segments that name a binary sub-resource written with PUT. */
const UPLOAD_SEGMENTS = new Set(['file', 'upload']);

const snake = (segment) => segment.toLowerCase().replace(/-/g, '_');

/**
 * Enforces the operationId grammar (`svc-operation-id-grammar`):
 * `<resource>_<verb>[_<qualifier>]` in lower snake case, where `<resource>`
 * is the first path segment after an optional version segment and the verb
 * follows from the HTTP method and the path:
 *
 * | method | path                                         | verb                     |
 * |--------|----------------------------------------------|--------------------------|
 * | GET    | ends with a parameter (`/images/{uuid}`)     | `get`                    |
 * | GET    | binary sub-resource (`/file`) or binary 2xx  | `download`               |
 * | GET    | ends in `/poll` (a long poll)                | `poll`                   |
 * | GET    | a literal segment after a parameter          | `get` or `list`          |
 * | GET    | anything else (a collection)                 | `list`                   |
 * | POST   | ends in `/list` / `/poll`                    | `list` / `poll`          |
 * | POST   | ends in another action segment               | that segment             |
 * | POST   | the collection or an item                    | `create` or `list`       |
 * | PUT    | binary body, or ends in `/upload` or `/file` | `upload`                 |
 * | PUT    | anything else                                | `update`                 |
 * | PATCH  |                                              | `update`                 |
 * | DELETE |                                              | `delete`                 |
 *
 * Why: the generated client, the explorer and the docs group operations by
 * the operationId prefix, and SDK method names come straight from it; one
 * grammar keeps them predictable across APIs and versions.
 *
 * Given: `$.paths[*]` (with `resolved: false`); operations without an
 * operationId are left to spectral:oas `operation-operationId`.
 */
export default perOperation(null, ({ doc, pathKey, method, operation, path }) => {
  const id = operation.operationId;
  if (typeof id !== 'string') return [];
  const { resource, verbs } = expectation(doc, pathKey, method, operation);
  if (fits(id, resource, verbs)) return [];
  const what =
    resource === null
      ? `must be <resource>_<verb>[_qualifier] in lower snake case`
      : `must be <resource>_<verb>[_qualifier] in lower snake case with resource "${resource}"` +
        (verbs === null ? '' : ` and a verb allowed for ${method.toUpperCase()} ${pathKey} (${verbs.join(', ')})`);
  return [{ message: `operationId "${id}" ${what}`, path: [...path, 'operationId'] }];
});

/**
 * @returns {{ resource: string | null, verbs: string[] | null }} null = not constrained
 */
function expectation(doc, pathKey, method, operation) {
  const segments = pathKey.split('/').filter((s) => s !== '');
  if (segments.length > 0 && VERSION_SEGMENT.test(segments[0])) segments.shift();
  if (segments.length === 0 || PARAM_SEGMENT.test(segments[0])) return { resource: null, verbs: null };
  const resource = snake(segments[0]);
  const last = segments[segments.length - 1];
  const endsWithParameter = PARAM_SEGMENT.test(last);
  const lastName = snake(last);
  switch (method) {
    case 'get': {
      const binary = DOWNLOAD_SEGMENTS.has(lastName) || binaryResponse(doc, operation);
      if (endsWithParameter) return { resource, verbs: binary ? ['get', 'download'] : ['get'] };
      if (binary) return { resource, verbs: ['download'] };
      if (lastName === 'poll') return { resource, verbs: ['poll'] };
      // A sub-resource of an item (`/services/{name}/status`) is one record or a collection.
      if (PARAM_SEGMENT.test(segments[segments.length - 2] ?? '')) return { resource, verbs: ['get', 'list'] };
      return { resource, verbs: ['list'] };
    }
    case 'post':
      if (lastName === 'list' || lastName === 'poll') return { resource, verbs: [lastName] };
      if (!endsWithParameter && segments.length > 1) return { resource, verbs: [lastName] };
      return { resource, verbs: ['create', 'list'] };
    case 'put': {
      const body = resolveRef(doc, operation.requestBody).value;
      const binary = UPLOAD_SEGMENTS.has(lastName) || (isObject(body) && isBinaryContent(doc, body.content));
      return { resource, verbs: binary ? ['upload'] : ['update'] };
    }
    case 'patch':
      return { resource, verbs: ['update'] };
    case 'delete':
      return { resource, verbs: ['delete'] };
    default:
      return { resource, verbs: null };
  }
}

/** True when a 2xx response of the operation has a binary body. */
function binaryResponse(doc, operation) {
  if (!isObject(operation.responses)) return false;
  return Object.entries(operation.responses).some(([code, response]) => {
    if (!/^2(?:\d\d|XX)$/i.test(code)) return false;
    const value = resolveRef(doc, response).value;
    return isObject(value) && isBinaryContent(doc, value.content);
  });
}

function fits(id, resource, verbs) {
  if (!SNAKE_CASE.test(id)) return false;
  if (resource === null) return true;
  if (!id.startsWith(`${resource}_`)) return false;
  if (verbs === null) return true;
  const rest = id.slice(resource.length + 1);
  return verbs.some((verb) => rest === verb || rest.startsWith(`${verb}_`));
}
