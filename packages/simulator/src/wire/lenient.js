// What a request relies on of production's leniency (docs/service.md, "Where production is
// lenient"): forms the descriptions accept because production does, though a strict reading of
// the vendor's schemas would not. The request journal shows each as a violation marked `lenient`
// (the request still follows the description), so that a test suite sees its code relying on them.
import { mediaType } from './body.js';

/** @typedef {import('../control/journal.js').LenientNote} LenientNote */

/** The v3 list bodies' forms that production takes as "not given" (its row 6). */
function listBody(body) {
  /** @type {LenientNote[]} */
  const notes = [];
  for (const key of ['sort_order', 'sort_attribute'])
    if (body?.[key] === null)
      notes.push({ in: 'body', path: `/${key}`, message: 'null, which production takes as not given: leave it out' });
  if (body?.filter === '')
    notes.push({
      in: 'body',
      path: '/filter',
      message: 'an empty filter, which production takes as none: leave it out',
    });
  return notes;
}

/** operationId -> the notes of a request that passed its validation. @type {Record<string, (body: any, headers: any) => LenientNote[]>} */
const RULES = {
  images_list: listBody,
  clusters_list: listBody,
  subnets_list: listBody,
  tasks_list: listBody,
  // row 9: the bytes are stored whatever the media type
  images_upload_v0_8: (_body, headers) =>
    mediaType(headers['content-type']) === 'application/octet-stream'
      ? []
      : [
          {
            in: 'header',
            path: '/content-type',
            message: 'not application/octet-stream: production stores the bytes whatever the media type',
          },
        ],
  // row 10: a framework's name for storage_container_name
  images_create_v2_0: (body) =>
    body?.image_import_spec?.container_name === undefined
      ? []
      : [
          {
            in: 'body',
            path: '/image_import_spec/container_name',
            message: "a framework's name that production takes as storage_container_name: send that",
          },
        ],
};

/** A body's text can hold one of the forms above only when it holds one of these. */
const HINTS = /null|""|container_name/;

/**
 * The leniency a request relies on, from its body's text (read again only when it may hold one
 * of those forms: the hot path's list bodies hold none).
 * @param {string} operationId
 * @param {string | undefined} text  the JSON body as received
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @returns {LenientNote[] | undefined} undefined: none
 */
export function lenientNotes(operationId, text, headers) {
  const rule = RULES[operationId];
  if (!rule || (text !== undefined && !HINTS.test(text))) return undefined;
  let body;
  try {
    body = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined; // not JSON: the validation's refusal says so
  }
  const notes = rule(body, headers);
  return notes.length ? notes : undefined;
}
