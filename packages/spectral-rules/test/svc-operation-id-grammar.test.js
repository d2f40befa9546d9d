import { documentWithPaths, operation, validDocument } from './support/documents.js';
import { describeRule } from './support/lint.js';

const binaryBody = { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } };
const binaryResponse = {
  200: {
    description: 'Bytes',
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  },
  404: { description: 'Not found' },
  default: { description: 'Error' },
};

/** One operation in a minimal document. */
const single = (method, path, operationId, fields = {}) =>
  documentWithPaths({ [path]: { [method]: operation({ operationId, ...fields }) } });

/** [method, path, operationId, extra operation fields] that must pass. */
const good = [
  ['post', '/images', 'images_create'],
  ['post', '/images/list', 'images_list'],
  ['get', '/images/{uuid}', 'images_get'],
  ['put', '/images/{uuid}', 'images_update'],
  ['delete', '/images/{uuid}', 'images_delete'],
  ['put', '/images/{uuid}/file', 'images_upload_file'],
  ['get', '/images/{uuid}/file', 'images_download_file'],
  ['get', '/tasks/{uuid}', 'tasks_get'],
  ['post', '/tasks/list', 'tasks_list'],
  ['post', '/tasks/poll', 'tasks_poll'],
  ['post', '/clusters/list', 'clusters_list'],
  ['get', '/v0.8/images', 'images_list'],
  ['put', '/v0.8/images/{uuid}/upload', 'images_upload'],
  ['get', '/v2.0/storage_containers', 'storage_containers_list'],
  ['post', '/groups', 'groups_list'],
  ['post', '/objectstores/{uuid}/replace_certificate', 'objectstores_replace_certificate'],
  ['patch', '/v4.0/vms/{extId}', 'vms_update_partial'],
  ['put', '/v0.8/images/{uuid}/disk', 'images_upload_disk', { requestBody: binaryBody }],
  ['get', '/v0.8/images/{uuid}/disk', 'images_download_disk', { responses: binaryResponse }],
  ['get', '/v0.8/tasks/{uuid}/poll', 'tasks_poll_v0_8'],
  ['get', '/services/{service_name}/status', 'services_get_status'],
  ['get', '/clusters/{uuid}/hosts', 'clusters_list_hosts'],
  ['post', '/tasks/{uuid}/abort', 'tasks_abort'],
  ['post', '/services/oss', 'services_oss_enable'],
  ['post', '/objectstores/{uuid}/groups', 'objectstores_groups_list'],
];

/** [method, path, operationId, expected resource, text the message must contain] that must fail. */
const bad = [
  ['post', '/images', 'createImage', 'images', 'POST /images (create, list)'],
  ['get', '/images/{uuid}', 'images_fetch', 'images', 'GET /images/{uuid} (get)'],
  ['put', '/images/{uuid}', 'images_create', 'images', 'PUT /images/{uuid} (update)'],
  ['delete', '/tasks/{uuid}', 'tasks_remove', 'tasks', 'DELETE /tasks/{uuid} (delete)'],
  ['post', '/images/list', 'vms_list', 'images', 'POST /images/list (list)'],
  ['get', '/images', 'images_get', 'images', 'GET /images (list)'],
  ['get', '/v0.8/tasks/{uuid}/poll', 'tasks_get_v0_8', 'tasks', 'GET /v0.8/tasks/{uuid}/poll (poll)'],
  [
    'get',
    '/services/{service_name}/status',
    'services_status',
    'services',
    'GET /services/{service_name}/status (get, list)',
  ],
  ['get', '/services/status', 'services_get_status', 'services', 'GET /services/status (list)'],
  ['post', '/tasks/{uuid}/abort', 'tasks_cancel', 'tasks', 'POST /tasks/{uuid}/abort (abort)'],
  ['put', '/images/{uuid}/file', 'images_update_file', 'images', 'PUT /images/{uuid}/file (upload)'],
  ['post', '/objectstores/{uuid}/replace_certificate', 'objectstores_update', 'objectstores', '(replace_certificate)'],
  ['get', '/v2.0/storage_containers', 'storage_containers_List', 'storage_containers', 'lower snake case'],
  [
    'get',
    '/v2.0/storage_containers',
    'storagecontainers_list',
    'storage_containers',
    'GET /v2.0/storage_containers (list)',
  ],
];

describeRule('svc-operation-id-grammar', [
  { name: 'passes: every operation of the sample API', given: validDocument(), want: [] },
  ...good.map(([method, path, id, fields]) => ({
    name: `passes: ${id} for ${String(method).toUpperCase()} ${path}`,
    given: single(method, path, id, fields),
    want: [],
  })),
  ...bad.map(([method, path, id, resource, says]) => ({
    name: `fails: ${id} for ${method.toUpperCase()} ${path}`,
    given: single(method, path, id),
    want: [
      {
        path: ['paths', path, method, 'operationId'],
        field: id,
        says: ['<resource>_<verb>[_qualifier]', `resource "${resource}"`, says],
      },
    ],
  })),
  {
    name: 'fails: PUT with a binary body is an upload, not an update',
    given: single('put', '/v0.8/images/{uuid}/disk', 'images_update_disk', { requestBody: binaryBody }),
    want: [
      {
        path: ['paths', '/v0.8/images/{uuid}/disk', 'put', 'operationId'],
        field: 'images_update_disk',
        says: ['(upload)'],
      },
    ],
  },
  {
    name: 'fails: only the wrong operation of a path is reported',
    given: documentWithPaths({
      '/images/{uuid}': {
        get: operation({ operationId: 'images_get' }),
        delete: operation({ operationId: 'images_remove' }),
      },
    }),
    want: [{ path: ['paths', '/images/{uuid}', 'delete', 'operationId'], field: 'images_remove', says: ['(delete)'] }],
  },
]);
