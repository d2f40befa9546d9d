// Examples that work against the local svc: a `source_uri` of an example body points at the
// sample image the local svc serves itself, not at the internet (an offline machine cannot
// fetch it, and the image would go to ERROR). ES module.
import { resolveRef } from '@svc/oas';

/** Where the local svc serves its sample image (the simulator's GET /samples/cirros.img). */
export const SAMPLE_IMAGE_PATH = '/samples/cirros.img';

/**
 * Points every http(s) `source_uri` in a body at the local svc's own sample image.
 * @param {any} body a request body (changed)
 * @param {string} localSvc the local svc's own origin (explorer-server.json `localSvcUrl`)
 * @returns {boolean} whether anything changed
 */
export function localSources(body, localSvc) {
  if (!body || typeof body !== 'object') return false;
  let changed = false;
  for (const [key, value] of Object.entries(body)) {
    if (key === 'source_uri' && typeof value === 'string' && /^https?:/i.test(value)) {
      const local = localSvc.replace(/\/$/, '') + SAMPLE_IMAGE_PATH;
      changed ||= value !== local;
      body[key] = local;
    } else changed = localSources(value, localSvc) || changed;
  }
  return changed;
}

/**
 * The examples of an operation's JSON request body (`example` and every `examples` entry), as
 * JSON text in one spelling.
 * @param {any} spec the loaded document (plain JSON)
 * @param {string} path
 * @param {string} method lower case
 * @returns {Set<string>}
 */
function exampleTexts(spec, path, method) {
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

/**
 * A request body value as it should stand against the local svc: an example of the operation
 * (as Swagger UI fills it in, untouched by the user) with its `source_uri` made local; any other
 * value (typed, or not JSON) as it is.
 * @param {any} spec the loaded document (plain JSON)
 * @param {[string, string]} pathMethod
 * @param {unknown} value the body's text in the form
 * @param {string} localSvc the local svc's own origin
 * @returns {unknown} `value`, or the localized example's text
 */
export function localExampleBody(spec, [path, method], value, localSvc) {
  if (typeof value !== 'string' || !value.includes('source_uri')) return value;
  let parsed;
  try {
    parsed = JSON.parse(value);
  } catch {
    return value;
  }
  if (!exampleTexts(spec, path, method).has(JSON.stringify(parsed))) return value;
  return localSources(parsed, localSvc) ? JSON.stringify(parsed, null, 2) : value;
}
