// UUIDs an answer names, by the kind of thing they name, so that a later form can be filled with
// the newest one: a task UUID from the last create, an image UUID from the last list. ES module.

/** A UUID (any version). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The kind of thing a path names: its collection segment (`images` for `/images/list`,
 * `/v0.8/images`, `/images/{uuid}/file`; `storage_containers` for `/v2.0/storage_containers`).
 * With `parameter`, the collection the path parameter is a member of.
 * @param {string} path the spec's path template
 * @param {string} [parameter] a path parameter's name
 * @returns {string | null}
 */
export function kindOf(path, parameter) {
  const segments = path.split('/').filter(Boolean);
  const at =
    parameter === undefined ? segments.findIndex((s) => s.startsWith('{')) : segments.indexOf('{' + parameter + '}');
  if (parameter !== undefined && at < 1) return null;
  const before = (at < 0 ? segments : segments.slice(0, at)).filter((s) => !/^v\d/.test(s) && s !== 'list');
  return before.at(-1) ?? null;
}

/** The UUID of one entity of an answer: `metadata.uuid`, `uuid` or `<kind without s>_uuid`. */
function entityUuid(entity, kind) {
  if (!entity || typeof entity !== 'object') return undefined;
  const found = [entity.metadata?.uuid, entity.uuid, entity[kind.replace(/s$/, '') + '_uuid']].find(
    (v) => typeof v === 'string' && UUID.test(v),
  );
  return found;
}

/**
 * The UUIDs an answer names, with the kind of each: the entity it is about (a create's or a
 * get's), the first of a list's `entities`, the path's own UUIDs, and the values of its OpenAPI
 * links (a create's task: `tasks`).
 * @param {{ path: string, params: Record<string, string>, body: any,
 *   links: { target: { path: string }, values: { name: string, in?: string, value: any }[] }[] }} answer
 *   `params`: the path parameters sent
 * @returns {{ kind: string, uuid: string }[]} newest-first order does not matter; no duplicates
 */
export function uuidsOf({ path, params, body, links }) {
  const out = new Map();
  const add = (kind, uuid) => {
    if (kind && typeof uuid === 'string' && UUID.test(uuid)) out.set(kind + ' ' + uuid, { kind, uuid });
  };
  for (const link of links) {
    for (const v of link.values) if (!v.in || v.in === 'path') add(kindOf(link.target.path, v.name), v.value);
  }
  for (const [name, value] of Object.entries(params)) add(kindOf(path, name), value);
  const kind = kindOf(path);
  if (kind) {
    add(kind, entityUuid(body, kind));
    if (Array.isArray(body?.entities)) add(kind, entityUuid(body.entities[0], kind));
  }
  return [...out.values()];
}

/**
 * The newest UUID of a kind in a history (newest first), and the entry it came from.
 * @template {{ api: string, uuids?: { kind: string, uuid: string }[] }} E
 * @param {E[]} entries the history, newest first
 * @param {string} api only this API's answers
 * @param {string} kind
 * @returns {{ uuid: string, entry: E } | null}
 */
export function newestUuid(entries, api, kind) {
  for (const entry of entries) {
    if (entry.api !== api) continue;
    const found = entry.uuids?.find((u) => u.kind === kind);
    if (found) return { uuid: found.uuid, entry };
  }
  return null;
}
