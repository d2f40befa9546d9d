// What the v3-style APIs (central and objects) share on the wire: the error body and the
// entity kind an operation's errors name.

/** Entity kind of an operation for the v3 error body's `kind`: `images_get` -> `image`. */
const KINDS = {
  images: 'image',
  tasks: 'task',
  objectstores: 'objectstore',
  groups: 'group',
  clusters: 'cluster',
  subnets: 'subnet',
  services: 'service',
};

/**
 * The v3 error body builder of an API: `api_version`, `code`, `kind`, `message_list`, `state: ERROR`.
 * @param {string} apiVersion  `3.1` (central) or `3.0` (objects)
 * @returns {(error: import('../errors.js').HttpError, operationId?: string) => any}
 */
export function v3ErrorBody(apiVersion) {
  return (error, operationId) => {
    const message = { message: error.message, reason: error.reason };
    if (error.details) message.details = error.details;
    return {
      api_version: apiVersion,
      code: error.status,
      kind: KINDS[(operationId ?? '').split('_')[0]] ?? 'error',
      message_list: [message],
      state: 'ERROR',
    };
  };
}
