// Which fields of a request name another entity of the service (a storage container, a cluster, a
// subnet, an image, a task), and of which kind: what the page fills from the local svc's live
// state instead of the spec's example UUIDs, which name nothing. Read from the service's own
// naming conventions (v3 references `{ kind, uuid }`, `<entity>_uuid`, `<entity>_uuid_list`, the
// element API's `entity_list`), not from a table per operation. ES module, no page state.
import { kindOf, UUID } from './uuid-sources.js';
import { pointerGet } from './workflow.js';

/** A kind is the collection segment of the paths (`images`, `storage_containers`): the plural. */
export function pluralKind(word) {
  const w = String(word).toLowerCase();
  return w.endsWith('s') ? w : `${w}s`;
}

/** Parameters that name an entity without saying it in their path (header and query names, lower case). */
const NAMED_PARAMETERS = {
  // the v0.8 upload's container (element API)
  'x-svc-destination-container': 'storage_containers',
  // the v0.8 task list's filter on the entities of `entityTypes` (Image by default)
  entityuuids: 'images',
};

/**
 * Whether an operation acts on a task that still runs: an action after a task's UUID
 * (`/tasks/{uuid}/abort`, the control API's `/tasks/{uuid}/complete`), which answers 409 or 422
 * for a task that has ended.
 * @param {string} path the spec's path template
 * @returns {boolean}
 */
export function needsUnfinishedTask(path) {
  return /(^|\/)tasks\/\{[^}]+\}\/[a-z_]+$/.test(path);
}

/** Arrays of UUIDs whose key does not say the kind (`completed_tasks` of the v2.0 task poll). */
const NAMED_ARRAYS = { completed_tasks: 'tasks' };

/**
 * The kind of entity a parameter names, or null: a path parameter of a member path
 * (`/images/{uuid}` names `images`), and the named header and query parameters above.
 * @param {string} path the spec's path template
 * @param {{ name: string, in: string }} parameter
 * @returns {string | null}
 */
export function parameterKind(path, { name, in: where }) {
  if (where === 'path') {
    const kind = kindOf(path, name);
    // `/services/{service_name}/status` names a service by name, not an entity by UUID
    return kind && /uuid|id$/i.test(name) ? kind : null;
  }
  return NAMED_PARAMETERS[String(name).toLowerCase()] ?? null;
}

/**
 * @typedef {object} BodyReference
 * @property {string} pointer JSON pointer of the UUID (or, with `list`, of the array of UUIDs)
 * @property {string} kind the entities' kind (`clusters`)
 * @property {boolean} [list] the pointer holds an array of UUIDs
 */

/**
 * The fields of a JSON request body that name other entities, by the service's conventions:
 * a reference object `{ kind, uuid }` under a `*_reference` key or in a `*_reference_list`;
 * `<entity>_uuid`; `<entity>_uuid_list` and `completed_tasks` (arrays); `{ entity_type, entity_id }`.
 * The body's own `metadata` (the entity itself) is not a reference.
 * @param {any} body
 * @returns {BodyReference[]}
 */
export function bodyReferences(body) {
  /** @type {BodyReference[]} */
  const out = [];
  const visit = (node, pointer, key) => {
    if (Array.isArray(node)) {
      const named = NAMED_ARRAYS[key] ?? (/_uuid_list$/.test(key) ? pluralKind(key.replace(/_uuid_list$/, '')) : null);
      if (named && node.every((v) => typeof v === 'string')) {
        out.push({ pointer, kind: named, list: true });
        return;
      }
      node.forEach((item, i) => {
        visit(item, `${pointer}/${i}`, key);
      });
      return;
    }
    if (!node || typeof node !== 'object') return;
    // (an item of a list carries the list's key)
    const isReference = typeof node.kind === 'string' && 'uuid' in node && /_reference(_list)?$/.test(key);
    if (isReference) out.push({ pointer: `${pointer}/uuid`, kind: pluralKind(node.kind) });
    if (typeof node.entity_type === 'string' && 'entity_id' in node)
      out.push({ pointer: `${pointer}/entity_id`, kind: pluralKind(node.entity_type) });
    for (const [k, v] of Object.entries(node)) {
      const at = `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (typeof v === 'string' && /_uuid$/.test(k) && k !== 'uuid')
        out.push({ pointer: at, kind: pluralKind(k.replace(/_uuid$/, '')) });
      else if (v && typeof v === 'object') visit(v, at, k);
    }
  };
  visit(body, '', '');
  return out;
}

/**
 * The entity a request is about when its path names it and its body repeats it (an update:
 * `PUT /images/{uuid}` with `metadata.uuid` and `metadata.spec_version`): the pointers to fill
 * with the path's UUID and the entity's current `spec_version`.
 * @param {string} path
 * @param {any} body
 * @returns {{ kind: string, parameter: string, uuid: string, specVersion?: string } | null}
 */
export function selfReference(path, body) {
  const parameter = /\{([^}]+)\}$/.exec(path)?.[1];
  if (!parameter || !body?.metadata || typeof body.metadata !== 'object' || !('uuid' in body.metadata)) return null;
  const kind = kindOf(path, parameter);
  if (!kind) return null;
  return {
    kind,
    parameter,
    uuid: '/metadata/uuid',
    ...('spec_version' in body.metadata ? { specVersion: '/metadata/spec_version' } : {}),
  };
}

/** Whether a value is a UUID. */
export const isUuid = (value) => typeof value === 'string' && UUID.test(value);

/**
 * The reference fields of a request whose UUID an error answer names: what the service did not
 * find (`no storage container has UUID …`, `… is not found`, `… does not exist`).
 * @param {{ params: { name: string, in: string, value: any, kind: string | null }[], body: any }} request
 *   the parameters with their kinds (parameterKind), the JSON body
 * @param {string} text the answer's text
 * @returns {{ field: string, kind: string, uuid: string, where: 'parameter' | 'body', name?: string, in?: string, pointer?: string }[]}
 */
export function missingReferences({ params, body }, text) {
  const found = [];
  const named = (uuid) => isUuid(uuid) && String(text).toLowerCase().includes(uuid.toLowerCase());
  for (const p of params) {
    for (const uuid of [p.value].flat()) {
      if (p.kind && named(uuid))
        found.push({ field: p.name, kind: p.kind, uuid, where: 'parameter', name: p.name, in: p.in });
    }
  }
  if (body && typeof body === 'object') {
    for (const ref of bodyReferences(body)) {
      const value = pointerGet(body, ref.pointer);
      for (const uuid of [value].flat()) {
        if (named(uuid))
          found.push({
            field: ref.pointer.slice(1).replace(/\//g, '.'),
            kind: ref.kind,
            uuid,
            where: 'body',
            pointer: ref.pointer,
          });
      }
    }
  }
  return found;
}
