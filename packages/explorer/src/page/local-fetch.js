// The page's own requests to the local svc (the background lists of the live defaults, the state
// view), through the explorer's /local/ with the session's credentials. Each one is remembered for
// a while, so that the request journal shown in the page can leave out what the page read by
// itself and show what the user and their code sent. ES module.
import { ownEntryIds } from './components/state-words.js';
import { AUTH_KEY, readSession } from './state.js';

/**
 * One request the page sent by itself: its method (upper case), its path as the local svc's
 * journal writes it (base path included, no query), and when it left and was answered (ms since
 * the epoch, the browser's clock: the same machine's as the local svc's).
 * @typedef {{ method: string, path: string, from: number, to: number }} OwnRead
 */

/** How many of the page's own requests are remembered (the oldest go first). */
const OWN_KEPT = 1000;
/** How far apart the browser's and the journal's times of one request may be (ms; both in whole ms). */
const SLACK_MS = 25;

/** @type {OwnRead[]} oldest first */
const own = [];

/**
 * `Basic …` of the session's first basic-auth credentials (given with Authorize), or null.
 * @returns {string | null}
 */
export function authorization() {
  const saved = Object.values(readSession(AUTH_KEY, {}));
  const first = /** @type {{ username?: string, password?: string } | undefined} */ (saved.find((s) => s?.username));
  if (!first) return null;
  const text = `${first.username}:${first.password ?? ''}`;
  return `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(text)))}`;
}

/**
 * Sends a request of the page's own to the local svc (`/local<path>`) with the session's
 * credentials, and remembers it as the page's (see ownEntries).
 * @param {string} path the local svc's path, base path included, with its query (`/_svc/requests?limit=5`)
 * @param {{ method?: string, json?: unknown, body?: Blob | ArrayBuffer, type?: string,
 *   accept?: string, signal?: AbortSignal }} [options] `json`: a JSON body; `body` with `type`: bytes
 * @returns {Promise<Response>} any status; rejects when no answer came (network, abort)
 */
export async function localFetch(path, { method = 'GET', json, body, type, accept = 'application/json', signal } = {}) {
  const auth = authorization();
  /** @type {Record<string, string>} */
  const headers = { accept, ...(auth ? { authorization: auth } : {}) };
  if (json !== undefined) headers['content-type'] = 'application/json';
  else if (body !== undefined && type) headers['content-type'] = type;
  const read = { method: method.toUpperCase(), path: path.split('?')[0], from: Date.now(), to: Infinity };
  own.push(read);
  if (own.length > OWN_KEPT) own.splice(0, own.length - OWN_KEPT);
  try {
    return await fetch(`/local${path}`, {
      method: read.method,
      headers,
      ...(json !== undefined ? { body: JSON.stringify(json) } : body !== undefined ? { body } : {}),
      ...(signal ? { signal } : {}),
    });
  } finally {
    read.to = Date.now();
  }
}

/**
 * The ids of the journal's entries that are the page's own requests (state-words.js ownEntryIds).
 * @param {{ id: number, time: string, method: string, path: string }[]} entries
 * @returns {Set<number>}
 */
export function ownEntries(entries) {
  return ownEntryIds(entries, own, SLACK_MS);
}
