// An answer as the page's logic reads it, from Swagger UI's response (an Immutable map in the
// components, a plain object in `setResponse`). ES module.
import { toJS } from './state.js';

/**
 * @param {any} response Swagger UI's response: `status`, `headers`, `body` (parsed JSON when it
 *   was JSON), `text`
 * @returns {{ status: number, headers: Record<string, string>, body: any, text: string }}
 *   header names in lower case; `body` the parsed JSON, else the text
 */
export function answerOf(response) {
  const get = (key) => (typeof response?.get === 'function' ? response.get(key) : response?.[key]);
  /** @type {Record<string, string>} */
  const headers = {};
  for (const [k, v] of Object.entries(toJS(get('headers')) || {})) headers[k.toLowerCase()] = String(v);
  const text = typeof get('text') === 'string' ? get('text') : '';
  let body = toJS(get('body'));
  if (body === undefined || body === null || typeof body !== 'object') {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: Number(get('status')) || 0, headers, body, text };
}
