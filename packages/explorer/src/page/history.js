// The request history of this tab (as Scalar's): the last requests Executed and their answers,
// kept in sessionStorage and replayable. Credentials are never part of it: an entry is built from
// the form's values (the live samples' request), never from the request Swagger UI sent, which
// carries the Authorization header. ES module.
import { answerOf } from './answer.js';
import { answerLinks } from './links.js';
import { liveRequest } from './requests.js';
import { revealOperation } from './reveal.js';
import { setParameters, showOperation, whenResolved } from './runner.js';
import { requestUrl } from './samples.js';
import { HISTORY_KEY, indexByApi, notify, page, readSession, specObject, writeSession } from './state.js';
import { uuidsOf } from './uuid-sources.js';

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
 * @property {number} status the answer's HTTP status (0: no answer)
 * @property {string} preview the start of the answer's text
 * @property {{ kind: string, uuid: string }[]} [uuids] the UUIDs the answer names (uuid-sources.js),
 *   which later forms take
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
 * @param {{ operationId: string, id: number, at: string, uuids?: HistoryEntry['uuids'] }} meta
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
  };
}

/**
 * Adds the answer of an Executed operation of the API shown to the history (Swagger UI's
 * `setResponse`), keeping the newest HISTORY_LIMIT.
 * @param {any} system Swagger UI's system
 * @param {string} path
 * @param {string} method
 * @param {{ status?: number, text?: unknown }} response
 */
export function recordHistory(system, path, method, response) {
  const operations = indexByApi[page.api]?.operations ?? {};
  const operationId = Object.keys(operations).find(
    (id) => operations[id].path === path && operations[id].method === method,
  );
  if (!operationId) return;
  const entries = historyEntries();
  const id = Math.max(0, ...entries.map((e) => e.id)) + 1;
  const request = liveRequest(system, path, method);
  const answer = answerOf(response);
  const uuids =
    answer.status >= 200 && answer.status < 300
      ? uuidsOf({
          path,
          params: Object.fromEntries(request.params.path.map((p) => [p.name, String(p.value)])),
          body: answer.body,
          links: answerLinks(specObject(system), operations, path, method, answer),
        })
      : [];
  const entry = historyEntry(request, response, { operationId, id, at: new Date().toISOString(), uuids });
  writeSession(HISTORY_KEY, [entry, ...entries].slice(0, HISTORY_LIMIT));
  notify();
}

/**
 * Replays an entry of the API shown: opens its operation, fills the form with the entry's values
 * and Executes it (with the credentials given to Authorize now). A file body cannot be replayed
 * (its bytes are not kept): the form is filled and the user chooses the file again.
 * @param {any} system Swagger UI's system
 * @param {HistoryEntry} entry
 * @returns {Promise<boolean>} whether the request was sent
 */
export async function replay(system, entry) {
  const op = indexByApi[entry.api]?.operations[entry.operationId];
  if (!op || entry.api !== page.api) return false;
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
