// The local svc's state as the state view shows it (LocalStack's resource browser is the model):
// its images, tasks and object stores with their states, its health, and the request journal of
// its control API with each request's verdict against the description. Read through the
// explorer's /local/ while a view is open: the control API (not journaled) at every look, the
// lists when something changed, and while tasks run a long poll of `tasks/poll` whose timeout
// grows; an idle local svc is looked at less and less often. The control API's actions (reset,
// snapshot, restore, an empty journal) are here too. ES module.

import { isWrite, unfinishedTasks } from './components/state-words.js';
import { stateReplaced } from './live-state.js';
import { authorization, localFetch, ownEntries } from './local-fetch.js';
import { config, indexByApi } from './state.js';

/** What the view lists of each kind (the first `SHOWN`, newest first): the operation it reads. */
export const LISTS = {
  images: { api: 'central', operationId: 'images_list', body: { kind: 'image' } },
  tasks: { api: 'central', operationId: 'tasks_list', body: { kind: 'task' } },
  stores: { api: 'objects', operationId: 'objectstores_list' },
};
/** How many of each kind the view lists. */
export const SHOWN = 50;
/** How many entries of the journal a look reads (newest first). */
export const JOURNAL_READ = 200;
/** The waits between two looks at a local svc where nothing runs (ms): longer while nothing changes. */
export const IDLE_WAITS = [1000, 2000, 4000, 8000, 15000, 30000];
/** The long poll's timeouts while tasks run (s): the progress is read after each, or at a task's end. */
export const POLL_WAITS = [1, 2, 4];
/** The operations whose 2xx answer replaces the local svc's state as a whole. */
export const STATE_REPLACING = new Set(['reset_create', 'snapshot_upload']);

/** The control API's base path (`/_svc`). */
const control = () => indexByApi.control?.basePath ?? '/_svc';

/**
 * @typedef {object} Listed
 * @property {any[]} items the first SHOWN, newest first
 * @property {number} total how many there are
 * @property {{ api: string, operationId: string, method: string, path: string, tag: string, summary: string }} from
 *   the operation read
 */

/**
 * What the view shows: `status` of the last look; what it read (kept from the look before when a
 * look reads only some of it).
 * @typedef {object} StateNow
 * @property {'off' | 'reading' | 'ok' | 'unauthorized' | 'failed'} status
 * @property {{ status: string, version: string, uptime_seconds: number, entities: Record<string, number> }} [health]
 * @property {Listed} [images]
 * @property {Listed} [tasks]
 * @property {Listed} [stores]
 * @property {{ total: number, entries: any[], own: Set<number> }} [journal] `own`: the ids of the
 *   page's own requests (local-fetch.js)
 * @property {string} [at] when the last look ended (ISO 8601)
 * @property {string} [error] why the last look failed
 * @property {{ tasks: number } | { ms: number }} [next] what the watch does now: follow running
 *   tasks, or look again in `ms`
 */

/** @type {StateNow} */
let now = { status: 'off' };
const listeners = new Set();
/** @returns {StateNow} */
export const stateNow = () => now;

/**
 * Calls `listener` after every change of what the view shows.
 * @param {() => void} listener
 * @returns {() => void} unsubscribes
 */
export function subscribeState(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** @param {Partial<StateNow>} changes */
function set(changes) {
  now = { ...now, ...changes };
  for (const listener of [...listeners]) listener();
}

/** The list operation of a kind, from the index (null when its API is not in this build). */
function listOperation(kind) {
  const { api, operationId } = LISTS[kind];
  const entry = indexByApi[api];
  const op = entry?.operations[operationId];
  return op ? { ...op, api, operationId, basePath: entry.basePath } : null;
}

/** The operation an operationId names, in any API, with its API. */
export function operationNamed(operationId) {
  if (!operationId) return null;
  for (const entry of config.index) {
    const op = entry.operations[operationId];
    if (op) return { ...op, api: entry.api, apiName: entry.name, operationId };
  }
  return null;
}

/** An error of an answer that is not 2xx: its v3 `message_list` message, else its status. */
async function failure(res, what) {
  let text = '';
  try {
    const body = await res.json();
    text = body?.message_list?.[0]?.message ?? body?.message ?? '';
  } catch {
    text = '';
  }
  return new Error(`${what}: ${res.status}${text ? ` ${text}` : ''}`);
}

/** GET of the control API as JSON. */
async function controlJson(path, signal) {
  const res = await localFetch(`${control()}${path}`, { signal });
  if (res.status === 401) throw Object.assign(new Error('401'), { unauthorized: true });
  if (!res.ok) throw await failure(res, `GET ${control()}${path}`);
  return res.json();
}

/** One list of the view (the first SHOWN, newest first where the operation sorts). */
async function readList(kind, signal) {
  const op = listOperation(kind);
  if (!op) return undefined;
  const body = LISTS[kind].body
    ? { ...LISTS[kind].body, length: SHOWN, sort_attribute: 'creation_time', sort_order: 'DESCENDING' }
    : undefined;
  const res = await localFetch(`${op.basePath}${op.path}`, { method: op.method, json: body, signal });
  if (res.status === 401) throw Object.assign(new Error('401'), { unauthorized: true });
  if (!res.ok) throw await failure(res, `${op.method.toUpperCase()} ${op.path}`);
  const answer = await res.json();
  const all = Array.isArray(answer.entities) ? answer.entities : Array.isArray(answer.specs) ? answer.specs : [];
  // the object store list is not sorted: newest first here
  const items = body ? all : [...all].sort((a, b) => created(b) - created(a));
  return {
    items: items.slice(0, SHOWN),
    total: answer.metadata?.total_matches ?? all.length,
    from: {
      api: op.api,
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      tag: op.tag,
      summary: op.summary,
    },
  };
}

/** An entity's creation time (ms), 0 when it does not say. */
const created = (entity) => Date.parse(entity?.metadata?.creation_time ?? entity?.creation_time ?? '') || 0;

// ---- The watch: one loop while a view is open and the page is visible.

let views = 0;
let looping = false;
/** A look is due now (Refresh, an Execute, Authorize, an action), with the lists. */
let due = true;
/** Ends the loop's current wait (a timer or the long poll). */
let wake = () => {};
/** Only the requests that broke the description (the journal's `valid=false`). */
let invalidOnly = false;

/**
 * Starts watching the local svc for an open view.
 * @returns {() => void} stops (the loop ends with the last view)
 */
export function watchState() {
  views++;
  due = true;
  loop();
  return () => {
    views--;
    wake();
  };
}

/** A look now, lists included: after an Execute, Authorize, Refresh or an action. */
export function refreshState() {
  due = true;
  wake();
  if (views === 0) readSummary();
}

/**
 * Whether the journal shows only the requests that broke the description.
 * @param {boolean} value
 */
export function showInvalidOnly(value) {
  invalidOnly = value;
  refreshState();
}
export const invalidOnlyShown = () => invalidOnly;

/** The health alone (no credentials, not journaled): the counts the closed view shows. */
export async function readSummary() {
  try {
    set({ health: await controlJson('/health'), ...(authorization() ? {} : { status: 'unauthorized' }) });
  } catch {
    // the open view says why; the closed one keeps its counts
  }
}

if (typeof document !== 'undefined') document.addEventListener('visibilitychange', () => wake());

/** Waits `ms` (Infinity: until woken), or less when woken. */
function pause(ms) {
  return new Promise((resolve) => {
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    function done() {
      clearTimeout(timer);
      wake = () => {};
      resolve(undefined);
    }
    wake = done;
  });
}

/** Long-polls `tasks/poll` for `uuids` up to `seconds`; ends early when a task ends or when woken. */
async function longPoll(uuids, seconds) {
  const entry = indexByApi[LISTS.tasks.api];
  const op = entry?.operations.tasks_poll;
  if (!op) return pause(seconds * 1000);
  const abort = new AbortController();
  wake = () => abort.abort();
  try {
    await localFetch(`${entry.basePath}${op.path}`, {
      method: op.method,
      json: { poll_timeout_seconds: seconds, task_uuid_list: uuids },
      signal: abort.signal,
    });
  } catch {
    // woken, or the local svc went away: the next look says so
  } finally {
    wake = () => {};
  }
}

async function loop() {
  if (looping) return;
  looping = true;
  let idle = 0;
  let polls = 0;
  /** What the last look saw: the counts and the newest journal entry. */
  let seen = { counts: '', newest: 0 };
  try {
    while (views > 0) {
      if (document.hidden) {
        await pause(Infinity);
        continue;
      }
      if (!authorization()) {
        set({ status: 'unauthorized', next: undefined });
        readSummary();
        await pause(Infinity);
        continue;
      }
      const forced = due;
      due = false;
      let changed = false;
      try {
        if (now.status !== 'ok') set({ status: 'reading' });
        const [health, journal] = await Promise.all([controlJson('/health'), readJournal()]);
        const counts = JSON.stringify(health.entities);
        const writes = journal.entries.some((e) => e.id > seen.newest && !journal.own.has(e.id) && isWrite(e));
        const running = unfinishedTasks(now.tasks).length > 0;
        changed = counts !== seen.counts || writes;
        seen = { counts, newest: Math.max(seen.newest, ...journal.entries.map((e) => e.id)) };
        /** @type {Partial<StateNow>} */
        const read = { health, journal };
        if (forced || changed || running) {
          const [images, tasks, stores] = await Promise.all(['images', 'tasks', 'stores'].map((k) => readList(k)));
          Object.assign(read, { images, tasks, stores });
        }
        set({ ...read, status: 'ok', error: undefined, at: new Date().toISOString() });
      } catch (error) {
        set(
          error?.unauthorized
            ? { status: 'unauthorized' }
            : { status: 'failed', error: String(error?.message ?? error), at: new Date().toISOString() },
        );
      }
      if (views === 0) break;
      const unfinished = now.status === 'ok' ? unfinishedTasks(now.tasks) : [];
      if (unfinished.length) {
        idle = 0;
        const seconds = POLL_WAITS[Math.min(polls++, POLL_WAITS.length - 1)];
        set({ next: { tasks: unfinished.length } });
        if (!due) await longPoll(unfinished, seconds);
      } else {
        polls = 0;
        idle = changed || forced ? 0 : idle + 1;
        const ms = IDLE_WAITS[Math.min(idle, IDLE_WAITS.length - 1)];
        set({ next: { ms } });
        if (!due) await pause(ms);
      }
    }
  } finally {
    looping = false;
  }
}

/** The journal, newest first, with the page's own requests marked. */
async function readJournal() {
  const answer = await controlJson(`/requests?limit=${JOURNAL_READ}${invalidOnly ? '&valid=false' : ''}`);
  const entries = Array.isArray(answer.entries) ? answer.entries : [];
  return { total: Number(answer.total) || entries.length, entries, own: ownEntries(entries) };
}

// ---- The control API's actions.

/**
 * Removes everything the APIs created (`POST /_svc/reset`, reset_create); the topology stays.
 * @returns {Promise<Record<string, number>>} how many of each kind it removed
 * @throws {Error} naming the status and the local svc's message when it refuses
 */
export async function resetLocalSvc() {
  const res = await localFetch(`${control()}/reset`, { method: 'POST', json: {} });
  if (!res.ok) throw await failure(res, 'Reset');
  const answer = await res.json();
  stateReplaced();
  refreshState();
  return answer.removed ?? {};
}

/**
 * The whole state as a tar archive (`GET /_svc/snapshot`, snapshot_download).
 * @returns {Promise<{ blob: Blob, name: string }>} `name` from its Content-Disposition
 * @throws {Error} naming the status when it fails
 */
export async function saveSnapshot() {
  const res = await localFetch(`${control()}/snapshot`, { accept: 'application/x-tar' });
  if (!res.ok) throw await failure(res, 'Snapshot');
  const disposition = res.headers.get('content-disposition') ?? '';
  const name = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? 'svc-snapshot.tar';
  return { blob: await res.blob(), name };
}

/**
 * Replaces the state by an archive (`PUT /_svc/snapshot`, snapshot_upload).
 * @param {Blob} file a snapshot (`GET /_svc/snapshot` of this or another local svc)
 * @returns {Promise<Record<string, number>>} how many of each kind the state now holds
 * @throws {Error} with the local svc's reason (400: a damaged or foreign archive; the state is untouched)
 */
export async function restoreSnapshot(file) {
  const res = await localFetch(`${control()}/snapshot`, { method: 'PUT', body: file, type: 'application/x-tar' });
  if (!res.ok) throw await failure(res, 'Restore');
  const answer = await res.json();
  stateReplaced();
  refreshState();
  return answer.entities ?? {};
}

/**
 * Empties the request journal (`DELETE /_svc/requests`, requests_delete).
 * @throws {Error} naming the status when it fails
 */
export async function clearJournal() {
  const res = await localFetch(`${control()}/requests`, { method: 'DELETE' });
  if (!res.ok) throw await failure(res, 'Empty the journal');
  refreshState();
}
