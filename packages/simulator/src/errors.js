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
    /** @type {any[] | undefined} a validation error's Ajv errors (the request journal's violations) */
    this.errors = undefined;
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
 * A URL as it may be shown: without its user info (`user:password@`). A URL with an authority
 * (`scheme://`) is parsed as WHATWG `URL` (and fetch) parse it, so a user name or password with
 * `@`, `:`, `%40` or a space is dropped whole, and the rest is shown as that parse reads it. Any
 * other text (one that does not parse, or a schemeless `user:password@host/path`, which `URL`
 * reads as the scheme `user:`) keeps its `scheme://` and loses everything up to its last `@`.
 * @param {string} uri  e.g. a `source_uri`
 * @returns {string}  `uri` itself when it carries no user info
 */
export function withoutCredentials(uri) {
  const text = String(uri);
  const authority = /^[a-z][a-z0-9+.-]*:[\\/]{2}/i.exec(text)?.[0];
  let url;
  try {
    url = authority ? new URL(text) : undefined;
  } catch {
    url = undefined;
  }
  if (!url) {
    const at = text.lastIndexOf('@');
    return at < 0 ? text : `${authority ?? ''}${text.slice(at + 1)}`;
  }
  if (url.username === '' && url.password === '') return text;
  url.username = '';
  url.password = '';
  return url.href;
}

/**
 * Removes from a message every secret given (the data directory, a password) and the user info of
 * every URL in it (see withoutCredentials; a URL ends at a blank or a quote).
 * @param {string} text
 * @param {string[]} secrets  strings never to show (empty ones are ignored)
 * @returns {string}
 */
export function redact(text, secrets = []) {
  let out = String(text);
  for (const secret of secrets) if (secret) out = out.replaceAll(secret, '<hidden>');
  return out.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, (url) => withoutCredentials(url));
}

/**
 * The one mapper from anything thrown while answering to an HttpError: HttpErrors as they are, a
 * full disk 507, an undecodable URI 400, an upload whose body went silent 408, anything else 500 with a message that names neither a
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
  // files.js SourceIdle: an upload's body stopped arriving, and the upload was abandoned
  if (e?.code === 'SOURCE_IDLE')
    return new HttpError(
      408,
      'REQUEST_TIMEOUT',
      `The upload was abandoned: ${e.message}. Nothing was kept; send it again`,
    );
  const what = e?.code ? `${e.code}${e.syscall ? ` (${e.syscall})` : ''}` : (e?.message ?? String(error));
  // a path in an fs error's message would show the data dir: only the code is told
  return new HttpError(500, 'INTERNAL_ERROR', `Internal error: ${redact(what, secrets)}`);
}
