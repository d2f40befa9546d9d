// Error answers explained in words, above the raw response: what went wrong and what to do,
// and the fixes the page can make itself (fixesFor). ES module.
import { freshName } from './knowledge.js';
import { missingReferences } from './references.js';
import { pointerGet } from './workflow.js';

/**
 * @typedef {object} Answer
 * @property {number} status HTTP status
 * @property {Record<string, string>} headers response headers, names in lower case
 * @property {string} text response body as text ('' when none)
 * @property {string | null} [user] the user given with Authorize (credentials sent), null when none
 */

/** Where the local svc's password is: the line `npm start` prints (scripts/serve.mjs). */
const LOCAL_PASSWORD =
  'The local svc: user admin and the password `npm start` printed in its line "export SVC_USER=admin SVC_PASSWORD=...". The Prism mocks take any user and password.';

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `details` of a v3 message: `{ field: 'text' | ['text'] }` or a plain string. */
function detailLines(details) {
  if (typeof details === 'string') return details ? [details] : [];
  if (!details || typeof details !== 'object') return [];
  return Object.entries(details).map(([field, value]) => {
    const text = Array.isArray(value) ? value.join('; ') : String(value);
    return field ? 'field ' + field + ': ' + text : text;
  });
}

/** Prism's `sl-violations` header: a JSON list of `{ location: [...], message }`. */
function violations(header) {
  const list = parseJson(header || '');
  if (!Array.isArray(list)) return [];
  return list
    .filter((v) => v && typeof v.message === 'string')
    .map((v) => (Array.isArray(v.location) && v.location.length ? v.location.join('.') + ': ' : '') + v.message);
}

/**
 * What an answer means, for answers that are errors (status >= 400); `null` for others.
 * - 401: without credentials, say to click **Authorize**; with them, that the password of that user
 *   was refused (the body, the v3 gateway's `AUTHENTICATION_REQUIRED` JSON or the element API's HTML page, names no reason); both say where the local svc's password is;
 * - Prism mock's `sl-violations` header: each violation (where and why the request was refused);
 * - a v3 error body: the `reason`, `message` and field details of each `message_list` entry;
 * - an element error body: its `message`.
 * @param {Answer} answer
 * @returns {null | { title: string, lines: string[], authorize: boolean }}
 */
export function explain(answer) {
  const { status } = answer;
  if (!(status >= 400)) return null;
  const headers = answer.headers || {};
  const lines = [];
  const fromPrism = violations(headers['sl-violations']);
  if (fromPrism.length) lines.push(...fromPrism.map((v) => 'The mock (Prism) refused the request: ' + v));
  // With Prism's violations, the body is the spec's example of that error: not about this request.
  const body = fromPrism.length ? undefined : parseJson(answer.text || '');
  if (body && Array.isArray(body.message_list)) {
    for (const m of body.message_list) {
      if (!m || typeof m !== 'object') continue;
      lines.push([m.reason, m.message].filter(Boolean).join(': '));
      lines.push(...detailLines(m.details));
    }
  } else if (body && typeof body.message === 'string' && body.message) {
    lines.push(body.message);
  }
  if (status === 401 && answer.user) {
    return {
      title: `401 Unauthorized: the service refused the password of user "${answer.user}".`,
      lines: [
        'Click Authorize (top of the page, beside Servers), Logout, and log in again with the right password.',
        LOCAL_PASSWORD,
        ...lines,
      ],
      authorize: true,
    };
  }
  if (status === 401) {
    return {
      title: '401 Unauthorized: the request had no credentials.',
      lines: [
        'Click Authorize (top of the page, beside Servers), enter the user name and password, then Execute again.',
        LOCAL_PASSWORD,
        ...lines,
      ],
      authorize: true,
    };
  }
  if (!lines.length) return null;
  return { title: status + ': the service refused the request.', lines, authorize: false };
}

// ---- Parameter validation: Swagger UI checks a `format: uuid` value twice (its own "Guid" test
// and the schema's `pattern`, shown as a raw regex); one clear message replaces both.
const GUID = /^Value must be a Guid$/;
const PATTERN = /^Value must follow pattern /;
/** The one message of a value that is not a UUID. */
export const UUID_MESSAGE =
  'Value must be a UUID: 8-4-4-4-12 hexadecimal digits (3fa85f64-5717-4562-b3fc-2c963f66afa6)';

/**
 * A parameter's validation errors with the two of a bad UUID made one.
 * @param {string[]} errors Swagger UI's errors of one value
 * @returns {string[]}
 */
export function paramErrors(errors) {
  if (!errors.some((e) => GUID.test(e))) return errors;
  return [...errors.filter((e) => !GUID.test(e) && !PATTERN.test(e)), UUID_MESSAGE];
}

/**
 * The list under Execute ("For 'uuid': Value must be a Guid.") with the two of a bad UUID made one.
 * @param {string[]} lines Swagger UI's `validationErrors` of an operation
 * @returns {string[]}
 */
export function validationMessages(lines) {
  const parse = (line) => /^(For '[^']*'[^:]*): (.*?)\.?$/.exec(line);
  const guid = new Set(lines.map((line) => parse(line)).flatMap((m) => (m && GUID.test(m[2]) ? [m[1]] : [])));
  return lines.flatMap((line) => {
    const m = parse(line);
    if (!m || !guid.has(m[1])) return [line];
    if (GUID.test(m[2])) return [m[1] + ': ' + UUID_MESSAGE + '.'];
    return PATTERN.test(m[2]) ? [] : [line];
  });
}

/**
 * A fix the page offers for an error answer.
 * @typedef {{ type: 'authorize' }
 *   | { type: 'missing', kind: string, fields: ReturnType<typeof missingReferences>, uuids: string[] }
 *   | { type: 'rename', pointer: string, from: string, to: string }} Fix
 */

/** The members of a request body that name the entity created (`spec.name`, `name`). */
const NAME_POINTERS = ['/spec/name', '/name'];

/**
 * What the page can do about an error answer: a 401 opens Authorize; a 4xx that names a UUID the
 * request sent in a field that refers to another entity (a storage container, a cluster, a
 * subnet, an image, a task: references.js) fills that field from the entities that exist; a 409
 * because the name exists offers a name nobody has.
 * @param {{ status: number, text: string }} answer
 * @param {{ params: { name: string, in: string, value: any, kind: string | null }[], body: any, kind: string | null }} request
 *   the form's parameters (with their kinds) and parsed JSON body; `kind` the collection the
 *   operation acts on (for a name: the names known of it)
 * @param {(kind: string) => Iterable<string>} names the names known to exist, by kind
 * @returns {Fix[]}
 */
export function fixesFor(answer, request, names) {
  const { status } = answer;
  if (status === 401) return [{ type: 'authorize' }];
  if (!(status >= 400 && status < 500)) return [];
  /** @type {Fix[]} */
  const fixes = [];
  const missing = missingReferences(request, answer.text ?? '');
  for (const kind of new Set(missing.map((m) => m.kind))) {
    const fields = missing.filter((m) => m.kind === kind);
    fixes.push({ type: 'missing', kind, fields, uuids: [...new Set(fields.map((f) => f.uuid))] });
  }
  if (status === 409 && /already exists|ENTITY_ALREADY_EXISTS/i.test(answer.text ?? '')) {
    const pointer = NAME_POINTERS.find((p) => typeof pointerGet(request.body, p) === 'string');
    if (pointer) {
      const from = pointerGet(request.body, pointer);
      fixes.push({ type: 'rename', pointer, from, to: freshName(from, request.kind ? names(request.kind) : []) });
    }
  }
  return fixes;
}
