// The request history of this tab (as Scalar's): the last requests Executed and their answers,
// kept in sessionStorage and replayable. Credentials are never part of it: an entry is built from
// the form's values (the live samples' request), never from the request Swagger UI sent, which
// carries the Authorization header. ES module.
import { answerOf } from './answer.js';
import { answerLinks } from './links.js';
import { markGone } from './live-state.js';
import { operationLink } from './query.js';
import { isLocalSvc, liveRequest } from './requests.js';
import { revealOperation } from './reveal.js';
import { setParameters, showOperation, whenResolved } from './runner.js';
import { requestUrl } from './samples.js';
import { HISTORY_KEY, indexByApi, notify, page, readSession, setUrlParams, specObject, writeSession } from './state.js';
import { goneOf, uuidsOf } from './uuid-sources.js';

/** How many requests the history keeps (the oldest go first). */
export const HISTORY_LIMIT = 20;
/** How much of an answer's text an entry keeps (characters). */
export const PREVIEW_CHARS = 400;

/**
 * One request of the history and its answer.
 * @typedef {object} HistoryEntry
 * @property {number} id unique in this tab
 * @property {string} at when the answer came (ISO 8601)
 * @property {string} api API name (`central`)
 * @property {string} operationId
 * @property {string} method lower case
 * @property {string} path the spec's path template
 * @property {string} url the URL requested (path and query filled in)
 * @property {import('./samples.js').SampleRequest['params']} params the form's parameter values
 * @property {null | { kind: 'json', value: any } | { kind: 'file', file: string }} body the body
 *   sent (a file by its name only: its bytes are not kept)
 * @property {number} status the answer's HTTP status, 4xx and 5xx included (0: no answer came)
 * @property {string} preview the start of the answer's text (or why none came)
 * @property {boolean} [local] the request went to the local svc (its answers fill later forms)
 * @property {import('./uuid-sources.js').NamedEntity[]} [uuids] the entities a 2xx answer names
 *   (uuid-sources.js), which later forms take
 */

/** @returns {HistoryEntry[]} the history of this tab, newest first */
export function historyEntries() {
  const entries = readSession(HISTORY_KEY, []);
  return Array.isArray(entries) ? entries : [];
}

/**
 * The history entry of an answer: the request from the form's values, without credentials.
 * @param {import('./samples.js').SampleRequest} request
 * @param {{ status?: number, text?: unknown }} response Swagger UI's response
 * @param {{ operationId: string, id: number, at: string, uuids?: HistoryEntry['uuids'], local?: boolean }} meta
 * @returns {HistoryEntry}
 */
export function historyEntry(request, response, meta) {
  const body = request.body;
  return {
    id: meta.id,
    at: meta.at,
    api: request.api,
    operationId: meta.operationId,
    method: String(request.method).toLowerCase(),
    path: request.path,
    url: requestUrl(request),
    params: request.params,
    body: !body ? null : body.kind === 'json' ? { kind: 'json', value: body.value } : { kind: 'file', file: body.file },
    status: Number(response.status) || 0,
    preview: typeof response.text === 'string' ? response.text.slice(0, PREVIEW_CHARS) : '',
    uuids: meta.uuids ?? [],
    local: meta.local === true,
  };
}

/**
 * Adds the answer of an Executed operation of the API shown to the history (Swagger UI's
 * `setResponse`, its error shape made one with answer.js `settledResponse`), keeping the newest
 * HISTORY_LIMIT; a deletion or a 404 the local svc answered marks its UUID gone (live-state.js).
 * @param {any} system Swagger UI's system
 * @param {string} path
 * @param {string} method
 * @param {{ status?: number, text?: unknown }} response
 * @returns {HistoryEntry | null} the entry (null for an operation not in the index)
 */
export function recordHistory(system, path, method, response) {
  const operations = indexByApi[page.api]?.operations ?? {};
  const operationId = Object.keys(operations).find(
    (id) => operations[id].path === path && operations[id].method === method,
  );
  if (!operationId) return null;
  const entries = historyEntries();
  const id = Math.max(0, ...entries.map((e) => e.id)) + 1;
  const request = liveRequest(system, path, method);
  const answer = answerOf(response);
  const params = Object.fromEntries(request.params.path.map((p) => [p.name, String(p.value)]));
  const local = isLocalSvc(request.server.map((part) => ('text' in part ? part.text : '')).join(''));
  const uuids =
    answer.status >= 200 && answer.status < 300
      ? uuidsOf({
          path,
          params,
          body: answer.body,
          links: answerLinks(specObject(system), operations, path, method, answer),
        })
      : [];
  if (local) markGone(goneOf({ method, path, params, status: answer.status }));
  const entry = historyEntry(request, response, { operationId, id, at: new Date().toISOString(), uuids, local });
  writeSession(HISTORY_KEY, [entry, ...entries].slice(0, HISTORY_LIMIT));
  notify();
  return entry;
}

/** The query parameter of a link that replays an entry of the history once its API is loaded. */
export const REPLAY_PARAM = 'replay';

/**
 * Replays an entry: opens its operation, fills the form with the entry's values and Executes it
 * (with the credentials given to Authorize now). An entry of another API loads that API first
 * (a page load, `&replay=<id>`, which `resumeReplay` takes up). A file body cannot be replayed
 * (its bytes are not kept): the form is filled and the user chooses the file again.
 * @param {any} system Swagger UI's system
 * @param {HistoryEntry} entry
 * @returns {Promise<boolean>} whether the request was sent
 */
export async function replay(system, entry) {
  const op = indexByApi[entry.api]?.operations[entry.operationId];
  if (!op) return false;
  if (entry.api !== page.api) {
    location.assign(operationLink(entry.api, op.tag, entry.operationId, { [REPLAY_PARAM]: String(entry.id) }));
    return false;
  }
  showOperation(system, op.tag, entry.operationId);
  await whenResolved(system, op);
  const values = ['path', 'query', 'header'].flatMap((where) =>
    (entry.params?.[where] ?? []).map((p) => ({ name: p.name, in: where, value: p.value })),
  );
  setParameters(system, op, values);
  if (entry.body?.kind === 'json') {
    const pathMethod = [op.path, op.method];
    system.oas3Actions.setRetainRequestBodyValueFlag?.({ value: true, pathMethod });
    system.oas3Actions.setRequestBodyValue({ value: JSON.stringify(entry.body.value, null, 2), pathMethod });
  }
  const block = await revealOperation(entry.operationId);
  if (!block || entry.body?.kind === 'file') return false;
  /** @type {HTMLButtonElement | null} */ (block.querySelector('button.execute'))?.click();
  return true;
}

/**
 * Replays the entry a link names (`&replay=<id>`, from a Replay of another API's entry) once its
 * API is loaded, and takes the parameter out of the address.
 * @param {any} system Swagger UI's system
 */
export function resumeReplay(system) {
  const id = Number(new URLSearchParams(location.search).get(REPLAY_PARAM));
  if (!id) return;
  setUrlParams({ [REPLAY_PARAM]: null });
  const entry = historyEntries().find((e) => e.id === id && e.api === page.api);
  if (entry) replay(system, entry);
}
