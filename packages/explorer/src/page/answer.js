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

/**
 * Swagger UI's response of an Execute as it reached `setResponse`, made one shape: an error
 * status comes as `{ error: true, err }` with the answer in `err.response` (swagger-client throws
 * on 4xx and 5xx); a request that got no answer (network, CORS) as `status: 0` and the reason.
 * @param {any} res the payload of `setResponse`
 * @returns {{ status: number, headers?: Record<string, string>, body?: any, text?: string }}
 */
export function settledResponse(res) {
  if (!res?.error) return res;
  const answer = res.err?.response;
  if (answer) return { ...answer, status: Number(answer.status ?? res.err.status) || 0 };
  return { status: 0, headers: {}, text: String(res.err?.message ?? 'no answer') };
}
