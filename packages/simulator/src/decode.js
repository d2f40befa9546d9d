// The one percent-decoding step: a malformed escape (`%ZZ`, an overlong `%C0%AE`) is the client's
// error, answered 400 naming where it was, never a 500.
import { HttpError } from './errors.js';

/**
 * Decodes `%XX` escapes.
 * @param {string} text
 * @param {string} field  where the text came from, for the error (e.g. `path parameter uuid`, `filter`)
 * @returns {string}
 * @throws {HttpError} 400 naming `field` when an escape is malformed or not UTF-8
 */
export function percentDecode(text, field) {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    throw new HttpError(
      400,
      'INVALID_REQUEST',
      `${field}: "${text}" has a malformed percent-escape (each % must start a UTF-8 byte as %XX)`,
    );
  }
}
