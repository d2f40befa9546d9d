// The local svc's live state as this tab knows it: the lists it reads in the background (once per
// page and credentials, through the explorer's /local/), the tab's own answers to the local svc
// (history.js), and the UUIDs it saw deleted. defaults.js fills the forms from it. ES module.
import { newestFirst, pickKnown } from './knowledge.js';
import { authorization, localFetch } from './local-fetch.js';
import { config, HISTORY_KEY, notify, readSession, writeSession } from './state.js';
import { uuidsOf } from './uuid-sources.js';

/**
 * Session key of when the local svc's state was last replaced as a whole (a reset, a restore of a
 * snapshot): what the tab's answers said of it before that time no longer holds.
 */
export const EPOCH_KEY = 'svc-explorer.state-epoch';
/** Session key of the UUIDs the tab saw deleted (or answered 404). */
export const GONE_KEY = 'svc-explorer.gone';
/** How many gone UUIDs the session keeps (the oldest go first). */
const GONE_LIMIT = 500;
/** How long a background list may take before the page gives up on it (ms). */
const LIST_TIMEOUT_MS = 30_000;

/**
 * A background list's answer.
 * @typedef {{ at: string, from: { method: string, path: string, list: true }, items: import('./uuid-sources.js').NamedEntity[] }} Listed
 */

/** @type {Map<string, Listed>} by kind */
const listed = new Map();
/** @type {Map<string, 'pending' | 'done' | 'unauthorized' | 'failed'>} by kind */
const status = new Map();

/** @returns {Set<string>} the UUIDs this tab saw deleted */
export function goneUuids() {
  const list = readSession(GONE_KEY, []);
  return new Set(Array.isArray(list) ? list : []);
}

/** Remembers UUIDs as gone (a DELETE answered 2xx, a 404). */
export function markGone(uuids) {
  if (!uuids.length) return;
  const list = [...goneUuids()].filter((u) => !uuids.includes(u));
  writeSession(GONE_KEY, [...list, ...uuids].slice(-GONE_LIMIT));
}

/**
 * The local svc's state was replaced as a whole (a reset, a restore): the tab's earlier answers
 * and the lists read so far are forgotten; the next readLists reads every list again.
 */
export function stateReplaced() {
  writeSession(EPOCH_KEY, new Date().toISOString());
  listed.clear();
  status.clear();
  listsVersion++;
  notify();
}

/** The last result of knowns() and what it was made from: every form's default asks for it. */
let memo = {
  history: /** @type {string | null} */ (null),
  epoch: '',
  lists: -1,
  knowns: /** @type {import('./knowledge.js').Known[]} */ ([]),
};
/** Counts the changes of `listed`. */
let listsVersion = 0;

/**
 * Every entity the tab knows the local svc has, newest answer first: the tab's answers from the
 * local svc, then the background lists (read at their own time).
 * @returns {import('./knowledge.js').Known[]}
 */
export function knowns() {
  let raw = null;
  try {
    raw = sessionStorage.getItem(HISTORY_KEY);
  } catch {
    raw = null;
  }
  const epoch = String(readSession(EPOCH_KEY, ''));
  if (memo.history === raw && memo.lists === listsVersion && memo.epoch === epoch) return memo.knowns;
  const entries = readSession(HISTORY_KEY, []);
  const fromAnswers = /** @type {import('./history.js').HistoryEntry[]} */ (Array.isArray(entries) ? entries : [])
    .filter((e) => e.local && e.status >= 200 && e.status < 300 && e.at >= epoch)
    .flatMap((e) => (e.uuids ?? []).map((u) => ({ ...u, at: e.at, from: { method: e.method, path: e.path } })));
  const fromLists = [...listed.values()].flatMap((l) => l.items.map((u) => ({ ...u, at: l.at, from: l.from })));
  memo = { history: raw, epoch, lists: listsVersion, knowns: newestFirst([...fromAnswers, ...fromLists]) };
  return memo.knowns;
}

/**
 * The newest live entities of a kind.
 * @param {string} kind
 * @param {{ not?: Set<string>, count?: number, unfinished?: boolean }} [options] as pickKnown's
 * @returns {import('./knowledge.js').Known[]}
 */
export function pickLive(kind, options = {}) {
  return pickKnown(knowns(), kind, { ...options, gone: goneUuids() });
}

/** The list operation of a kind: the API shown's own first, else another API's. */
export function listerOf(kind, api) {
  const entries = [...config.index].sort((a, b) => Number(b.api === api) - Number(a.api === api));
  for (const entry of entries) {
    for (const [operationId, op] of Object.entries(entry.operations)) {
      if (op.list && listKind(op.path) === kind)
        return { api: entry.api, name: entry.name, operationId, ...op, basePath: entry.basePath };
    }
  }
  return null;
}

/** The collection a list path lists (`/images/list` and `/v2.0/images`: `images`). */
function listKind(path) {
  const segments = path.split('/').filter((s) => s && !/^v\d/.test(s) && s !== 'list');
  return segments.at(-1) ?? null;
}

/** Whether a background list the page waits for is under way (the forms' defaults may change). */
export const listsPending = () => [...status.values()].includes('pending');

/**
 * Whether the lists an API's forms take their defaults from have been asked for and have
 * answered (or failed, or wait for credentials): until then an Execute would send examples.
 * @param {string} api
 * @returns {boolean}
 */
export function listsSettled(api) {
  const kinds = config.index.find((e) => e.api === api)?.kinds ?? [];
  return kinds.every((kind) => !listerOf(kind, api) || (status.has(kind) && status.get(kind) !== 'pending'));
}

/**
 * Reads the lists of the kinds `api`'s requests name from the local svc, in the background, once
 * per page (again after Authorize: `force`). Needs credentials (Authorize); a 401 waits for them.
 * @param {string} api the API shown
 * @param {{ force?: boolean, kinds?: string[] }} [options] `kinds`: only these (a fix's list)
 * @returns {Promise<void>} once every list asked for has answered or failed
 */
export async function readLists(api, { force = false, kinds } = {}) {
  const entry = config.index.find((e) => e.api === api);
  const wanted = kinds ?? entry?.kinds ?? [];
  const auth = authorization();
  const jobs = wanted.map(async (kind) => {
    const now = status.get(kind);
    if (now === 'pending' || (now === 'done' && !force)) return;
    const lister = listerOf(kind, api);
    if (!lister) return;
    if (!auth) {
      status.set(kind, 'unauthorized');
      return;
    }
    status.set(kind, 'pending');
    notify();
    const body = lister.list?.body;
    try {
      const res = await localFetch(`${lister.basePath}${lister.path}`, {
        method: lister.method,
        ...(body ? { json: body } : {}),
        signal: AbortSignal.timeout(LIST_TIMEOUT_MS),
      });
      if (res.status === 401) {
        status.set(kind, 'unauthorized');
        return;
      }
      if (!res.ok) throw new Error(String(res.status));
      const items = uuidsOf({ path: lister.path, params: {}, body: await res.json(), links: [] }).filter(
        (u) => u.kind === kind,
      );
      listed.set(kind, {
        at: new Date().toISOString(),
        from: { method: lister.method, path: lister.path, list: true },
        items,
      });
      listsVersion++;
      status.set(kind, 'done');
    } catch {
      status.set(kind, 'failed');
    }
  });
  await Promise.all(jobs);
  notify();
}
