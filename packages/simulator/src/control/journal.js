// The request journal of the control API (`GET /_svc/requests`): the last requests to the other
// APIs, in a ring of slots reused in place, so that recording a valid request allocates nothing
// and does no JSON work (the cached list is the hot path). Only what the pipeline knows of a
// request is kept: method, path, operation, status, duration and the validator's verdict; never
// a body, a credential, a header value or the query string.

/** How many requests the journal keeps (the oldest are overwritten). */
export const JOURNAL_CAPACITY = 10_000;
/** The most violations kept per request. */
export const VIOLATIONS_KEPT = 20;
/** Longest path kept, in characters (a longer one is cut, ending with `…`): a slot is bounded in bytes. */
export const PATH_KEPT = 1024;
/** Longest violation message kept, in characters. */
export const MESSAGE_KEPT = 300;

/**
 * A validation error as Ajv reports it (openapi-backend's `validateRequest().errors`), or one the
 * pipeline makes in the same shape for a refusal of its own (a missing body, a media type). Its
 * `message` is the rule, never the value (Ajv's are, without `verbose`).
 * @typedef {object} ValidationError
 * @property {string} instancePath  `/requestBody/spec/name`, `/query/length`, `/path/uuid`, `/headers/x-name`
 * @property {string} [keyword]  `required`, `enum`, `additionalProperties`, ...
 * @property {Record<string, any>} [params]  Ajv's (`missingProperty`, `additionalProperty`, `allowedValues`)
 * @property {string} [message]
 */

/**
 * What production accepts though the description does not (docs/service.md, "Where production is
 * lenient"), as the pipeline notes it for a request it answered as production does.
 * @typedef {object} LenientNote
 * @property {'path' | 'query' | 'header' | 'cookie' | 'body'} in
 * @property {string} path  JSON Pointer within that part (`/container_name`)
 * @property {string} message  the rule the request broke
 */

/**
 * A violation as the control API answers it (spec/control `Violation`).
 * @typedef {{ in: string, path: string, message: string, lenient: boolean }} Violation
 */

/**
 * An entry as the control API answers it (spec/control `JournalEntry`).
 * @typedef {object} JournalEntry
 * @property {number} id
 * @property {string} time  RFC 3339, UTC, milliseconds
 * @property {string} method  upper case
 * @property {string} path
 * @property {string | null} operation_id
 * @property {number} status
 * @property {number} duration_ms
 * @property {boolean} valid
 * @property {Violation[]} violations
 */

/**
 * The filters of `GET /_svc/requests`, already checked by the description (requests_list).
 * @typedef {object} JournalFilter
 * @property {string} [operationId]
 * @property {number} [status]
 * @property {boolean} [valid]
 * @property {number} [sinceMs]  epoch ms: entries that arrived at this time or later
 * @property {number} [limit]  the most entries answered; default 100
 */

/**
 * @typedef {object} Journal
 * @property {(method: string, path: string, operationId: string | undefined, status: number, durationMs: number,
 *   errors?: readonly ValidationError[], lenient?: readonly LenientNote[]) => void} record
 *   records one request once it is answered (see createJournal)
 * @property {(filter?: JournalFilter) => { total: number, entries: JournalEntry[] }} list
 *   the entries that pass the filter, newest first (requests_list)
 * @property {() => void} clear  empties the journal; ids go on rising (requests_delete)
 * @property {number} size  how many entries it holds
 * @property {number} capacity
 */

const PARTS = { requestBody: 'body', query: 'query', path: 'path', headers: 'header', cookies: 'cookie' };
const escapePointer = (s) => String(s).replaceAll('~', '~0').replaceAll('/', '~1');
const cut = (text, most) => (text.length > most ? `${text.slice(0, most - 1)}…` : text);

/**
 * A validation error as a violation: `/requestBody/spec/name` -> `{ in: 'body', path: '/spec/name' }`;
 * a missing or extra property is named in the pointer, an enum's values in the message.
 * @param {ValidationError} e
 * @returns {Violation}
 */
export function violationOf(e) {
  const parts = String(e.instancePath ?? '').split('/');
  // '' first: the pointer starts with '/'
  const where = parts[1] ?? '';
  let pointer = parts.length > 2 ? `/${parts.slice(2).join('/')}` : '';
  if (e.keyword === 'required' && e.params?.missingProperty !== undefined)
    pointer += `/${escapePointer(e.params.missingProperty)}`;
  if (e.keyword === 'additionalProperties' && e.params?.additionalProperty !== undefined)
    pointer += `/${escapePointer(e.params.additionalProperty)}`;
  const rule = e.message ?? `must follow "${e.keyword ?? 'the schema'}"`;
  const message =
    e.keyword === 'enum' && Array.isArray(e.params?.allowedValues)
      ? `${rule}: ${e.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
      : rule;
  return {
    in: PARTS[where] ?? 'body',
    path: cut(pointer, PATH_KEPT),
    message: cut(message, MESSAGE_KEPT),
    lenient: false,
  };
}

/**
 * The journal: a ring of `capacity` slots, each an object reused in place.
 *
 * `record(method, path, operationId, status, durationMs, errors, lenient)` is the pipeline's one
 * call, once a request to another API is answered (not for `/_svc/`):
 * - `method` as received (`get` or `GET`), `path` the target's path with its base path, without the query
 * - `operationId` the matched operation's, undefined when none matched (404, 405)
 * - `status` the status answered; `durationMs` from arrival to the answer's headers
 * - `errors` the validation errors of a refused request as openapi-backend gives them (undefined: valid)
 * - `lenient` the notes of what production accepts though the description does not (undefined: none)
 *
 * A valid request allocates nothing (its slot is overwritten); an invalid one keeps its first
 * VIOLATIONS_KEPT violations, converted then (the arrays given are not held).
 * @param {number} [capacity]  JOURNAL_CAPACITY by default
 * @returns {Journal}
 * @throws {RangeError} when capacity is not a positive integer
 */
export function createJournal(capacity = JOURNAL_CAPACITY) {
  if (!(Number.isInteger(capacity) && capacity > 0))
    throw new RangeError(`journal capacity must be a positive integer, not ${capacity}`);
  /** @type {any[]} the slots; slot of id n: (n - 1) % capacity */
  const slots = [];
  /** The id of the next entry (ids start at 1). */
  let next = 1;
  /** The id of the oldest entry still listed (after a clear: `next`). */
  let oldest = 1;

  function record(method, path, operationId, status, durationMs, errors, lenient) {
    const index = (next - 1) % capacity;
    let slot = slots[index];
    if (slot === undefined) {
      slot = {
        id: 0,
        arrivedMs: 0,
        method: '',
        path: '',
        operationId: null,
        status: 0,
        durationMs: 0,
        violations: null,
      };
      slots[index] = slot;
    }
    slot.id = next;
    slot.arrivedMs = Date.now() - durationMs;
    slot.method = method;
    slot.path = path.length > PATH_KEPT ? cut(path, PATH_KEPT) : path;
    slot.operationId = operationId ?? null;
    slot.status = status;
    slot.durationMs = durationMs;
    slot.violations = errors?.length || lenient?.length ? violationsOf(errors, lenient) : null;
    next += 1;
    if (next - oldest > capacity) oldest = next - capacity;
  }

  /** @returns {Violation[]} */
  function violationsOf(errors = [], lenient = []) {
    const out = [];
    for (const note of lenient) {
      if (out.length >= VIOLATIONS_KEPT) break;
      out.push({
        in: note.in,
        path: cut(String(note.path), PATH_KEPT),
        message: cut(String(note.message), MESSAGE_KEPT),
        lenient: true,
      });
    }
    for (const e of errors) {
      if (out.length >= VIOLATIONS_KEPT) break;
      out.push(violationOf(e));
    }
    return out;
  }

  /**
   * Whether a request followed its operation's description: it matched one, and broke nothing of it
   * (a lenient note is not a breach: the description accepts that form for production's sake).
   */
  const isValid = (slot) => slot.operationId !== null && (slot.violations ?? []).every((v) => v.lenient);

  /** @returns {JournalEntry} */
  function view(slot) {
    const matched = slot.operationId !== null;
    const violations = slot.violations
      ? slot.violations.map((v) => ({ ...v }))
      : matched
        ? []
        : [{ in: 'path', path: '', message: 'matches no operation of the description', lenient: false }];
    return {
      id: slot.id,
      time: new Date(slot.arrivedMs).toISOString(),
      method: slot.method.toUpperCase(),
      path: slot.path,
      operation_id: slot.operationId,
      status: slot.status,
      duration_ms: Math.round(slot.durationMs * 1000) / 1000,
      valid: isValid(slot),
      violations,
    };
  }

  return {
    record,
    list({ operationId, status, valid, sinceMs, limit = 100 } = {}) {
      const entries = [];
      let total = 0;
      for (let id = next - 1; id >= oldest; id--) {
        const slot = slots[(id - 1) % capacity];
        if (operationId !== undefined && slot.operationId !== operationId) continue;
        if (status !== undefined && slot.status !== status) continue;
        if (sinceMs !== undefined && slot.arrivedMs < sinceMs) continue;
        if (valid !== undefined && valid !== isValid(slot)) continue;
        total += 1;
        if (entries.length < limit) entries.push(view(slot));
      }
      return { total, entries };
    },
    clear() {
      oldest = next;
      // what the slots hold is no longer listed; their violations are let go
      for (const slot of slots) slot.violations = null;
    },
    get size() {
      return next - oldest;
    },
    capacity,
  };
}
