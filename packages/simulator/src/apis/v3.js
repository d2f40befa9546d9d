// What the v3-style APIs (central and objects) share on the wire: the error body, the entity kind
// an operation's errors name, and the wording of the domain's errors.
import { ChecksumMismatch, Conflict, Invalid, MovedOn, NotFound, Refused } from '../domain/errors.js';
import { HttpError } from '../errors.js';

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

/** The v3 checksum type of an algorithm (`X-Svc-Checksum-Type`). */
export const CHECKSUM_TYPE = { sha1: 'SHA_1', sha256: 'SHA_256' };

/**
 * The mapper of the domain's errors to a v3 API's answers: 404 `ENTITY_NOT_FOUND`, 409
 * `CONCURRENT_REQUESTS_NOT_ALLOWED` for a transition the table refuses or a stale version, 409
 * `ENTITY_ALREADY_EXISTS`, 422 `INVALID_REQUEST` naming the v3 fields, 400 for a checksum mismatch.
 * @param {Record<string, string>} fields  the domain's field names (their first segment) -> the
 *   API's (`cluster` -> `cluster_reference.uuid`); a name not listed is shown as it is
 * @returns {(error: import('../domain/errors.js').DomainError) => HttpError}
 */
export function v3MapError(fields) {
  // `placement[1].x` -> the API's name of `placement`, then `[1].x`
  const wire = (field) => {
    const [, first, rest] = /** @type {RegExpExecArray} */ (/^([^.[]*)(.*)$/.exec(field));
    return `${fields[first] ?? first}${rest}`;
  };
  return (error) => {
    if (error instanceof NotFound) {
      const mapped = new HttpError(404, 'ENTITY_NOT_FOUND', error.message);
      mapped.entity = { kind: error.kind, uuid: error.uuid };
      return mapped;
    }
    if (error instanceof Refused || error instanceof MovedOn)
      return new HttpError(409, 'CONCURRENT_REQUESTS_NOT_ALLOWED', error.message);
    if (error instanceof Conflict)
      return new HttpError(
        409,
        error.code === 'exists' ? 'ENTITY_ALREADY_EXISTS' : 'CONCURRENT_REQUESTS_NOT_ALLOWED',
        error.message,
      );
    if (error instanceof Invalid) {
      const details = Object.fromEntries(Object.entries(error.details).map(([f, rule]) => [wire(f), rule]));
      const text = Object.entries(details)
        .map(([f, rule]) => `${f}: ${rule}`)
        .join('; ');
      return new HttpError(
        422,
        'INVALID_REQUEST',
        `Request could not be processed: ${text}${error.hint ? ` (${error.hint})` : ''}`,
        details,
      );
    }
    if (error instanceof ChecksumMismatch)
      return new HttpError(
        400,
        'INVALID_ARGUMENT',
        `X-Svc-Checksum-Bytes does not match the data: the ${CHECKSUM_TYPE[error.algorithm] ?? error.algorithm} of the ${error.size} bytes received is ${error.digest}`,
      );
    return new HttpError(500, 'INTERNAL_ERROR', error.message);
  };
}
