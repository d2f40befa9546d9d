// Contract mode: the read-only operations of a bundle, called through a `prism proxy --errors` that
// sits in front of a real server, with every response that breaks the spec reported by operation
// and field. scripts/contract.mjs starts the proxies (startPrism of @svc/mock); this module builds the calls and reads
// Prism's verdicts.
import { deref, exampleOf, isReadOnly, mediaKind, operations, requestBodyOf } from '@svc/oas';

/**
 * One operation called in contract mode and what Prism said about it.
 * @typedef {object} LiveResult
 * @property {string} api
 * @property {string} operationId
 * @property {string} method       upper case
 * @property {string} path         the path template of the spec (`/images/{uuid}`)
 * @property {number} status       HTTP status Prism returned (500 with --errors when the response broke the spec)
 * @property {{ where: 'request' | 'response', field: string, message: string, severity: string }[]} violations
 * @property {boolean} [unchecked] true when no verdict on the target's answer exists (the call or Prism's forward failed)
 * @property {string} [note]       how path parameters were chosen, or why a call failed
 */

/**
 * The operations of a bundle that only read, in the order they are called: lists and polls
 * first (they yield real identifiers), then reads by identifier. Read-only is `isReadOnly` of
 * `@svc/oas`, the helper the client's retries use too: GET, HEAD, or a POST marked
 * `x-svc-idempotent: true`. Binary downloads are left out (they would fetch whole disk images).
 * @param {object} doc a bundled OpenAPI document
 * @returns {{ method: string, path: string, operationId: string, op: object, parameters: Record<string, any>[] }[]}
 */
export function readOnlyOperations(doc) {
  const out = [];
  for (const entry of operations(doc)) {
    if (!isReadOnly(entry)) continue;
    const { method, path, operationId, operation: op, parameters } = entry;
    const id = operationId ?? '';
    const ok = Object.entries(op.responses ?? {}).find(([s]) => /^2/.test(s));
    const content = Object.keys(deref(doc, ok?.[1])?.content ?? {});
    if (content.length && !content.some((t) => mediaKind(t) === 'json')) continue; // a binary download
    out.push({ method, path, operationId: id, op, parameters });
  }
  const byId = (o) => (o.path.includes('{') ? 1 : 0);
  return out.sort((a, b) => byId(a) - byId(b));
}

/** `/images/{uuid}/file` -> `/images`; `/tasks/list` -> `/tasks`. */
function collectionOf(path) {
  return path.split('/{')[0].replace(/\/(list|poll)$/, '');
}

/** An identifier of the first entity of a list response, if it has one. */
function firstId(body) {
  const list = Array.isArray(body?.entities) ? body.entities : undefined;
  const entity = list?.find((e) => e && typeof e === 'object');
  if (!entity) return undefined;
  const candidates = [
    entity.metadata?.uuid,
    entity.uuid,
    ...Object.entries(entity)
      .filter(([k]) => /uuid$/.test(k))
      .map(([, v]) => v),
  ];
  return candidates.find((v) => typeof v === 'string' && v.length > 0);
}

/**
 * Turns Prism's `validation` / `sl-violations` entries into `{ where, field, message, severity }`.
 * @param {any[]} list
 * @returns {LiveResult['violations']}
 */
export function violationsOf(list) {
  return (Array.isArray(list) ? list : []).map((v) => {
    const location = Array.isArray(v.location) ? v.location : [];
    const where = location[0] === 'request' ? 'request' : 'response';
    const rest = location.slice(1);
    const part = rest[0] ?? '';
    const field = rest.length > 1 ? `${part} ${rest.slice(1).join('.')}` : part || '(whole)';
    return {
      where,
      field,
      message: String(v.message ?? v.code ?? 'violation'),
      severity: String(v.severity ?? 'Error'),
    };
  });
}

/**
 * Calls the read-only operations of one API through its Prism proxy.
 * @param {object} options
 * @param {string} options.api         the API's name (for the report)
 * @param {object} options.doc         its bundle
 * @param {string} options.proxyUrl    origin of the `prism proxy` in front of the target
 * @param {string} options.authorization  the Authorization header to send (never logged)
 * @param {number} [options.timeoutMs] per call (default 60000 ms)
 * @returns {Promise<LiveResult[]>}
 */
export async function runReadOnly({ api, doc, proxyUrl, authorization, timeoutMs = 60_000 }) {
  const ids = new Map();
  const results = [];
  for (const o of readOnlyOperations(doc)) {
    const notes = [];
    let path = o.path;
    const query = new URLSearchParams();
    const headers = { accept: 'application/json', authorization };
    for (const p of o.parameters) {
      if (p.in === 'path') {
        const real = ids.get(collectionOf(o.path));
        const value = real ?? exampleOf(doc, p);
        if (!real) notes.push(`{${p.name}} from the spec's example (no entity listed)`);
        path = path.replace(`{${p.name}}`, encodeURIComponent(String(value)));
      } else if (p.required && p.in === 'query') query.set(p.name, String(exampleOf(doc, p)));
      else if (p.required && p.in === 'header') headers[p.name.toLowerCase()] = String(exampleOf(doc, p));
    }
    const requestBody = o.method === 'post' ? requestBodyOf(doc, o.op) : null;
    const body = requestBody?.kind === 'json' ? (requestBody.example ?? {}) : undefined;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const url = `${proxyUrl}${path}${query.size ? `?${query}` : ''}`;
    const result = {
      api,
      operationId: o.operationId,
      method: o.method.toUpperCase(),
      path: o.path,
      status: 0,
      violations: /** @type {LiveResult['violations']} */ ([]),
    };
    try {
      const call = async () => {
        const res = await fetch(url, {
          method: o.method.toUpperCase(),
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await res.text();
        let json;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        // Prism's own answers are problem+json: a violations report (type is a stoplight.io URL),
        // or a failed forward (type is an error name, e.g. FetchError for a refused certificate).
        const fromPrism =
          /application\/problem\+json/.test(res.headers.get('content-type') ?? '') &&
          typeof json?.type === 'string' &&
          (json.type.startsWith('https://stoplight.io/prism/errors#') || /^[A-Za-z]+$/.test(json.type));
        return { res, json, fromPrism };
      };
      let { res, json, fromPrism } = await call();
      // A forward that the target's side reset (a keep-alive connection it closed while Prism
      // reused it) says nothing of the answer: these calls are read-only, so it is made once more.
      if (
        fromPrism &&
        !Array.isArray(json.validation) &&
        /ECONNRESET|socket hang up/.test(`${json.title} ${json.detail}`)
      )
        ({ res, json, fromPrism } = await call());
      result.status = res.status;
      const header = res.headers.get('sl-violations');
      if (fromPrism) {
        if (Array.isArray(json.validation)) result.violations = violationsOf(json.validation);
        else {
          result.unchecked = true;
          notes.push(`Prism: ${json.title}${json.detail ? `: ${json.detail}` : ''}`);
        }
      } else if (header) {
        result.violations = violationsOf(JSON.parse(header));
      }
      if (res.ok && !o.path.includes('{') && !ids.has(collectionOf(o.path))) {
        const id = firstId(json);
        if (id) ids.set(collectionOf(o.path), id);
      }
    } catch (e) {
      result.unchecked = true;
      notes.push(`call failed: ${e.cause?.message ?? e.message}`);
    }
    if (notes.length) result.note = notes.join('; ');
    results.push(result);
  }
  return results;
}

/**
 * The report lines of contract mode: one per operation, then one per violation.
 * @param {LiveResult[]} results
 * @returns {string[]}
 */
export function formatReport(results) {
  const lines = [];
  for (const r of results) {
    const verdict = r.violations.length
      ? `${r.violations.length} violation(s)`
      : r.unchecked || !r.status
        ? 'NOT CHECKED'
        : 'conforms';
    lines.push(
      `${r.api} ${r.operationId} ${r.method} ${r.path} -> ${r.status || '-'}: ${verdict}${r.note ? ` (${r.note})` : ''}`,
    );
    for (const v of r.violations) lines.push(`  ${v.severity} ${v.where} ${v.field}: ${v.message}`);
  }
  return lines;
}
