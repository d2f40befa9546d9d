// Errors of the simulator: the one error type answers carry (HttpError), the one not-found builder,
// and the one mapper from any thrown value to an answer that never echoes a path of the data
// directory or a credential.
import { isStorageFull } from './domain/errors.js';

/** An error answer: the HTTP status, the v3 `reason`, and a message naming the field or entity. */
export class HttpError extends Error {
  /**
   * @param {number} status  HTTP status
   * @param {string} reason  v3 `message_list[].reason`, e.g. `ENTITY_NOT_FOUND`
   * @param {string} message human-readable, names the field or the entity
   * @param {Record<string, string>} [details] field -> rule, for validation errors
   * @param {Record<string, string>} [headers] extra response headers
   */
  constructor(status, reason, message, details, headers) {
    super(message);
    this.status = status;
    this.reason = reason;
    this.details = details;
    this.headers = headers;
    /** @type {{ kind: string, uuid: string } | undefined} the entity a 404 is about (APIs word it their way) */
    this.entity = undefined;
  }
}

/**
 * 404 for an entity that does not exist, worded as v3 does (`image : <uuid> does not exist.`);
 * `entity` lets another API word it its own way.
 * @param {string} kind  e.g. `image`, `task`, `objectstore`
 * @param {string} uuid
 * @returns {HttpError}
 */
export function notFound(kind, uuid) {
  const error = new HttpError(404, 'ENTITY_NOT_FOUND', `${kind} : ${uuid} does not exist.`);
  error.entity = { kind, uuid };
  return error;
}

/**
 * Removes from a message every secret given (the data directory, a password) and the
 * `user:password@` of URLs.
 * @param {string} text
 * @param {string[]} secrets  strings never to show (empty ones are ignored)
 * @returns {string}
 */
export function redact(text, secrets = []) {
  let out = String(text).replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1');
  for (const secret of secrets) if (secret) out = out.replaceAll(secret, '<hidden>');
  return out;
}

/**
 * The one mapper from anything thrown while answering to an HttpError: HttpErrors as they are, a
 * full disk 507, an undecodable URI 400, anything else 500 with a message that names neither a
 * local path nor a credential.
 * @param {unknown} error
 * @param {string[]} secrets  the data directory, the password: never echoed
 * @returns {HttpError}
 */
export function toHttpError(error, secrets) {
  if (error instanceof HttpError) return error;
  const e = /** @type {any} */ (error);
  if (isStorageFull(e))
    return new HttpError(
      507,
      'INSUFFICIENT_STORAGE',
      "The simulator's data directory is full: free some space (or delete images) and retry",
    );
  if (e instanceof URIError) return new HttpError(400, 'INVALID_REQUEST', `Malformed percent-encoding: ${e.message}`);
  const what = e?.code ? `${e.code}${e.syscall ? ` (${e.syscall})` : ''}` : (e?.message ?? String(error));
  // a path in an fs error's message would show the data dir: only the code is told
  return new HttpError(500, 'INTERNAL_ERROR', `Internal error: ${redact(what, secrets)}`);
}
