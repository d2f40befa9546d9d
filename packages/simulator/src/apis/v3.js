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

/**
 * The intent gateway's 401: the v3 error body with `AUTHENTICATION_REQUIRED`, as production's
 * central and object store APIs answer a missing or wrong credential (some versions send an HTML
 * page instead; scripts grep this body for `AUTHENTICATION_REQUIRED`).
 * @param {string} apiVersion
 * @returns {() => { type: string, body: string }}
 */
export function v3Unauthorized(apiVersion) {
  const body = JSON.stringify({
    api_version: apiVersion,
    code: 401,
    message_list: [
      {
        reason: 'AUTHENTICATION_REQUIRED',
        message: 'Authentication required.',
        details: 'Basic realm="Intent Gateway Login Required"',
      },
    ],
    state: 'ERROR',
  });
  return () => ({ type: 'application/json', body });
}
