// Examples that work against the local svc: a `source_uri` of an example body points at the
// sample image the local svc serves itself, not at the internet (an offline machine cannot
// fetch it, and the image would go to ERROR), and the UUIDs of other entities are those of live
// ones (references.js). ES module, no page state.
import { resolveRef } from '@svc/oas';
import { bodyReferences, selfReference } from './references.js';
import { pointerGet, pointerSet } from './workflow.js';

/** Where the local svc serves its sample image (the simulator's GET /samples/cirros.img). */
export const SAMPLE_IMAGE_PATH = '/samples/cirros.img';

/** Whether a member is the URL an image is fetched from: v3 `source_uri`, the v2.0 `image_import_spec.url`. */
const isSource = (key, parentKey) => key === 'source_uri' || (key === 'url' && parentKey === 'image_import_spec');

/**
 * Points every http(s) image source in a body (`source_uri`, `image_import_spec.url`) at the
 * local svc's own sample image.
 * @param {any} body a request body (changed)
 * @param {string} localSvc the local svc's own origin (explorer-server.json `localSvcUrl`)
 * @param {string} [parentKey] (the key `body` sits under)
 * @returns {string[]} the JSON pointers changed
 */
export function localSources(body, localSvc, parentKey = '') {
  if (!body || typeof body !== 'object') return [];
  const changed = [];
  for (const [key, value] of Object.entries(body)) {
    if (isSource(key, parentKey) && typeof value === 'string' && /^https?:/i.test(value)) {
      const local = localSvc.replace(/\/$/, '') + SAMPLE_IMAGE_PATH;
      if (value !== local) changed.push(`/${key}`);
      body[key] = local;
    } else changed.push(...localSources(value, localSvc, key).map((p) => `/${key}${p}`));
  }
  return changed;
}

/**
 * One value a default body took: where, and from which live entity (none for the sample image).
 * @typedef {{ pointer: string, kind?: string, known?: import('./knowledge.js').Known, sample?: true }} Filled
 */

/**
 * An example body as it should stand against the local svc: its image sources the local svc's
 * sample, each reference to another entity (references.js) the newest live one of its kind (an
 * array as many as it had, or as there are), and an update's `metadata.uuid` and
 * `metadata.spec_version` those of the entity its path names. A reference without a live entity
 * keeps the example's value.
 * @param {any} example the example body (not changed)
 * @param {{ path: string, localSvc: string, pick: (kind: string, count: number) => import('./knowledge.js').Known[],
 *   specVersionOf: (uuid: string) => number | undefined }} live
 * @returns {{ body: any, filled: Filled[] }}
 */
export function localBody(example, { path, localSvc, pick, specVersionOf }) {
  const body = structuredClone(example);
  /** @type {Filled[]} */
  const filled = localSources(body, localSvc).map((pointer) => ({ pointer, sample: /** @type {const} */ (true) }));
  for (const ref of bodyReferences(body)) {
    const now = pointerGet(body, ref.pointer);
    const picked = pick(ref.kind, ref.list ? Math.max(1, Array.isArray(now) ? now.length : 1) : 1);
    if (!picked.length) continue;
    pointerSet(body, ref.pointer, ref.list ? picked.map((k) => k.uuid) : picked[0].uuid);
    filled.push({ pointer: ref.pointer, kind: ref.kind, known: picked[0] });
  }
  const self = selfReference(path, body);
  const [entity] = self ? pick(self.kind, 1) : [];
  if (self && entity) {
    pointerSet(body, self.uuid, entity.uuid);
    filled.push({ pointer: self.uuid, kind: self.kind, known: entity });
    const version = specVersionOf(entity.uuid);
    if (self.specVersion && version !== undefined) {
      pointerSet(body, self.specVersion, version);
      filled.push({ pointer: self.specVersion, kind: self.kind, known: entity });
    }
  }
  return { body, filled };
}

/**
 * The examples of an operation's JSON request body (`example` and every `examples` entry), as
 * JSON text in one spelling.
 * @param {any} spec the loaded document (plain JSON)
 * @param {string} path
 * @param {string} method lower case
 * @returns {Set<string>}
 */
export function exampleTexts(spec, path, method) {
  const local = (node) => resolveRef(spec, node).value;
  const body = local(spec.paths?.[path]?.[method]?.requestBody);
  const texts = new Set();
  for (const [type, raw] of Object.entries(body?.content ?? {})) {
    if (!/json/i.test(type)) continue;
    const media = local(raw);
    if (media?.example !== undefined) texts.add(JSON.stringify(media.example));
    for (const example of Object.values(media?.examples ?? {})) {
      const value = local(example)?.value;
      if (value !== undefined) texts.add(JSON.stringify(value));
    }
  }
  return texts;
}
