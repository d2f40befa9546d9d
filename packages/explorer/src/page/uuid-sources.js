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

/** A time in milliseconds from an ISO date or a count of microseconds, else undefined. */
function millis(value) {
  if (typeof value === 'number' && Number.isFinite(value)) return value > 1e14 ? Math.floor(value / 1000) : value;
  if (typeof value === 'string' && value) {
    const at = Date.parse(value);
    return Number.isNaN(at) ? undefined : at;
  }
  return undefined;
}

/**
 * What the page keeps of one entity an answer names: its UUID, when it was created (ms; v3
 * `metadata.creation_time`, the element API's `created_time_in_usecs`, `createdTimeInUsecs`,
 * tasks' `creation_time_usecs`, `create_time_usecs`, `createTime`), its name and `spec_version`,
 * and for a task whether it has ended.
 * @param {any} entity
 * @param {string} kind
 * @returns {NamedEntity | null}
 */
function entityOf(entity, kind) {
  const uuid = entityUuid(entity, kind);
  if (!uuid) return null;
  const created = [
    entity.metadata?.creation_time,
    entity.created_time_in_usecs,
    entity.createdTimeInUsecs,
    entity.creation_time_usecs,
    entity.create_time_usecs,
    entity.createTime,
  ]
    .map(millis)
    .find((v) => v !== undefined);
  const name = [entity.spec?.name, entity.name, entity.status?.name].find((v) => typeof v === 'string' && v);
  const specVersion = entity.metadata?.spec_version;
  // a task's own state (v3 `status`, v2.0 `progress_status`, v0.8 `progressStatus`): whether it has ended
  const state = [entity.status, entity.progress_status, entity.progressStatus].find((v) => typeof v === 'string');
  return {
    kind,
    uuid,
    ...(created !== undefined ? { created } : {}),
    ...(name ? { name } : {}),
    ...(Number.isInteger(specVersion) ? { specVersion } : {}),
    ...(state ? { ended: TASK_ENDED.test(state) } : {}),
  };
}

/** A task's state once it has ended, in any API's spelling. */
const TASK_ENDED = /^(SUCCEEDED|FAILED|ABORTED|CANCELED|CANCELLED)$/i;

/**
 * @typedef {{ kind: string, uuid: string, created?: number, name?: string, specVersion?: number, ended?: boolean }} NamedEntity
 *   `ended`: a task the answer shows ended (or not); absent when it does not say
 */

/**
 * The UUIDs an answer names, with the kind of each: the values of its OpenAPI links (a create's
 * task: `tasks`), the path's own UUIDs, the entity it is about (a create's or a get's) and every
 * entity of a list (`entities`, the object store list's `specs`), with what the answer says of
 * each (creation time, name, `spec_version`).
 * @param {{ path: string, params: Record<string, string>, body: any,
 *   links: { target: { path: string }, values: { name: string, in?: string, value: any }[] }[] }} answer
 *   `params`: the path parameters sent
 * @returns {NamedEntity[]} no kind and UUID twice (the entity's own details win)
 */
export function uuidsOf({ path, params, body, links }) {
  /** @type {Map<string, NamedEntity>} */
  const out = new Map();
  const add = (kind, uuid, details = {}) => {
    if (!kind || typeof uuid !== 'string' || !UUID.test(uuid)) return;
    const key = kind + ' ' + uuid;
    out.set(key, { ...out.get(key), ...details, kind, uuid });
  };
  for (const link of links) {
    for (const v of link.values) if (!v.in || v.in === 'path') add(kindOf(link.target.path, v.name), v.value);
  }
  for (const [name, value] of Object.entries(params)) add(kindOf(path, name), value);
  const kind = kindOf(path);
  if (kind) {
    const list = Array.isArray(body?.entities) ? body.entities : Array.isArray(body?.specs) ? body.specs : null;
    for (const entity of list ?? [body]) {
      const found = entityOf(entity, kind);
      if (found) add(kind, found.uuid, found);
    }
  }
  return [...out.values()];
}

/**
 * The UUIDs an answer says are gone: a DELETE answered 2xx (the entity goes), or a 404 to a path
 * that names one (it is not there).
 * @param {{ method: string, path: string, params: Record<string, string>, status: number }} answer
 * @returns {string[]}
 */
export function goneOf({ method, path, params, status }) {
  const deleted = String(method).toLowerCase() === 'delete' && status >= 200 && status < 300;
  if (!deleted && status !== 404) return [];
  // the entity the path ends with (`/images/{uuid}`), not a parent of it
  const last = /\{([^}]+)\}$/.exec(path)?.[1];
  const uuid = last === undefined ? undefined : params[last];
  return typeof uuid === 'string' && UUID.test(uuid) ? [uuid] : [];
}
